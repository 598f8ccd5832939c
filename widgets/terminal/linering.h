#pragma once

#include "widgets/terminal/terminalcell.h"

#include <cstdint>
#include <vector>

// The lines of one screen buffer: scrollback first, the visible rows at the end, kept in a
// ring so that a full-screen scroll only moves the head and a region scroll only moves the
// region's lines, never cells.
class LineRing final {
public:
    LineRing(int cols, int rows, int scrollbackLimit);

    int cols() const { return m_cols; }
    int rows() const { return m_rows; }
    int scrollbackCount() const { return m_count - m_rows; }
    int totalLines() const { return m_count; }
    int scrollbackLimit() const { return m_limit; }
    // Lines discarded from the top of the scrollback since the start; with it, an index
    // becomes an absolute line number that stays valid while the ring moves.
    int64_t droppedLines() const { return m_dropped; }

    // index 0 is the oldest scrollback line; screen row r is index scrollbackCount() + r.
    const TerminalLine &lineAt(int index) const { return m_ring[slot(index)]; }
    TerminalLine &screenLine(int row) { return m_ring[slot(m_count - m_rows + row)]; }
    const TerminalLine &screenLine(int row) const { return m_ring[slot(m_count - m_rows + row)]; }

    // Full-width scrolls of rows [top, bottom). A full-screen scroll up feeds the scrollback.
    void scrollUp(int top, int bottom, int count, const TerminalCell &blank);
    void scrollDown(int top, int bottom, int count, const TerminalCell &blank);

    // Keeps line content (cut when narrower). Returns how far the cursor row moves.
    int resize(int cols, int rows, int cursorRow, const TerminalCell &blank);
    void setScrollbackLimit(int lines);
    void clearScrollback();

private:
    int slot(int index) const {
        const int s = m_head + index;
        return s >= static_cast<int>(m_ring.size()) ? s - static_cast<int>(m_ring.size()) : s;
    }
    void appendLine(const TerminalCell &blank);
    void dropOldest(int count);
    void linearize();
    void rotateUp(int top, int bottom, int count, const TerminalCell &blank);
    void rotateDown(int top, int bottom, int count, const TerminalCell &blank);

    std::vector<TerminalLine> m_ring;
    int m_head = 0;
    int m_count = 0;
    int m_cols;
    int m_rows;
    int m_limit;
    int64_t m_dropped = 0;
};

void clearLine(TerminalLine &line, int cols, const TerminalCell &blank);
bool lineIsBlank(const TerminalLine &line);
