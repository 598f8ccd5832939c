// TerminalState: SGR, the reports programs ask for (DSR, DECRQM, DECRQSS) and the strings
// (OSC, DCS), as xterm does them.
#include "models/terminal/terminalstate.h"

#include <algorithm>

namespace sbx {

namespace {

QByteArray number(int value) {
    return QByteArray::number(value);
}

int cursorStyleNumber(const TerminalCursor &cursor) {
    const int base = cursor.shape == TerminalCursorShape::Underline ? 3
                     : cursor.shape == TerminalCursorShape::Bar     ? 5
                                                                    : 1;
    return cursor.blink ? base : base + 1;
}

void appendColour(QByteArray &out, uint32_t colour, int base, int extended) {
    const uint32_t value = colour & 0xffffffu;
    if (TerminalColor::kind(colour) == TerminalColor::kIndexedKind) {
        if (value < 8)
            out += ';' + number(base + int(value));
        else if (value < 16 && base != 0)
            out += ';' + number(base + 60 + int(value) - 8);
        else
            out += ';' + number(extended) + ":5:" + number(int(value));
    } else if (TerminalColor::kind(colour) == TerminalColor::kRgbKind) {
        out += ';' + number(extended) + ":2::" + number(int(value >> 16)) + ':' +
               number(int((value >> 8) & 0xff)) + ':' + number(int(value & 0xff));
    }
}

} // namespace

// ---- SGR ----

// The colour of an extended 38/48/58 at params[i]: in the semicolon form (38;5;n, 38;2;r;g;b)
// or ITU T.416's colon form (38:5:n, 38:2:cs:r:g:b, 38:2::r:g:b, and xterm's 38:2:r:g:b).
// Returns how many parameters it took after i; 0 leaves the colour as it was.
int TerminalState::extendedColour(const VtSequence &s, int i, uint32_t *colour) const {
    const auto value = [&s](int at) {
        return std::clamp(s.param(at, 0), 0, 255);
    };
    if (s.hasSubParam(i)) {
        int subs = 0;
        while (s.hasSubParam(i + subs) && i + subs + 1 < s.paramCount)
            ++subs;
        const int kind = s.param(i + 1, -1);
        if (kind == 5 && subs >= 2) {
            *colour = TerminalColor::indexed(uint8_t(value(i + 2)));
        } else if (kind == 2 && subs >= 4) {
            // Four or more after the 2: the first is the colour space, left out or not.
            const int at = i + subs - 2;
            *colour = TerminalColor::rgb(uint8_t(value(at)), uint8_t(value(at + 1)),
                                         uint8_t(value(at + 2)));
        }
        return subs;
    }
    const int kind = s.param(i + 1, -1);
    if (kind == 5 && i + 2 < s.paramCount) {
        *colour = TerminalColor::indexed(uint8_t(value(i + 2)));
        return 2;
    }
    if (kind == 2 && i + 4 < s.paramCount) {
        *colour =
            TerminalColor::rgb(uint8_t(value(i + 2)), uint8_t(value(i + 3)), uint8_t(value(i + 4)));
        return 4;
    }
    return std::min(1, s.paramCount - i - 1);
}

void TerminalState::selectGraphicRendition(const VtSequence &s) {
    TerminalCell &pen = m_pen;
    const int count = std::max(s.paramCount, 1);
    for (int i = 0; i < count; ++i) {
        const int p = s.param(i, 0);
        int skip = 0; // sub-parameters this one took
        switch (p) {
        case 0: {
            const uint32_t protect = pen.protect; // DECSCA is not SGR's to reset
            pen = TerminalCell();
            pen.protect = protect;
            break;
        }
        case 1:
            pen.bold = 1;
            break;
        case 2:
            pen.faint = 1;
            break;
        case 3:
            pen.italic = 1;
            break;
        case 4:
            if (s.hasSubParam(i)) {
                const int style = s.param(i + 1, 1);
                pen.underline = uint32_t(style >= 0 && style <= 5 ? style : 1);
            } else {
                pen.underline = uint32_t(TerminalUnderline::Single);
            }
            break;
        case 5:
        case 6:
            pen.blink = 1;
            break;
        case 7:
            pen.inverse = 1;
            break;
        case 8:
            pen.conceal = 1;
            break;
        case 9:
            pen.strike = 1;
            break;
        case 21:
            pen.underline = uint32_t(TerminalUnderline::Double);
            break;
        case 22:
            pen.bold = 0;
            pen.faint = 0;
            break;
        case 23:
            pen.italic = 0;
            break;
        case 24:
            pen.underline = 0;
            break;
        case 25:
            pen.blink = 0;
            break;
        case 27:
            pen.inverse = 0;
            break;
        case 28:
            pen.conceal = 0;
            break;
        case 29:
            pen.strike = 0;
            break;
        case 38:
            skip = extendedColour(s, i, &pen.fg);
            break;
        case 39:
            pen.fg = TerminalColor::kDefault;
            break;
        case 48:
            skip = extendedColour(s, i, &pen.bg);
            break;
        case 49:
            pen.bg = TerminalColor::kDefault;
            break;
        case 58: {
            uint32_t colour = pen.underlineColor;
            skip = extendedColour(s, i, &colour);
            pen.underlineColor = colour;
            break;
        }
        case 59:
            pen.underlineColor = TerminalColor::kDefault;
            break;
        default:
            if (p >= 30 && p <= 37)
                pen.fg = TerminalColor::indexed(uint8_t(p - 30));
            else if (p >= 40 && p <= 47)
                pen.bg = TerminalColor::indexed(uint8_t(p - 40));
            else if (p >= 90 && p <= 97)
                pen.fg = TerminalColor::indexed(uint8_t(p - 90 + 8));
            else if (p >= 100 && p <= 107)
                pen.bg = TerminalColor::indexed(uint8_t(p - 100 + 8));
            break;
        }
        // Sub-parameters of anything else are skipped with it.
        while (skip == 0 && s.hasSubParam(i + skip) && i + skip + 1 < s.paramCount)
            ++skip;
        i += skip;
    }
    m_penWords = cellWords(m_pen);
}

QByteArray TerminalState::currentRendition() const {
    const TerminalCell &pen = m_pen;
    QByteArray out = "0";
    if (pen.bold)
        out += ";1";
    if (pen.faint)
        out += ";2";
    if (pen.italic)
        out += ";3";
    if (pen.underline == uint32_t(TerminalUnderline::Single))
        out += ";4";
    else if (pen.underline)
        out += ";4:" + number(int(pen.underline));
    if (pen.blink)
        out += ";5";
    if (pen.inverse)
        out += ";7";
    if (pen.conceal)
        out += ";8";
    if (pen.strike)
        out += ";9";
    appendColour(out, pen.fg, 30, 38);
    appendColour(out, pen.bg, 40, 48);
    appendColour(out, pen.underlineColor, 0, 58);
    return out;
}

// ---- Reports ----

void TerminalState::reportStatus(const VtSequence &s) {
    const int request = s.param(0, 0);
    if (s.leader == '?') {
        if (request == 6) // DECXCPR
            m_answer += "\x1b[?" + number(m_row + 1 - (m_originMode ? m_top : 0)) + ';' +
                        number(m_col + 1) + 'R';
        return;
    }
    if (request == 5) {
        m_answer += "\x1b[0n";
    } else if (request == 6) {
        m_answer += "\x1b[" + number(m_row + 1 - (m_originMode ? m_top : 0)) + ';' +
                    number(m_col + 1) + 'R';
    }
}

void TerminalState::reportMode(const VtSequence &s) {
    const int mode = s.param(0, 0);
    int state = 0; // not recognised
    const auto setOrReset = [&state](bool on) {
        state = on ? 1 : 2;
    };
    if (s.leader == '?') {
        switch (mode) {
        case 1:
            setOrReset(m_input.cursorKeys);
            break;
        case 5:
            setOrReset(m_reverseVideo);
            break;
        case 6:
            setOrReset(m_originMode);
            break;
        case 7:
            setOrReset(m_autowrap);
            break;
        case 9:
        case 1000:
        case 1002:
        case 1003:
            setOrReset(m_input.mouseTracking == mode);
            break;
        case 12:
            setOrReset(m_cursorStyle.blink);
            break;
        case 25:
            setOrReset(m_cursorStyle.visible);
            break;
        case 47:
        case 1047:
        case 1049:
            setOrReset(m_alt);
            break;
        case 1004:
            setOrReset(m_input.focusEvents);
            break;
        case 1005:
        case 1006:
        case 1015:
            setOrReset(m_input.mouseEncoding == mode);
            break;
        case 2004:
            setOrReset(m_input.bracketedPaste);
            break;
        default:
            break;
        }
        m_answer += "\x1b[?" + number(mode) + ';' + number(state) + "$y";
        return;
    }
    if (mode == 4)
        setOrReset(m_insert);
    else if (mode == 20)
        setOrReset(m_newlineMode);
    m_answer += "\x1b[" + number(mode) + ';' + number(state) + "$y";
}

void TerminalState::reportSetting(std::string_view request) {
    QByteArray value;
    if (request == "m")
        value = currentRendition() + 'm';
    else if (request == "r")
        value = number(m_top + 1) + ';' + number(m_bottom) + 'r';
    else if (request == " q")
        value = number(cursorStyleNumber(m_cursorStyle)) + " q";
    else if (request == "\"q")
        value = number(m_pen.protect ? 1 : 0) + "\"q";
    if (value.isEmpty())
        m_answer += "\x1bP0$r\x1b\\";
    else
        m_answer += "\x1bP1$r" + value + "\x1b\\";
}

// ---- Strings ----

void TerminalState::oscDispatch(std::string_view payload) {
    const size_t semicolon = payload.find(';');
    const std::string_view code = payload.substr(0, semicolon);
    if (semicolon == std::string_view::npos)
        return;
    const std::string_view rest = payload.substr(semicolon + 1);
    if (code == "6973") {
        if (rest.starts_with("prompt"))
            m_shellPhase = ShellPhase::Prompt;
        else if (rest.starts_with("start"))
            m_shellPhase = ShellPhase::Running;
        return;
    }
    if (code == "133") {
        if (rest.starts_with('A') || rest.starts_with('B') || rest.starts_with('D'))
            m_shellPhase = ShellPhase::Prompt;
        else if (rest.starts_with('C'))
            m_shellPhase = ShellPhase::Running;
        return;
    }
    if (code == "0" || code == "2") {
        m_title = QString::fromUtf8(payload.data() + semicolon + 1,
                                    qsizetype(payload.size() - semicolon - 1));
        m_titlePending = true;
    }
}

void TerminalState::dcsDispatch(const VtSequence &s, std::string_view payload) {
    if (s.leader == 0 && s.intermediate() == '$' && s.final == 'q')
        reportSetting(payload);
}

} // namespace sbx
