#include "models/terminal/vtparser.h"

#include <algorithm>
#include <cstring>

namespace sbx {

namespace {

constexpr uint32_t kReplacement = 0xfffd;
constexpr size_t kRunCapacity = 512;
// ASCII bytes in a row that end a decoded run: from there the ASCII path is the faster one.
constexpr size_t kAsciiStreak = 16;

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighs = 0x8080808080808080ull;

// True when all eight bytes are printable ASCII: none below 0x20, none above 0x7e.
inline bool allPrintable(uint64_t x) {
    const uint64_t below = (x - kOnes * 0x20) & ~x & kHighs;
    const uint64_t above = ((x + kOnes) | x) & kHighs;
    return (below | above) == 0;
}

inline bool isPrintableAscii(unsigned char b) {
    return b >= 0x20 && b < 0x7f;
}

// Length of a UTF-8 sequence from its first byte, and the least value it may encode; 0 for a
// byte that starts none.
inline int sequenceLength(unsigned char b, uint32_t *min) {
    if (b >= 0xc2 && b <= 0xdf) {
        *min = 0x80;
        return 2;
    }
    if (b >= 0xe0 && b <= 0xef) {
        *min = 0x800;
        return 3;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        *min = 0x10000;
        return 4;
    }
    return 0;
}

inline bool validCodePoint(uint32_t cp, uint32_t min) {
    return cp >= min && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
}

void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xc0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += char(0xe0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    } else {
        out += char(0xf0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3f));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    }
}

} // namespace

void VtParser::reset() {
    m_state = State::Ground;
    m_utf8Need = 0;
    m_string.clear();
}

void VtParser::feed(const char *data, size_t length, VtHandler &handler) {
    const char *p = data;
    const char *const end = data + length;
    while (p < end) {
        if (m_utf8Need == 0) {
            if (m_state == State::Ground) {
                p = groundText(p, end, handler);
                continue;
            }
            if (m_state == State::CsiEntry || m_state == State::CsiParam) {
                const char *next = csiParams(p, end, handler);
                const bool progressed = next != p;
                p = next;
                if (progressed || p == end)
                    continue; // else the byte csiParams left is one for the general path
            }
        }
        const auto b = static_cast<unsigned char>(*p++);
        if (m_utf8Need > 0) {
            if ((b & 0xc0) == 0x80) {
                m_utf8 = (m_utf8 << 6) | (b & 0x3f);
                if (--m_utf8Need == 0)
                    advance(validCodePoint(m_utf8, m_utf8Min) ? m_utf8 : kReplacement, handler);
                continue;
            }
            // The character broke off: what came so far stands for one replacement.
            m_utf8Need = 0;
            advance(kReplacement, handler);
        }
        if (b < 0x80) {
            advance(b, handler);
        } else if (const int len = sequenceLength(b, &m_utf8Min)) {
            m_utf8 = b & (0xff >> (len + 1));
            m_utf8Need = len - 1;
        } else {
            advance(kReplacement, handler);
        }
    }
}

