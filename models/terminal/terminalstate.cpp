// TerminalState: printing and the cursor. Scrolling, erasing, sizes and resets are in
// terminalstatelines.cpp; the control functions in terminalstatecontrols.cpp, and SGR and the
// reports in terminalstatereports.cpp.
#include "models/terminal/terminalstate.h"

#include "models/terminal/unicodewidth.h"

#include <algorithm>
#include <cstring>

namespace sbx {

namespace {

constexpr int kTabWidth = 8;
constexpr size_t kMaxCombining = 6; // per cell, as libvterm: bounded whatever the input

// DEC Special Graphics (ESC ( 0): the line drawing set, 0x5f to 0x7e.
constexpr char16_t kDecGraphics[] = {
    0x00a0, 0x25c6, 0x2592, 0x2409, 0x240c, 0x240d, 0x240a, 0x00b0, 0x00b1, 0x2424, 0x240b,
    0x2518, 0x2510, 0x250c, 0x2514, 0x253c, 0x23ba, 0x23bb, 0x2500, 0x23bc, 0x23bd, 0x251c,
    0x2524, 0x2534, 0x252c, 0x2502, 0x2264, 0x2265, 0x03c0, 0x2260, 0x00a3, 0x00b7,
};

} // namespace

TerminalState::TerminalState(int cols, int rows, int scrollbackLimit)
    : m_cols(std::max(cols, 1))
    , m_rows(std::max(rows, 1))
    , m_primary(m_cols, m_rows, scrollbackLimit)
    , m_alternate(m_cols, m_rows, 0)
    , m_bottom(m_rows)
    , m_dirty(static_cast<size_t>(m_rows), 0) {
    m_penWords = cellWords(m_pen);
    resetTabStops();
}

TerminalCursor TerminalState::cursor() const {
    TerminalCursor cursor = m_cursorStyle;
    cursor.row = m_row;
    cursor.col = m_col;
    return cursor;
}

TerminalMouseMode TerminalState::mouseMode() const {
    switch (m_input.mouseTracking) {
    case 9:
    case 1000:
        return TerminalMouseMode::Click;
    case 1002:
        return TerminalMouseMode::Drag;
    case 1003:
        return TerminalMouseMode::Move;
    default:
        return TerminalMouseMode::None;
    }
}

void TerminalState::markDirty(int row) {
    if (row >= 0 && row < m_rows)
        m_dirty[static_cast<size_t>(row)] = m_damageClock;
    m_changed = true;
}

void TerminalState::markAllDirty() {
    m_fullDamage = m_damageClock;
    m_changed = true;
}

TerminalDamage TerminalState::takeDamage(TerminalDamageMark &mark) {
    TerminalDamage damage;
    damage.full = m_fullDamage > mark.seen;
    damage.rows.resize(m_dirty.size());
    for (size_t row = 0; row < m_dirty.size(); ++row)
        damage.rows[row] = m_dirty[row] > mark.seen ? 1 : 0;
    // Changes from now on carry a later stamp than any mark has seen.
    mark.seen = m_damageClock++;
    return damage;
}

// A cell erased on its own, with the marks it may have carried.
void TerminalState::blankAt(TerminalLine &line, int col) const {
    TerminalCell &cell = line.cells[static_cast<size_t>(col)];
    if (cell.combined)
        dropCombining(line, col, col + 1);
    cell = blankCell();
}

TerminalCell TerminalState::blankCell() const {
    // Erased cells take the pen's background (xterm's BCE) and nothing else.
    TerminalCell blank;
    blank.bg = m_pen.bg;
    return blank;
}

void TerminalState::resetTabStops() {
    m_tabStops.assign(static_cast<size_t>(m_cols), 0);
    for (int col = kTabWidth; col < m_cols; col += kTabWidth)
        m_tabStops[static_cast<size_t>(col)] = 1;
}

// ---- Printing ----

bool TerminalState::plainAscii() const {
    return m_charsets[size_t(m_gl)] == Charset::Ascii && m_singleShift < 0 && !m_insert &&
           m_autowrap;
}

char32_t TerminalState::translate(char32_t ch) {
    const Charset set = m_charsets[size_t(m_singleShift >= 0 ? m_singleShift : m_gl)];
    m_singleShift = -1;
    if (set == Charset::DecGraphics && ch >= 0x5f && ch <= 0x7e)
        return kDecGraphics[ch - 0x5f];
    if (set == Charset::British && ch == U'#')
        return U'\u00a3';
    return ch;
}

// The hot path: a run of ASCII goes into the cells of one line at a time, the pen stamped as
// whole words; only the cells at the run's two ends need a look at what they held.
void TerminalState::printAscii(const char *text, size_t length) {
    if (!plainAscii()) [[unlikely]] {
        for (size_t i = 0; i < length; ++i)
            putChar(translate(char32_t(static_cast<unsigned char>(text[i]))));
        return;
    }
    m_lastChar = char32_t(static_cast<unsigned char>(text[length - 1]));
    while (length > 0) {
        if (m_pendingWrap)
            wrapLine();
        TerminalLine &line = m_screen->screenLine(m_row);
        TerminalCell *cells = line.cells.data();
        const int col = m_col;
        const int n = int(std::min(length, size_t(m_cols - col)));
        const int end = col + n;
        // Half of a wide glyph overwritten: its other half goes blank, as in xterm.
        if (cells[col].continuation && col > 0)
            blankAt(line, col - 1);
        if (cells[end - 1].wide && end < m_cols)
            blankAt(line, end);
        const TerminalCellWords pen = m_penWords;
        uint32_t overwritten = 0; // the old first words, for their combined bits
        for (int i = 0; i < n; ++i) {
            uint32_t old;
            std::memcpy(&old, &cells[col + i], sizeof old);
            overwritten |= old;
            stampGlyph(cells[col + i], pen, uint32_t(static_cast<unsigned char>(text[i])));
        }
        if (overwritten & kCellCombinedBit)
            dropCombining(line, col, end);
        m_dirty[static_cast<size_t>(m_row)] = m_damageClock;
        text += n;
        length -= size_t(n);
        m_lastGlyphRow = m_row;
        m_lastGlyphCol = end - 1;
        if (end == m_cols) {
            m_col = m_cols - 1;
            m_pendingWrap = true;
        } else {
            m_col = end;
        }
    }
    m_changed = true;
    m_lastGlyphValid = true;
    m_lastCursorCol = m_col;
    m_lastPendingWrap = m_pendingWrap;
}

// Decoded text, a line at a time as for ASCII: glyphs of one or two cells and the marks that
// join them. What needs a decision (a wrap, a glyph at the margin, a mark after a cursor
// move, the modes that change printing) goes through putChar one character at a time.
void TerminalState::print(const char32_t *text, size_t length) {
    if (!plainAscii()) [[unlikely]] {
        for (size_t i = 0; i < length; ++i)
            putChar(text[i] < 0x7f ? translate(text[i]) : text[i]);
        return;
    }
    size_t i = 0;
    while (i < length) {
        char32_t ch = text[i];
        int width = unicodeCellWidth(ch);
        if (width == 0 || m_pendingWrap || m_col + width > m_cols) {
            putChar(ch);
            ++i;
            continue;
        }
        TerminalLine &line = m_screen->screenLine(m_row);
        TerminalCell *cells = line.cells.data();
        const TerminalCellWords pen = m_penWords;
        int col = m_col;
        int glyphCol = col;
        for (;;) {
            // Over cells that are no part of a wide glyph and hold no marks, a plain stamp.
            constexpr uint32_t kSpecial = kCellWideBit | kCellContinuationBit | kCellCombinedBit;
            uint32_t first;
            std::memcpy(&first, &cells[col], sizeof first);
            if (width == 1 && !(first & kSpecial)) {
                stampGlyph(cells[col], pen, uint32_t(ch));
            } else if (width == 2 && col + 2 < m_cols && !(first & kSpecial)) {
                uint32_t second;
                std::memcpy(&second, &cells[col + 1], sizeof second);
                if (second & kSpecial) {
                    writeGlyph(line, col, ch, width);
                } else {
                    stampGlyph(cells[col], pen, uint32_t(ch));
                    cells[col].wide = 1;
                    stampGlyph(cells[col + 1], pen, 0);
                    cells[col + 1].continuation = 1;
                }
            } else {
                writeGlyph(line, col, ch, width);
            }
            m_lastChar = ch;
            glyphCol = col;
            col += width;
            while (++i < length && (width = unicodeCellWidth(ch = text[i])) == 0)
                joinMark(line, glyphCol, ch);
            if (i == length || col + width > m_cols)
                break;
        }
        if (col == m_cols) {
            m_col = m_cols - 1;
            m_pendingWrap = true;
        } else {
            m_col = col;
        }
        m_lastGlyphValid = true;
        m_lastGlyphRow = m_row;
        m_lastGlyphCol = glyphCol;
        m_lastCursorCol = m_col;
        m_lastPendingWrap = m_pendingWrap;
        markDirty(m_row);
    }
}

void TerminalState::wrapLine() {
    m_pendingWrap = false;
    m_col = 0;
    index();
}

void TerminalState::putChar(char32_t ch) {
    m_singleShift = -1;
    int width = unicodeCellWidth(ch);
    if (width == 0) {
        attachCombining(ch);
        return;
    }
    if (m_pendingWrap) {
        if (m_autowrap)
            wrapLine();
        m_pendingWrap = false;
    }
    if (width == 2 && m_col == m_cols - 1) {
        if (m_cols < 2) {
            width = 1; // no room for two cells anywhere: shown in the one there is
        } else if (m_autowrap) {
            eraseCells(m_row, m_col, m_cols, false);
            wrapLine();
        } else {
            m_col = m_cols - 2;
        }
    }
    TerminalLine &line = m_screen->screenLine(m_row);
    if (m_insert)
        insertCells(width);
    writeGlyph(line, m_col, ch, width);
    m_lastChar = ch;
    m_lastGlyphValid = true;
    m_lastGlyphRow = m_row;
    m_lastGlyphCol = m_col;
    if (m_col + width >= m_cols) {
        m_col = m_cols - 1;
        m_pendingWrap = m_autowrap;
    } else {
        m_col += width;
    }
    m_lastCursorCol = m_col;
    m_lastPendingWrap = m_pendingWrap;
    markDirty(m_row);
}

void TerminalState::writeGlyph(TerminalLine &line, int col, char32_t ch, int width) {
    TerminalCell *cells = line.cells.data();
    TerminalCell &cell = cells[col];
    if (cell.continuation && col > 0)
        blankAt(line, col - 1);
    if (cell.wide && width == 1 && col + 1 < m_cols)
        blankAt(line, col + 1);
    if (cell.combined)
        dropCombining(line, col, col + 1);
    stampGlyph(cell, m_penWords, uint32_t(ch));
    if (width == 2) {
        cell.wide = 1;
        TerminalCell &next = cells[col + 1];
        if (next.combined)
            dropCombining(line, col + 1, col + 2);
        if (next.wide && col + 2 < m_cols)
            blankAt(line, col + 2);
        stampGlyph(next, m_penWords, 0);
        next.continuation = 1;
    }
}

// A zero-width code point joins the glyph printed last, while the cursor is still where that
// glyph left it; elsewhere it has nothing to join and is dropped, as libvterm does.
void TerminalState::attachCombining(char32_t mark) {
    if (!m_lastGlyphValid || m_lastGlyphRow != m_row || m_lastCursorCol != m_col ||
        m_lastPendingWrap != m_pendingWrap)
        return;
    joinMark(m_screen->screenLine(m_row), m_lastGlyphCol, mark);
    markDirty(m_row);
}

void TerminalState::joinMark(TerminalLine &line, int col, char32_t mark) {
    TerminalCell &cell = line.cells[static_cast<size_t>(col)];
    if (cell.ch == 0)
        return;
    if (!cell.combined) {
        cell.combined = 1;
        line.combining.emplace_back(col, std::u32string(1, mark));
        return;
    }
    for (auto &[at, marks] : line.combining)
        if (at == col && marks.size() < kMaxCombining)
            marks.push_back(mark);
}

void TerminalState::repeatLast(int count) {
    if (m_lastChar == 0)
        return; // nothing printed yet: xterm repeats nothing
    count = std::min(count, m_cols * m_rows);
    const char32_t ch = m_lastChar;
    for (int i = 0; i < count; ++i)
        putChar(ch);
}

// ---- Cursor ----

void TerminalState::setCursor(int row, int col) {
    const int newRow = std::clamp(row, 0, m_rows - 1);
    if (newRow != m_row) {
        markDirty(m_row);
        markDirty(newRow);
    } else {
        markDirty(m_row);
    }
    m_row = newRow;
    m_col = std::clamp(col, 0, m_cols - 1);
    m_pendingWrap = false;
}

void TerminalState::moveCursorRelative(int rows, int cols) {
    int row = m_row + rows;
    // Vertical moves stop at the margins when they start inside them.
    if (rows < 0 && m_row >= m_top)
        row = std::max(row, m_top);
    if (rows > 0 && m_row < m_bottom)
        row = std::min(row, m_bottom - 1);
    setCursor(row, m_col + cols);
}

void TerminalState::moveToRow(int row) {
    if (m_originMode)
        setCursor(std::clamp(m_top + row, m_top, m_bottom - 1), m_col);
    else
        setCursor(row, m_col);
}

void TerminalState::carriageReturn() {
    m_col = 0;
    m_pendingWrap = false;
    markDirty(m_row);
}

void TerminalState::lineFeed() {
    index();
    if (m_newlineMode)
        m_col = 0;
}

void TerminalState::index() {
    m_pendingWrap = false;
    if (m_row == m_bottom - 1) {
        scrollRegionUp(m_top, m_bottom, 1, true);
    } else if (m_row < m_rows - 1) {
        markDirty(m_row);
        ++m_row;
        markDirty(m_row);
    }
}

void TerminalState::reverseIndex() {
    m_pendingWrap = false;
    if (m_row == m_top) {
        scrollRegionDown(m_top, m_bottom, 1);
    } else if (m_row > 0) {
        markDirty(m_row);
        --m_row;
        markDirty(m_row);
    }
}

void TerminalState::tab(int count) {
    m_pendingWrap = false;
    int col = m_col;
    while (count-- > 0 && col < m_cols - 1) {
        ++col;
        while (col < m_cols - 1 && !m_tabStops[static_cast<size_t>(col)])
            ++col;
    }
    m_col = col;
    markDirty(m_row);
}

void TerminalState::backTab(int count) {
    m_pendingWrap = false;
    int col = m_col;
    while (count-- > 0 && col > 0) {
        --col;
        while (col > 0 && !m_tabStops[static_cast<size_t>(col)])
            --col;
    }
    m_col = col;
    markDirty(m_row);
}

} // namespace sbx
