// TerminalState: the control functions (C0 and C1 controls, ESC and CSI sequences) and the
// modes they set, as xterm does them.
#include "models/terminal/terminalstate.h"

#include <algorithm>

namespace sbx {

namespace {

QByteArray number(int value) {
    return QByteArray::number(value);
}

} // namespace

// ---- C0 and C1 controls ----

void TerminalState::execute(uint32_t control) {
    switch (control) {
    case 0x07:
        ++m_bells;
        break;
    case 0x08: // BS
        m_pendingWrap = false;
        if (m_col > 0)
            --m_col;
        markDirty(m_row);
        break;
    case 0x09:
        tab(1);
        break;
    case 0x0a: // LF, VT and FF alike, as in xterm
    case 0x0b:
    case 0x0c:
        lineFeed();
        break;
    case 0x0d:
        carriageReturn();
        break;
    case 0x0e: // SO: G1 into GL
        m_gl = 1;
        break;
    case 0x0f: // SI: G0 into GL
        m_gl = 0;
        break;
    case 0x84: // IND
        index();
        break;
    case 0x85: // NEL
        index();
        carriageReturn();
        break;
    case 0x88: // HTS
        m_tabStops[size_t(m_col)] = 1;
        break;
    case 0x8d: // RI
        reverseIndex();
        break;
    case 0x8e: // SS2
        m_singleShift = 2;
        break;
    case 0x8f: // SS3
        m_singleShift = 3;
        break;
    default:
        break;
    }
}

// ---- ESC ----

void TerminalState::escDispatch(const VtSequence &s) {
    if (s.intermediateCount == 1) {
        const char i = s.intermediates[0];
        if (i == '(' || i == ')' || i == '*' || i == '+')
            designate(i, s.final);
        else if (i == '#' && s.final == '8')
            alignmentTest();
        return; // ESC % G (UTF-8) and the rest: the stream is UTF-8 already
    }
    if (s.intermediateCount > 0)
        return;
    switch (s.final) {
    case '7':
        saveCursor();
        break;
    case '8':
        restoreCursor();
        break;
    case 'D':
        execute(0x84);
        break;
    case 'E':
        execute(0x85);
        break;
    case 'H':
        execute(0x88);
        break;
    case 'M':
        execute(0x8d);
        break;
    case 'N':
        execute(0x8e);
        break;
    case 'O':
        execute(0x8f);
        break;
    case 'c':
        hardReset();
        break;
    case '=':
        m_input.keypad = true;
        break;
    case '>':
        m_input.keypad = false;
        break;
    case 'n': // LS2
        m_gl = 2;
        break;
    case 'o': // LS3
        m_gl = 3;
        break;
    default:
        break;
    }
}

void TerminalState::designate(char intermediate, char final) {
    const size_t set = size_t(intermediate - '(');
    m_charsets[set] = final == '0'   ? Charset::DecGraphics
                      : final == 'A' ? Charset::British
                                     : Charset::Ascii;
}

// ---- CSI ----

void TerminalState::csiDispatch(const VtSequence &s) {
    const char inter = s.intermediate();
    if (s.intermediateCount > 1)
        return;
    if (s.leader == '?') {
        switch (s.final) {
        case 'h':
        case 'l':
            if (inter == 0)
                for (int i = 0; i < std::max(s.paramCount, 1); ++i)
                    setPrivateMode(s.param(i, 0), s.final == 'h');
            return;
        case 'J':
            eraseInDisplay(s.param(0, 0), true);
            return;
        case 'K':
            eraseInLine(s.param(0, 0), true);
            return;
        case 'n':
            reportStatus(s);
            return;
        case 'p':
            if (inter == '$')
                reportMode(s);
            return;
        default:
            return;
        }
    }
    if (s.leader == '>') {
        if (s.final == 'c' && inter == 0 && s.param(0, 0) == 0)
            m_answer += "\x1b[>0;100;0c"; // as libvterm answered
        return;
    }
    if (s.leader != 0)
        return;
    if (inter == ' ') {
        if (s.final == 'q') { // DECSCUSR
            const int style = s.param(0, 0);
            m_cursorStyle.blink = style <= 1 || style % 2 == 1;
            m_cursorStyle.shape = style <= 2   ? TerminalCursorShape::Block
                                  : style <= 4 ? TerminalCursorShape::Underline
                                               : TerminalCursorShape::Bar;
            markDirty(m_row);
        }
        return;
    }
    if (inter == '"') {
        if (s.final == 'q') { // DECSCA
            m_pen.protect = s.param(0, 0) == 1 ? 1 : 0;
            m_penWords = cellWords(m_pen);
        }
        return;
    }
    if (inter == '!') {
        if (s.final == 'p')
            softReset();
        return;
    }
    if (inter == '$') {
        if (s.final == 'p')
            reportMode(s);
        return;
    }
    if (inter != 0)
        return;
    switch (s.final) {
    case '@':
        insertCells(s.count(0));
        break;
    case 'A':
        moveCursorRelative(-s.count(0), 0);
        break;
    case 'B':
    case 'e':
        moveCursorRelative(s.count(0), 0);
        break;
    case 'C':
    case 'a':
        moveCursorRelative(0, s.count(0));
        break;
    case 'D':
        moveCursorRelative(0, -s.count(0));
        break;
    case 'E':
        moveCursorRelative(s.count(0), 0);
        carriageReturn();
        break;
    case 'F':
        moveCursorRelative(-s.count(0), 0);
        carriageReturn();
        break;
    case 'G':
    case '`':
        setCursor(m_row, s.count(0) - 1);
        break;
    case 'H':
    case 'f':
        moveToRow(s.count(0) - 1);
        m_col = std::clamp(s.count(1) - 1, 0, m_cols - 1);
        break;
    case 'I':
        tab(s.count(0));
        break;
    case 'J':
        eraseInDisplay(s.param(0, 0), false);
        break;
    case 'K':
        eraseInLine(s.param(0, 0), false);
        break;
    case 'L':
        insertLines(s.count(0));
        break;
    case 'M':
        deleteLines(s.count(0));
        break;
    case 'P':
        deleteCells(s.count(0));
        break;
    case 'S':
        scrollRegionUp(m_top, m_bottom, s.count(0), true);
        break;
    case 'T':
        if (s.paramCount <= 1) // with more, xterm's mouse highlight tracking
            scrollRegionDown(m_top, m_bottom, s.count(0));
        break;
    case 'X':
        eraseCells(m_row, m_col, m_col + s.count(0), false);
        break;
    case 'Z':
        backTab(s.count(0));
        break;
    case 'b':
        repeatLast(s.count(0));
        break;
    case 'c':
        if (s.param(0, 0) == 0)
            m_answer += "\x1b[?1;2c"; // a VT100 with advanced video, as libvterm answered
        break;
    case 'd':
        moveToRow(s.count(0) - 1);
        break;
    case 'g':
        if (s.param(0, 0) == 0)
            m_tabStops[size_t(m_col)] = 0;
        else if (s.param(0, 0) == 3)
            std::fill(m_tabStops.begin(), m_tabStops.end(), 0);
        break;
    case 'h':
    case 'l':
        setMode(s, s.final == 'h');
        break;
    case 'm':
        selectGraphicRendition(s);
        break;
    case 'n':
        reportStatus(s);
        break;
    case 'r':
        setScrollRegion(s.param(0, 1), s.param(1, m_rows));
        break;
    case 's':
        saveCursor(); // SCOSC: with no left and right margins, as DECSC
        break;
    case 't':
        if (s.param(0, 0) == 18)
            m_answer += "\x1b[8;" + number(m_rows) + ';' + number(m_cols) + 't';
        break;
    case 'u':
        restoreCursor();
        break;
    default:
        break;
    }
}

void TerminalState::setScrollRegion(int top, int bottom) {
    top = std::max(top, 1);
    bottom = std::min(bottom <= 0 ? m_rows : bottom, m_rows);
    if (bottom - top < 1)
        return; // xterm ignores a region of less than two lines
    m_top = top - 1;
    m_bottom = bottom;
    setCursor(m_originMode ? m_top : 0, 0);
}

void TerminalState::setMode(const VtSequence &s, bool on) {
    for (int i = 0; i < std::max(s.paramCount, 1); ++i) {
        switch (s.param(i, 0)) {
        case 4:
            m_insert = on;
            break;
        case 20:
            m_newlineMode = on;
            break;
        default:
            break;
        }
    }
}

void TerminalState::setPrivateMode(int mode, bool on) {
    switch (mode) {
    case 1:
        m_input.cursorKeys = on;
        break;
    case 5:
        if (m_reverseVideo != on) {
            m_reverseVideo = on;
            markAllDirty();
        }
        break;
    case 6:
        m_originMode = on;
        setCursor(on ? m_top : 0, 0);
        break;
    case 7:
        m_autowrap = on;
        if (!on)
            m_pendingWrap = false;
        break;
    case 9:
    case 1000:
    case 1002:
    case 1003:
        m_input.mouseTracking = on ? mode : 0;
        break;
    case 12:
        m_cursorStyle.blink = on;
        markDirty(m_row);
        break;
    case 25:
        m_cursorStyle.visible = on;
        markDirty(m_row);
        break;
    case 47:
    case 1047:
        switchScreen(on, on);
        break;
    case 1048:
        if (on)
            saveCursor();
        else
            restoreCursor();
        break;
    case 1049:
        // The primary screen's cursor is saved in its own slot before the switch, and
        // restored from it after the switch back: the alternate screen has its own.
        if (on) {
            if (!m_alt)
                saveCursor();
            switchScreen(true, true);
        } else if (m_alt) {
            switchScreen(false, false);
            restoreCursor();
        }
        break;
    case 1004:
        m_input.focusEvents = on;
        break;
    case 1005:
    case 1006:
    case 1015:
        if (on)
            m_input.mouseEncoding = mode;
        else if (m_input.mouseEncoding == mode)
            m_input.mouseEncoding = 0;
        break;
    case 2004:
        m_input.bracketedPaste = on;
        break;
    default:
        break;
    }
}

void TerminalState::switchScreen(bool alt, bool clear) {
    if (alt == m_alt)
        return;
    m_alt = alt;
    m_screen = alt ? &m_alternate : &m_primary;
    if (alt && clear) {
        const TerminalCell blank = blankCell();
        for (int row = 0; row < m_rows; ++row)
            clearLine(m_alternate.screenLine(row), m_cols, blank);
    }
    m_lastGlyphValid = false;
    markAllDirty();
}

void TerminalState::saveCursor() {
    SavedCursor &saved = m_saved[m_alt ? 1 : 0];
    saved.row = m_row;
    saved.col = m_col;
    saved.pendingWrap = m_pendingWrap;
    saved.originMode = m_originMode;
    saved.pen = m_pen;
    saved.charsets = m_charsets;
    saved.gl = m_gl;
}

void TerminalState::restoreCursor() {
    const SavedCursor &saved = m_saved[m_alt ? 1 : 0];
    // Saved before a resize, perhaps: clamped to the screen as it is now.
    setCursor(saved.row, saved.col);
    m_pendingWrap = saved.pendingWrap && m_col == saved.col && m_col == m_cols - 1;
    m_originMode = saved.originMode;
    m_pen = saved.pen;
    m_penWords = cellWords(m_pen);
    m_charsets = saved.charsets;
    m_gl = saved.gl;
    m_singleShift = -1;
}

void TerminalState::softReset() {
    // DECSTR, as xterm: modes and pen to their defaults, the screen untouched.
    m_cursorStyle.visible = true;
    m_insert = false;
    m_originMode = false;
    m_autowrap = true;
    m_input.cursorKeys = false;
    m_input.keypad = false;
    m_top = 0;
    m_bottom = m_rows;
    m_charsets = {};
    m_gl = 0;
    m_singleShift = -1;
    m_pen = TerminalCell();
    m_penWords = cellWords(m_pen);
    m_saved[m_alt ? 1 : 0] = SavedCursor();
    markDirty(m_row);
}

} // namespace sbx
