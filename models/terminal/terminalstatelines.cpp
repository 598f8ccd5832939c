// TerminalState: scrolling, erasing, inserting and deleting, sizes and resets.
#include "models/terminal/terminalstate.h"

#include <algorithm>

namespace sbx {

// ---- Scrolling and erasing ----

void TerminalState::scrollRegionUp(int top, int bottom, int count, bool toHistory) {
    if (top >= bottom || count <= 0)
        return;
    m_lastGlyphValid = false;
    const bool wholeScreen = top == 0 && bottom == m_rows;
    m_screen->scrollUp(top, bottom, count, blankCell(), toHistory && wholeScreen);
    if (wholeScreen) {
        markAllDirty();
    } else {
        for (int r = top; r < bottom; ++r)
            markDirty(r);
    }
}

void TerminalState::scrollRegionDown(int top, int bottom, int count) {
    if (top >= bottom || count <= 0)
        return;
    m_lastGlyphValid = false;
    m_screen->scrollDown(top, bottom, count, blankCell());
    if (top == 0 && bottom == m_rows) {
        markAllDirty();
    } else {
        for (int r = top; r < bottom; ++r)
            markDirty(r);
    }
}

void TerminalState::eraseCells(int row, int from, int to, bool selective) {
    from = std::max(from, 0);
    to = std::min(to, m_cols);
    if (row < 0 || row >= m_rows || from >= to)
        return;
    TerminalLine &line = m_screen->screenLine(row);
    TerminalCell *cells = line.cells.data();
    // A wide glyph cut by the range goes as a whole.
    if (cells[from].continuation && from > 0)
        --from;
    if (cells[to - 1].wide && to < m_cols)
        ++to;
    const TerminalCell blank = blankCell();
    if (!selective) {
        std::fill(cells + from, cells + to, blank);
        dropCombining(line, from, to);
    } else {
        for (int col = from; col < to; ++col) {
            if (cells[col].protect)
                continue;
            if (cells[col].combined)
                dropCombining(line, col, col + 1);
            cells[col] = blank;
        }
    }
    m_lastGlyphValid = false;
    markDirty(row);
}

void TerminalState::eraseInDisplay(int mode, bool selective) {
    switch (mode) {
    case 0:
        eraseCells(m_row, m_col, m_cols, selective);
        for (int row = m_row + 1; row < m_rows; ++row)
            eraseCells(row, 0, m_cols, selective);
        break;
    case 1:
        for (int row = 0; row < m_row; ++row)
            eraseCells(row, 0, m_cols, selective);
        eraseCells(m_row, 0, m_col + 1, selective);
        break;
    case 2:
        for (int row = 0; row < m_rows; ++row)
            eraseCells(row, 0, m_cols, selective);
        break;
    case 3: // xterm: the saved lines
        if (!selective && !m_alt) {
            m_primary.clearScrollback();
            markAllDirty();
        }
        break;
    default:
        break;
    }
}

void TerminalState::eraseInLine(int mode, bool selective) {
    switch (mode) {
    case 0:
        eraseCells(m_row, m_col, m_cols, selective);
        break;
    case 1:
        eraseCells(m_row, 0, m_col + 1, selective);
        break;
    case 2:
        eraseCells(m_row, 0, m_cols, selective);
        break;
    default:
        break;
    }
}

// Copies within one line may overlap; combining marks move with their cells.
void TerminalState::insertCells(int count) {
    TerminalLine &line = m_screen->screenLine(m_row);
    TerminalCell *cells = line.cells.data();
    const int col = m_col;
    count = std::min(count, m_cols - col);
    if (count <= 0)
        return;
    // A wide glyph split at the cursor goes blank: its halves would end up apart.
    if (cells[col].continuation && col > 0) {
        blankAt(line, col - 1);
        blankAt(line, col);
    }
    dropCombining(line, m_cols - count, m_cols);
    std::copy_backward(cells + col, cells + m_cols - count, cells + m_cols);
    for (auto &entry : line.combining)
        if (entry.first >= col)
            entry.first += count;
    std::fill(cells + col, cells + col + count, blankCell());
    // A wide glyph pushed half over the right edge loses its first half too.
    if (cells[m_cols - 1].wide)
        blankAt(line, m_cols - 1);
    markDirty(m_row);
}

void TerminalState::deleteCells(int count) {
    TerminalLine &line = m_screen->screenLine(m_row);
    TerminalCell *cells = line.cells.data();
    const int col = m_col;
    count = std::min(count, m_cols - col);
    if (count <= 0)
        return;
    if (cells[col].continuation && col > 0)
        blankAt(line, col - 1);
    if (cells[col + count - 1].wide && col + count < m_cols)
        blankAt(line, col + count); // its second half would be left alone at the cursor
    dropCombining(line, col, col + count);
    std::copy(cells + col + count, cells + m_cols, cells + col);
    for (auto &entry : line.combining)
        if (entry.first >= col + count)
            entry.first -= count;
    std::fill(cells + m_cols - count, cells + m_cols, blankCell());
    m_pendingWrap = false;
    markDirty(m_row);
}

void TerminalState::insertLines(int count) {
    if (m_row < m_top || m_row >= m_bottom)
        return;
    scrollRegionDown(m_row, m_bottom, count);
    carriageReturn();
}

void TerminalState::deleteLines(int count) {
    if (m_row < m_top || m_row >= m_bottom)
        return;
    scrollRegionUp(m_row, m_bottom, count, false);
    carriageReturn();
}

void TerminalState::alignmentTest() {
    // DECALN: the screen full of E in default attributes, the margins reset, the cursor home.
    TerminalCell e;
    e.ch = U'E';
    for (int row = 0; row < m_rows; ++row)
        clearLine(m_screen->screenLine(row), m_cols, e);
    m_top = 0;
    m_bottom = m_rows;
    m_lastGlyphValid = false;
    setCursor(0, 0);
    markAllDirty();
}

// ---- Sizes and resets ----

void TerminalState::resize(int cols, int rows) {
    cols = std::max(cols, 1);
    rows = std::max(rows, 1);
    if (cols == m_cols && rows == m_rows)
        return;
    const TerminalCell blank;
    const int primaryDelta = m_primary.resize(cols, rows, m_alt ? -1 : m_row, blank);
    const int alternateDelta = m_alternate.resize(cols, rows, m_alt ? m_row : -1, blank);
    m_row += m_alt ? alternateDelta : primaryDelta;
    // The saved cursor moves with its screen's lines, so a prompt is found where it went.
    m_saved[0].row = std::max(0, m_saved[0].row + primaryDelta);
    m_saved[1].row = std::max(0, m_saved[1].row + alternateDelta);
    if (cols != m_cols)
        m_pendingWrap = false;
    m_cols = cols;
    m_rows = rows;
    m_row = std::clamp(m_row, 0, m_rows - 1);
    m_col = std::clamp(m_col, 0, m_cols - 1);
    m_top = 0;
    m_bottom = m_rows;
    resetTabStops();
    m_lastGlyphValid = false;
    m_dirty.assign(static_cast<size_t>(m_rows), 0);
    markAllDirty();
}

void TerminalState::setScrollbackLimit(int lines) {
    m_primary.setScrollbackLimit(lines);
    markAllDirty();
}

void TerminalState::hardReset() {
    // LineRing has no assignment; swapping in fresh rings keeps its invariants in one place.
    LineRing primary(m_cols, m_rows, m_primary.scrollbackLimit());
    LineRing alternate(m_cols, m_rows, 0);
    std::swap(m_primary, primary);
    std::swap(m_alternate, alternate);
    m_screen = &m_primary;
    m_alt = false;
    m_row = 0;
    m_col = 0;
    m_pendingWrap = false;
    m_cursorStyle = TerminalCursor();
    m_pen = TerminalCell();
    m_penWords = cellWords(m_pen);
    m_autowrap = true;
    m_insert = false;
    m_originMode = false;
    m_newlineMode = false;
    m_reverseVideo = false;
    m_input = TerminalInputModes();
    m_top = 0;
    m_bottom = m_rows;
    resetTabStops();
    m_charsets = {};
    m_gl = 0;
    m_singleShift = -1;
    m_saved = {};
    m_lastGlyphValid = false;
    m_lastChar = 0;
    markAllDirty();
}

} // namespace sbx
