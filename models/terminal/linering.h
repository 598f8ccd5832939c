#pragma once

#include "models/terminal/compacthistory.h"
#include "models/terminal/terminalcell.h"

#include <cstdint>
#include <vector>

namespace sbx {

// The lines of one screen buffer. The visible rows are full cell arrays in a ring, so a
// full-screen scroll moves a head and compacts the one line that leaves; a region scroll moves
// only the region's lines, never cells. The scrollback holds CompactLines in a CompactHistory,
// expanded on access into a small cache.
class LineRing final {
public:
    LineRing(int cols, int rows, int scrollbackLimit);

    int cols() const { return m_cols; }
    int rows() const { return m_rows; }
    int scrollbackCount() const { return static_cast<int>(m_history.size()); }
    int totalLines() const { return scrollbackCount() + m_rows; }
    int scrollbackLimit() const { return m_limit; }
    // Lines discarded from the top of the scrollback since the start; with it, an index
    // becomes an absolute line number that stays valid while the ring moves.
    int64_t droppedLines() const { return m_dropped; }

    // index 0 is the oldest scrollback line; screen row r is index scrollbackCount() + r.
    // A scrollback line is a cache entry: the reference stays valid until the next lineAt()
    // of a scrollback line kHistoryCacheSize lines away, or any change to the ring.
    const TerminalLine &lineAt(int index) const;
    TerminalLine &screenLine(int row) { return m_screen[screenSlot(row)]; }
    const TerminalLine &screenLine(int row) const { return m_screen[screenSlot(row)]; }

    // Full-width scrolls of rows [top, bottom). A full-screen scroll up feeds the scrollback
    // unless toHistory is false (deleted lines are gone, not scrolled).
    void scrollUp(int top, int bottom, int count, const TerminalCell &blank, bool toHistory = true);
    void scrollDown(int top, int bottom, int count, const TerminalCell &blank);
    // Drops every scrollback line (ED 3, a reset); droppedLines() counts them.
    void clearScrollback();

    // Keeps line content (cut when narrower). Returns how far the cursor row moves; the cursor
    // stays on the screen. A negative cursorRow is a hidden screen's: no cursor to keep.
    int resize(int cols, int rows, int cursorRow, const TerminalCell &blank);
    void setScrollbackLimit(int lines);

    // Heap bytes of the compact scrollback, for benchmarks.
    size_t scrollbackBytes() const;

    static constexpr int kHistoryCacheSize = 256;

private:
    struct CachedLine {
        int64_t absLine = -1;
        TerminalLine line;
    };

    size_t screenSlot(int row) const {
        const int s = m_screenHead + row;
        return static_cast<size_t>(s >= m_rows ? s - m_rows : s);
    }
    size_t pushHistory(const TerminalLine &line); // the cells it kept
    void trimHistory();
    void linearizeScreen();
    void rotate(int top, int bottom, int count, bool up, const TerminalCell &blank);

    std::vector<TerminalLine> m_screen;
    int m_screenHead = 0;
    CompactHistory m_history;
    mutable std::vector<CachedLine> m_cache;
    int m_cols;
    int m_rows;
    int m_limit;
    int64_t m_dropped = 0;
};

void clearLine(TerminalLine &line, int cols, const TerminalCell &blank);
// Drops the combining marks of columns [from, to).
void dropCombining(TerminalLine &line, int from, int to);
bool lineIsBlank(const TerminalLine &line);

} // namespace sbx