// Ground state: printable runs straight to the handler, anything else through advance().
const char *VtParser::groundText(const char *p, const char *end, VtHandler &handler) {
    const char *start = p;
    while (end - p >= 8) {
        uint64_t word;
        std::memcpy(&word, p, sizeof word);
        if (!allPrintable(word))
            break;
        p += 8;
    }
    while (p < end && isPrintableAscii(static_cast<unsigned char>(*p)))
        ++p;
    if (p > start)
        handler.printAscii(start, size_t(p - start));
    if (p == end)
        return p;
    auto b = static_cast<unsigned char>(*p);
    if (b < 0x80) {
        if (b == 0x1b && end - p >= 2 && p[1] == '[') {
            enter(State::CsiEntry); // the common case of every colour change
            return p + 2;
        }
        advance(b, handler); // a control, or DEL
        return p + 1;
    }
    // Text with non-ASCII characters, decoded into one run: ASCII in between stays in it
    // (mixed text is then one call), until a control or a long stretch of ASCII, which goes
    // back to the loop above.
    char32_t run[kRunCapacity];
    size_t n = 0;
    size_t asciiStreak = 0;
    while (p < end && n < kRunCapacity) {
        b = static_cast<unsigned char>(*p);
        if (b < 0x80) {
            if (!isPrintableAscii(b))
                break;
            if (++asciiStreak == kAsciiStreak) {
                n -= kAsciiStreak - 1;
                p -= kAsciiStreak - 1;
                break;
            }
            run[n++] = b;
            ++p;
            continue;
        }
        asciiStreak = 0;
        // The common, well-formed two- and three-byte characters, decoded in one step.
        if (b >= 0xe0 && b <= 0xef && end - p >= 3) {
            const auto c1 = static_cast<unsigned char>(p[1]);
            const auto c2 = static_cast<unsigned char>(p[2]);
            const uint32_t cp = ((b & 0x0fu) << 12) | ((c1 & 0x3fu) << 6) | (c2 & 0x3fu);
            if ((c1 & 0xc0) == 0x80 && (c2 & 0xc0) == 0x80 && cp >= 0x800 &&
                (cp < 0xd800 || cp > 0xdfff)) {
                run[n++] = char32_t(cp);
                p += 3;
                continue;
            }
        } else if (b >= 0xc2 && b <= 0xdf && end - p >= 2) {
            const auto c1 = static_cast<unsigned char>(p[1]);
            const uint32_t cp = ((b & 0x1fu) << 6) | (c1 & 0x3fu);
            if ((c1 & 0xc0) == 0x80 && cp >= 0xa0) {
                run[n++] = char32_t(cp);
                p += 2;
                continue;
            }
        }
        uint32_t min = 0;
        const int len = sequenceLength(b, &min);
        if (len == 0) {
            run[n++] = kReplacement;
            ++p;
            continue;
        }
        if (end - p < len) {
            // Cut by the end of this feed: the rest comes with the next one.
            int have = 1;
            while (p + have < end && (static_cast<unsigned char>(p[have]) & 0xc0) == 0x80)
                ++have;
            if (p + have < end) { // broken before the feed ended
                run[n++] = kReplacement;
                p += have;
                continue;
            }
            if (n > 0)
                handler.print(run, n);
            m_utf8 = b & (0xff >> (len + 1));
            m_utf8Min = min;
            m_utf8Need = len - 1;
            for (int i = 1; i < have; ++i) {
                m_utf8 = (m_utf8 << 6) | (static_cast<unsigned char>(p[i]) & 0x3f);
                --m_utf8Need;
            }
            return end;
        }
        uint32_t cp = b & (0xff >> (len + 1));
        int i = 1;
        for (; i < len; ++i) {
            const auto c = static_cast<unsigned char>(p[i]);
            if ((c & 0xc0) != 0x80)
                break;
            cp = (cp << 6) | (c & 0x3f);
        }
        p += i;
        if (i < len || !validCodePoint(cp, min)) {
            run[n++] = kReplacement;
            continue;
        }
        if (cp < 0xa0) { // a C1 control written as UTF-8
            if (n > 0)
                handler.print(run, n);
            advance(cp, handler);
            return p;
        }
        run[n++] = char32_t(cp);
    }
    if (n > 0)
        handler.print(run, n);
    return p;
}

// CSI parameters and the final byte without a trip through advance() per byte: the SGR
// sequences of a coloured stream are mostly digits and separators.
const char *VtParser::csiParams(const char *p, const char *end, VtHandler &handler) {
    VtSequence &s = m_sequence;
    while (p < end) {
        const auto b = static_cast<unsigned char>(*p);
        if (b >= '0' && b <= '9') {
            if (m_paramOverflow) {
                ++p;
                continue;
            }
            if (s.paramCount == 0) {
                s.params[0] = -1;
                s.paramCount = 1;
            }
            int32_t &value = s.params[s.paramCount - 1];
            value =
                std::min((value < 0 ? 0 : value) * 10 + int32_t(b - '0'), VtSequence::kMaxValue);
            m_state = State::CsiParam;
            ++p;
        } else if (b == ';' || b == ':') {
            param(b);
            m_state = State::CsiParam;
            ++p;
        } else if (b >= 0x40 && b < 0x7f) {
            s.final = char(b);
            if (!m_ignore)
                handler.csiDispatch(s);
            m_state = State::Ground;
            return p + 1;
        } else {
            return p; // anything else takes the general path
        }
    }
    return p;
}

