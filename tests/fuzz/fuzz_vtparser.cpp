// Fuzzes the terminal's DEC/ANSI parser (models/terminal/vtparser.cpp): whatever the bytes, what
// it reports stays within its contract (printable runs, bounded parameters and strings), and
// the events do not depend on where the input was cut into feeds.
//
// Input: the first byte picks the piece size of the cut feed (1 to 16 bytes); the rest is
// the stream.
#include "models/terminal/vtparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace sbx;

namespace {

// Writes every event into one string, adjacent text joined, checking each as it comes.
class Checker final : public VtHandler {
public:
    std::string log;

    void printAscii(const char *text, size_t length) override {
        check(length > 0);
        startText();
        for (size_t i = 0; i < length; ++i) {
            check(text[i] >= 0x20 && text[i] < 0x7f);
            log += text[i];
        }
    }
    void print(const char32_t *text, size_t length) override {
        check(length > 0);
        startText();
        for (size_t i = 0; i < length; ++i) {
            const char32_t c = text[i];
            check((c >= 0x20 && c < 0x7f) ||
                  (c >= 0xa0 && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff)));
            if (c < 0x80) { // ASCII may come in either kind of run: logged alike
                log += char(c);
                continue;
            }
            log += 'U';
            log += std::to_string(uint32_t(c));
        }
    }
    void execute(uint32_t control) override {
        check(control < 0x20 || (control >= 0x80 && control < 0xa0));
        check(control != 0x1b && control != 0x18 && control != 0x1a);
        event("X" + std::to_string(control));
    }
    void escDispatch(const VtSequence &s) override { event("E" + describe(s)); }
    void csiDispatch(const VtSequence &s) override { event("C" + describe(s)); }
    void oscDispatch(std::string_view payload) override {
        check(payload.size() <= VtParser::kMaxString + 3);
        event("O" + std::string(payload));
    }
    void dcsDispatch(const VtSequence &s, std::string_view payload) override {
        check(payload.size() <= VtParser::kMaxString + 3);
        event("D" + describe(s) + "|" + std::string(payload));
    }

private:
    bool m_inText = false;

    void startText() {
        if (!m_inText)
            log += "\nT";
        m_inText = true;
    }
    void event(const std::string &what) {
        m_inText = false;
        log += '\n';
        log += what;
    }
    static std::string describe(const VtSequence &s) {
        check(s.paramCount >= 0 && s.paramCount <= VtSequence::kMaxParams);
        check(s.intermediateCount >= 0 && s.intermediateCount <= VtSequence::kMaxIntermediates);
        check(s.final >= 0x30 && s.final < 0x7f);
        std::string out(1, s.leader ? s.leader : '.');
        for (int i = 0; i < s.paramCount; ++i) {
            check(s.params[i] >= -1 && s.params[i] <= VtSequence::kMaxValue);
            out += std::to_string(s.params[i]) + (s.hasSubParam(i) ? ":" : ";");
        }
        out.append(s.intermediates, size_t(s.intermediateCount));
        out += s.final;
        return out;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::size_t piece = 1 + data[0] % 16;
    const char *bytes = reinterpret_cast<const char *>(data + 1);
    const std::size_t length = size - 1;
    VtParser whole;
    Checker all;
    whole.feed(bytes, length, all);
    VtParser cut;
    Checker pieces;
    for (std::size_t at = 0; at < length; at += piece)
        cut.feed(bytes + at, std::min(piece, length - at), pieces);
    check(all.log == pieces.log);
    return 0;
}
