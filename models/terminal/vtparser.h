#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sbx {

// An escape, CSI or DCS sequence as the parser collected it. Parameters are ECMA-48's:
// separated by ';', with ':' joining sub-parameters to the one before (ITU T.416 colours).
struct VtSequence {
    static constexpr int kMaxParams = 32;
    static constexpr int kMaxIntermediates = 2;
    static constexpr int32_t kMaxValue = 65535; // larger numbers are clamped, as in xterm

    char leader = 0; // CSI/DCS private marker '<', '=', '>' or '?'; 0 without
    char intermediates[kMaxIntermediates] = {};
    int intermediateCount = 0;
    char final = 0;
    int paramCount = 0;
    int32_t params[kMaxParams] = {}; // -1 where a parameter was left out; valid to paramCount
    uint32_t subFollows = 0;         // bit i: params[i + 1] is a sub-parameter of params[i]

    // Parameter i, or fallback when it was left out or not given.
    int param(int i, int fallback) const {
        return i < paramCount && params[i] >= 0 ? params[i] : fallback;
    }
    // A count (cursor moves, erasures): left out or 0 both mean 1.
    int count(int i) const { return param(i, 0) > 0 ? param(i, 0) : 1; }
    bool hasSubParam(int i) const { return i >= 0 && i < kMaxParams && (subFollows >> i) & 1u; }
    // The one intermediate byte, 0 without; sequences with two are told apart by the caller.
    char intermediate() const { return intermediateCount == 1 ? intermediates[0] : 0; }
};

// What the parser found in the byte stream, in order.
class VtHandler {
public:
    virtual ~VtHandler() = default;
    // A run of printable ASCII (0x20 to 0x7e), length >= 1: the hot path of every stream.
    virtual void printAscii(const char *text, size_t length) = 0;
    // A run of printable code points decoded from UTF-8 (U+FFFD for broken input): text with
    // non-ASCII characters, and the ASCII between them.
    virtual void print(const char32_t *text, size_t length) = 0;
    // A C0 control other than ESC, CAN and SUB, or a C1 control that opens no string.
    virtual void execute(uint32_t control) = 0;
    virtual void escDispatch(const VtSequence &sequence) = 0;
    virtual void csiDispatch(const VtSequence &sequence) = 0;
    // The bytes between OSC and its BEL or ST, cut at kMaxString.
    virtual void oscDispatch(std::string_view payload) = 0;
    // A DCS sequence and its data up to ST; none when the data exceeded kMaxString.
    virtual void dcsDispatch(const VtSequence &sequence, std::string_view payload) = 0;
};

// The DEC/ANSI parser of a terminal (Paul Williams' state machine, as in xterm, alacritty's
// vte and kitty) reading UTF-8. Printable text goes to the handler in runs rather than per
// character; a sequence or a UTF-8 character split across feed() calls is carried over.
class VtParser final {
public:
    static constexpr size_t kMaxString = 4096;

    void feed(const char *data, size_t length, VtHandler &handler);
    void reset();

private:
    enum class State : uint8_t {
        Ground,
        Escape,
        EscapeIntermediate,
        CsiEntry,
        CsiParam,
        CsiIntermediate,
        CsiIgnore,
        DcsEntry,
        DcsParam,
        DcsIntermediate,
        DcsPassthrough,
        DcsIgnore,
        OscString,
        IgnoredString, // SOS, PM, APC
    };

    const char *groundText(const char *p, const char *end, VtHandler &handler);
    const char *csiParams(const char *p, const char *end, VtHandler &handler);
    void advance(uint32_t cp, VtHandler &handler);
    void control(uint32_t cp, VtHandler &handler);
    void enter(State state);
    void collect(uint32_t cp);
    void param(uint32_t cp);
    void endString(VtHandler &handler);
    void appendString(uint32_t cp);

    State m_state = State::Ground;
    // A UTF-8 character in progress: the bits so far, continuation bytes still to come, the
    // least value its length may encode (overlong forms are broken input).
    uint32_t m_utf8 = 0;
    int m_utf8Need = 0;
    uint32_t m_utf8Min = 0;
    VtSequence m_sequence;
    bool m_paramOverflow = false;
    bool m_ignore = false; // too many intermediates: the sequence is read but not dispatched
    std::string m_string;
    bool m_stringOverflow = false;
};

} // namespace sbx