void VtParser::enter(State state) {
    m_state = state;
    switch (state) {
    case State::Escape:
    case State::CsiEntry:
    case State::DcsEntry:
        // Only what says how much of the parameters is in use: they are written as they come.
        m_sequence.leader = 0;
        m_sequence.intermediateCount = 0;
        m_sequence.final = 0;
        m_sequence.paramCount = 0;
        m_sequence.subFollows = 0;
        m_paramOverflow = false;
        m_ignore = false;
        break;
    case State::OscString:
    case State::DcsPassthrough:
        m_string.clear();
        m_stringOverflow = false;
        break;
    default:
        break;
    }
}

void VtParser::collect(uint32_t cp) {
    if (m_sequence.intermediateCount == VtSequence::kMaxIntermediates) {
        m_ignore = true;
        return;
    }
    m_sequence.intermediates[m_sequence.intermediateCount++] = char(cp);
}

void VtParser::param(uint32_t cp) {
    VtSequence &s = m_sequence;
    if (m_paramOverflow)
        return;
    if (s.paramCount == 0) {
        s.params[0] = -1;
        s.paramCount = 1;
    }
    if (cp == ';' || cp == ':') {
        if (s.paramCount == VtSequence::kMaxParams) {
            m_paramOverflow = true; // xterm and vte read no more than this either
            return;
        }
        if (cp == ':')
            s.subFollows |= 1u << (s.paramCount - 1);
        s.params[s.paramCount++] = -1;
        return;
    }
    int32_t &value = s.params[s.paramCount - 1];
    value = value < 0 ? 0 : value;
    value = value * 10 + int32_t(cp - '0');
    if (value > VtSequence::kMaxValue)
        value = VtSequence::kMaxValue;
}

void VtParser::appendString(uint32_t cp) {
    if (m_string.size() >= kMaxString) {
        m_stringOverflow = true;
        return;
    }
    appendUtf8(m_string, cp);
}

void VtParser::endString(VtHandler &handler) {
    if (m_state == State::OscString)
        handler.oscDispatch(m_string); // a title cut at kMaxString is still a title
    else if (m_state == State::DcsPassthrough && !m_stringOverflow && !m_ignore)
        handler.dcsDispatch(m_sequence, m_string);
    m_string.clear();
}

// Controls that act in every state: they end or abort whatever sequence was open.
void VtParser::control(uint32_t cp, VtHandler &handler) {
    const bool inString = m_state == State::OscString || m_state == State::DcsPassthrough;
    switch (cp) {
    case 0x18: // CAN and SUB abort the sequence
    case 0x1a:
        m_string.clear();
        enter(State::Ground);
        return;
    case 0x1b:
        if (inString)
            endString(handler); // the ST (ESC \) that usually follows is then a no-op
        enter(State::Escape);
        return;
    case 0x9c: // ST
        if (inString)
            endString(handler);
        enter(State::Ground);
        return;
    case 0x90:
        enter(State::DcsEntry);
        return;
    case 0x9b:
        enter(State::CsiEntry);
        return;
    case 0x9d:
        enter(State::OscString);
        return;
    case 0x98:
    case 0x9e:
    case 0x9f:
        enter(State::IgnoredString);
        return;
    default:
        if (inString) {
            m_string.clear();
            m_state = State::Ground; // any other C1 control ends a string unfinished
        } else if (m_state == State::IgnoredString) {
            m_state = State::Ground;
        } else if (m_state != State::Ground) {
            m_state = State::Ground; // a C1 control cancels a sequence in progress
        }
        handler.execute(cp);
        return;
    }
}

