#include "server/shell/vttracker.h"

#include <charconv>

namespace sbx {

namespace {

constexpr std::size_t kCollectLimit = 64;
// Safe points after a newline are preferred (a replay then starts at a line start); without
// newlines (full-screen programs) any ground position will do, now and then.
constexpr std::size_t kNewlineSpacing = 128;
constexpr std::size_t kPlainSpacing = 4096;

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kBel = 0x07;
constexpr unsigned char kCan = 0x18;
constexpr unsigned char kSub = 0x1a;

int utf8Continuations(unsigned char lead) {
    if (lead >= 0xc2 && lead <= 0xdf)
        return 1;
    if (lead >= 0xe0 && lead <= 0xef)
        return 2;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 3;
    return 0;
}

} // namespace

void VtEvents::clear() {
    text.clear();
    markers.clear();
    safePoints.clear();
}

void VtTracker::resetTo(bool altScreen) {
    m_state = State::Ground;
    m_utf8Pending = 0;
    m_altScreen = altScreen;
    m_collect.clear();
    m_sinceSafePoint = 0;
}

void VtTracker::feed(std::string_view bytes, VtEvents &events) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const auto byte = static_cast<unsigned char>(bytes[i]);
        step(byte, i, events);
        ++m_sinceSafePoint;
        if (!atSafePoint())
            continue;
        if ((byte == '\n' && m_sinceSafePoint >= kNewlineSpacing) ||
            m_sinceSafePoint >= kPlainSpacing) {
            events.safePoints.push_back({i + 1, m_altScreen});
            m_sinceSafePoint = 0;
        }
    }
}

void VtTracker::step(unsigned char byte, std::size_t index, VtEvents &events) {
    // CAN and SUB abort any sequence; ESC starts a new one (inside strings it may be ST).
    if (byte == kCan || byte == kSub) {
        m_state = State::Ground;
        m_utf8Pending = 0;
        return;
    }
    switch (m_state) {
    case State::Ground:
        if (m_utf8Pending > 0) {
            if ((byte & 0xc0) == 0x80) {
                --m_utf8Pending;
                events.text.push_back(static_cast<char>(byte));
                return;
            }
            // A truncated character: the byte starts afresh (the JSON side shows U+FFFD).
            m_utf8Pending = 0;
        }
        if (byte == kEsc) {
            m_state = State::Escape;
        } else if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte < 0x7f)) {
            events.text.push_back(static_cast<char>(byte));
        } else if (byte >= 0x80) {
            m_utf8Pending = utf8Continuations(byte);
            events.text.push_back(static_cast<char>(byte));
        }
        return;
    case State::Escape:
        m_collect.clear();
        if (byte == '[') {
            m_state = State::Csi;
        } else if (byte == ']') {
            m_state = State::Osc;
        } else if (byte == 'P' || byte == 'X' || byte == '^' || byte == '_') {
            m_state = State::String;
        } else if (byte >= 0x20 && byte <= 0x2f) {
            m_state = State::EscapeIntermediate;
        } else if (byte >= 0x30 && byte <= 0x7e) {
            m_state = State::Ground;
        } else if (byte == kEsc) {
            m_state = State::Escape;
        }
        return;
    case State::EscapeIntermediate:
        if (byte >= 0x30 && byte <= 0x7e)
            m_state = State::Ground;
        else if (byte == kEsc)
            m_state = State::Escape;
        return;
    case State::Csi:
        if (byte >= 0x40 && byte <= 0x7e) {
            dispatchCsi(byte);
            m_state = State::Ground;
        } else if (byte == kEsc) {
            m_state = State::Escape;
        } else if (byte >= 0x20 && byte <= 0x3f && m_collect.size() < kCollectLimit) {
            m_collect.push_back(static_cast<char>(byte));
        } else if (byte == '\n') {
            // C0 controls inside a CSI are executed, as xterm does.
            events.text.push_back('\n');
        }
        return;
    case State::Osc:
        if (byte == kBel) {
            finishOsc(index, events);
            m_state = State::Ground;
        } else if (byte == kEsc) {
            m_state = State::OscEscape;
        } else if (m_collect.size() < kCollectLimit) {
            m_collect.push_back(static_cast<char>(byte));
        }
        return;
    case State::OscEscape:
        // ESC \ is the string terminator; any other ESC also ends the OSC (xterm) and starts
        // a new sequence.
        finishOsc(index, events);
        if (byte == '\\') {
            m_state = State::Ground;
        } else {
            m_state = State::Escape;
            step(byte, index, events);
        }
        return;
    case State::String:
        if (byte == kEsc)
            m_state = State::StringEscape;
        return;
    case State::StringEscape:
        if (byte == '\\') {
            m_state = State::Ground;
        } else {
            m_state = State::Escape;
            step(byte, index, events);
        }
        return;
    }
}

void VtTracker::dispatchCsi(unsigned char final) {
    if ((final != 'h' && final != 'l') || m_collect.empty() || m_collect.front() != '?')
        return;
    // "?1049;25h" sets several private modes at once.
    std::string_view params(m_collect);
    params.remove_prefix(1);
    while (!params.empty()) {
        const std::size_t semicolon = params.find(';');
        const std::string_view param = params.substr(0, semicolon);
        int mode = 0;
        const auto [end, ec] = std::from_chars(param.data(), param.data() + param.size(), mode);
        if (ec == std::errc() && end == param.data() + param.size() &&
            (mode == 1049 || mode == 1047 || mode == 47))
            m_altScreen = final == 'h';
        if (semicolon == std::string_view::npos)
            break;
        params.remove_prefix(semicolon + 1);
    }
}

void VtTracker::finishOsc(std::size_t index, VtEvents &events) {
    std::string_view payload(m_collect);
    if (payload.substr(0, kMarkerOscNumber.size()) != kMarkerOscNumber ||
        payload.substr(kMarkerOscNumber.size(), 1) != ";")
        return;
    payload.remove_prefix(kMarkerOscNumber.size() + 1);
    ShellMarker marker;
    marker.byteEnd = index + 1;
    marker.textEnd = events.text.size();
    if (payload == "start") {
        marker.kind = ShellMarker::Kind::Start;
    } else if (payload.substr(0, 7) == "prompt;") {
        marker.kind = ShellMarker::Kind::Prompt;
        payload.remove_prefix(7);
        std::from_chars(payload.data(), payload.data() + payload.size(), marker.exitCode);
    } else {
        return;
    }
    events.markers.push_back(marker);
}

} // namespace sbx
