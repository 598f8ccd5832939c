#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sbx {

// The private OSC sequences the shell's startup file makes bash print: ESC ] 6973 ; start BEL
// from PS0 (a command line was read, its output follows) and ESC ] 6973 ; prompt ; $? BEL from
// PROMPT_COMMAND (the command ended). Terminals ignore OSC numbers they do not know.
inline constexpr std::string_view kMarkerOscNumber = "6973";

struct ShellMarker {
    enum class Kind { Start, Prompt };
    Kind kind = Kind::Start;
    int exitCode = 0;
    // Offsets just past the sequence: in the fed bytes, and in VtEvents::text.
    std::size_t byteEnd = 0;
    std::size_t textEnd = 0;
};

// A position where a replay or a lagging client may start: the parser is in its ground state
// and no UTF-8 character is half read.
struct SafePoint {
    std::size_t byteEnd = 0;
    bool altScreen = false;
};

struct VtEvents {
    // Printable text (UTF-8 bytes as they came, '\n' and '\t'; no escape sequence, no '\r').
    std::string text;
    std::vector<ShellMarker> markers;
    std::vector<SafePoint> safePoints;

    void clear();
};

// A small VT parser run over a session's PTY output (after Paul Williams' DEC parser, minus
// everything that draws): it knows the safe points, whether the alternate screen is active
// (?1049, ?1047, ?47) and extracts the prompt markers and the plain text.
class VtTracker final {
public:
    // Appends what the bytes produce to events.
    void feed(std::string_view bytes, VtEvents &events);

    bool altScreen() const { return m_altScreen; }
    bool atSafePoint() const { return m_state == State::Ground && m_utf8Pending == 0; }
    // Starts over in the ground state (a lagging client skipped to a safe point).
    void resetTo(bool altScreen);

private:
    enum class State {
        Ground,
        Escape,
        EscapeIntermediate,
        Csi,
        Osc,
        OscEscape,
        String,
        StringEscape
    };

    void step(unsigned char byte, std::size_t index, VtEvents &events);
    void dispatchCsi(unsigned char final);
    void finishOsc(std::size_t index, VtEvents &events);

    State m_state = State::Ground;
    int m_utf8Pending = 0;
    bool m_altScreen = false;
    // CSI parameters and the start of an OSC payload; bounded, the rest is not needed.
    std::string m_collect;
    // Bytes since the last safe point reported, so that points are spread out.
    std::size_t m_sinceSafePoint = 0;
};

} // namespace sbx