void VtParser::advance(uint32_t cp, VtHandler &handler) {
    if (cp == 0x18 || cp == 0x1a || cp == 0x1b || (cp >= 0x80 && cp < 0xa0)) {
        control(cp, handler);
        return;
    }
    switch (m_state) {
    case State::Ground:
        if (cp < 0x20) {
            handler.execute(cp);
        } else if (cp != 0x7f) {
            if (cp < 0x80) {
                const char c = char(cp);
                handler.printAscii(&c, 1);
            } else {
                const char32_t c = char32_t(cp);
                handler.print(&c, 1);
            }
        }
        return;
    case State::Escape:
        if (cp < 0x20) {
            handler.execute(cp);
        } else if (cp < 0x30) {
            collect(cp);
            m_state = State::EscapeIntermediate;
        } else if (cp == 'P') {
            enter(State::DcsEntry);
        } else if (cp == '[') {
            enter(State::CsiEntry);
        } else if (cp == ']') {
            enter(State::OscString);
        } else if (cp == 'X' || cp == '^' || cp == '_') {
            enter(State::IgnoredString);
        } else if (cp < 0x7f) {
            m_sequence.final = char(cp);
            handler.escDispatch(m_sequence);
            m_state = State::Ground;
        }
        return;
    case State::EscapeIntermediate:
        if (cp < 0x20) {
            handler.execute(cp);
        } else if (cp < 0x30) {
            collect(cp);
        } else if (cp < 0x7f) {
            m_sequence.final = char(cp);
            if (!m_ignore)
                handler.escDispatch(m_sequence);
            m_state = State::Ground;
        }
        return;
    case State::CsiEntry:
    case State::CsiParam:
    case State::CsiIntermediate:
    case State::DcsEntry:
    case State::DcsParam:
    case State::DcsIntermediate: {
        const bool dcs = m_state >= State::DcsEntry;
        const bool entry = m_state == State::CsiEntry || m_state == State::DcsEntry;
        const bool intermediate =
            m_state == State::CsiIntermediate || m_state == State::DcsIntermediate;
        if (cp < 0x20) {
            if (!dcs)
                handler.execute(cp); // C0 controls act inside a CSI sequence, DCS ignores them
        } else if (cp < 0x30) {
            collect(cp);
            m_state = dcs ? State::DcsIntermediate : State::CsiIntermediate;
        } else if (cp < 0x3c) {
            if (intermediate) {
                m_state = dcs ? State::DcsIgnore : State::CsiIgnore;
            } else {
                param(cp);
                m_state = dcs ? State::DcsParam : State::CsiParam;
            }
        } else if (cp < 0x40) {
            if (entry) {
                m_sequence.leader = char(cp);
                m_state = dcs ? State::DcsParam : State::CsiParam;
            } else {
                m_state = dcs ? State::DcsIgnore : State::CsiIgnore;
            }
        } else if (cp < 0x7f) {
            m_sequence.final = char(cp);
            if (dcs) {
                enter(State::DcsPassthrough);
            } else {
                if (!m_ignore)
                    handler.csiDispatch(m_sequence);
                m_state = State::Ground;
            }
        }
        return;
    }
    case State::CsiIgnore:
        if (cp < 0x20)
            handler.execute(cp);
        else if (cp >= 0x40 && cp < 0x7f)
            m_state = State::Ground;
        return;
    case State::DcsPassthrough:
        if (cp != 0x7f)
            appendString(cp);
        return;
    case State::DcsIgnore:
    case State::IgnoredString:
        return; // until ST, CAN, SUB or ESC
    case State::OscString:
        if (cp == 0x07) {
            endString(handler);
            m_state = State::Ground;
        } else if (cp >= 0x20 && cp != 0x7f) {
            appendString(cp);
        }
        return;
    }
}

} // namespace sbx
