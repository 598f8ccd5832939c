#include "models/terminal/linering.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace sbx {

namespace {

bool isZero(const TerminalCell &cell) {
    uint64_t halves[2];
    std::memcpy(halves, &cell, sizeof halves);
    return (halves[0] | halves[1]) == 0;
}

// Blanks the first `used` cells, the rest being never written (all zero): with the default
// blank only those need a store.
void clearUsed(TerminalLine &line, size_t used, int cols, const TerminalCell &blank) {
    if (line.cells.size() == size_t(cols) && used <= size_t(cols) && isZero(blank)) {
        std::memset(static_cast<void *>(line.cells.data()), 0, used * sizeof(TerminalCell));
        line.combining.clear();
        return;
    }
    clearLine(line, cols, blank);
}

} // namespace

void dropCombining(TerminalLine &line, int from, int to) {
    if (!line.combining.empty())
        std::erase_if(line.combining, [from, to](const auto &entry) {
            return entry.first >= from && entry.first < to;
        });
}

void clearLine(TerminalLine &line, int cols, const TerminalCell &blank) {
    line.combining.clear();
    if (line.cells.size() == size_t(cols) && isZero(blank)) {
        std::memset(static_cast<void *>(line.cells.data()), 0, line.cells.size() * sizeof blank);
        return;
    }
    line.cells.assign(static_cast<size_t>(cols), blank);
}

bool lineIsBlank(const TerminalLine &line) {
    return std::all_of(line.cells.begin(), line.cells.end(), [](const TerminalCell &c) {
        return (c.ch == 0 || c.ch == U' ') && c.bg == TerminalColor::kDefault && !c.inverse;
    });
}

LineRing::LineRing(int cols, int rows, int scrollbackLimit)
    : m_cols(std::max(cols, 1))
    , m_rows(std::max(rows, 1))
    , m_limit(std::max(0, scrollbackLimit)) {
    m_screen.resize(static_cast<size_t>(m_rows));
    for (TerminalLine &line : m_screen)
        clearLine(line, m_cols, TerminalCell{});
}

const TerminalLine &LineRing::lineAt(int index) const {
    const int history = scrollbackCount();
    if (index >= history)
        return m_screen[screenSlot(index - history)];
    if (m_cache.empty())
        m_cache.resize(kHistoryCacheSize);
    const int64_t absLine = m_dropped + index;
    CachedLine &entry = m_cache[static_cast<size_t>(absLine % kHistoryCacheSize)];
    if (entry.absLine != absLine) {
        m_history.expandInto(static_cast<size_t>(index), entry.line);
        entry.absLine = absLine;
    }
    return entry.line;
}

size_t LineRing::pushHistory(const TerminalLine &line) {
    if (m_limit == 0) {
        ++m_dropped; // the alternate screen keeps nothing: no need to encode
        return line.cells.size();
    }
    const int64_t absLine = m_dropped + scrollbackCount();
    if (!m_cache.empty()) {
        // The number may have named another line before a resize pulled it back to the screen.
        CachedLine &entry = m_cache[static_cast<size_t>(absLine % kHistoryCacheSize)];
        if (entry.absLine == absLine)
            entry.absLine = -1;
    }
    const size_t used = m_history.push(line);
    trimHistory();
    return used;
}

void LineRing::trimHistory() {
    while (scrollbackCount() > m_limit) {
        m_history.popFront();
        ++m_dropped;
    }
}

void LineRing::linearizeScreen() {
    std::rotate(m_screen.begin(), m_screen.begin() + m_screenHead, m_screen.end());
    m_screenHead = 0;
}

void LineRing::scrollUp(int top, int bottom, int count, const TerminalCell &blank, bool toHistory) {
    if (count <= 0 || top >= bottom)
        return;
    if (top == 0 && bottom == m_rows) {
        count = std::min(count, toHistory ? m_rows + m_limit : m_rows);
        // The top line leaves for the scrollback; its cell array becomes the new bottom row.
        for (int i = 0; i < count; ++i) {
            TerminalLine &leaving = m_screen[static_cast<size_t>(m_screenHead)];
            const size_t used = toHistory ? pushHistory(leaving) : leaving.cells.size();
            clearUsed(leaving, used, m_cols, blank);
            m_screenHead = m_screenHead + 1 == m_rows ? 0 : m_screenHead + 1;
        }
        return;
    }
    rotate(top, bottom, count, true, blank);
}

void LineRing::scrollDown(int top, int bottom, int count, const TerminalCell &blank) {
    if (count <= 0 || top >= bottom)
        return;
    rotate(top, bottom, count, false, blank);
}

void LineRing::rotate(int top, int bottom, int count, bool up, const TerminalCell &blank) {
    count = std::min(count, bottom - top);
    // Swapping TerminalLines swaps a few pointers: the region's cells stay where they are, and
    // nothing is allocated. The lines that leave end up, in some order, where the blank lines
    // enter, and are cleared there.
    if (up) {
        for (int r = top; r < bottom - count; ++r)
            std::swap(screenLine(r), screenLine(r + count));
    } else {
        for (int r = bottom - 1; r >= top + count; --r)
            std::swap(screenLine(r), screenLine(r - count));
    }
    const int enterAt = up ? bottom - count : top;
    for (int i = 0; i < count; ++i)
        clearLine(screenLine(enterAt + i), m_cols, blank);
}

int LineRing::resize(int cols, int rows, int cursorRow, const TerminalCell &blank) {
    cols = std::max(cols, 1);
    rows = std::max(rows, 1);
    linearizeScreen();
    int delta = 0;
    if (rows < m_rows) {
        // Blank rows below the cursor go first, as in xterm; only then do top rows move into
        // the scrollback (or vanish when there is none).
        int remove = m_rows - rows;
        const bool hasCursor = cursorRow >= 0;
        while (remove > 0 && (!hasCursor || static_cast<int>(m_screen.size()) - 1 > cursorRow) &&
               lineIsBlank(m_screen.back())) {
            m_screen.pop_back();
            --remove;
        }
        // Top rows leave only as far as the cursor row stays on the screen; rows below the
        // cursor go for the rest, blank or not (a cursor above row 0 would be off the screen).
        const int fromTop = hasCursor ? std::min(remove, cursorRow) : remove;
        m_screen.resize(m_screen.size() - static_cast<size_t>(remove - fromTop));
        for (int i = 0; i < fromTop; ++i)
            pushHistory(m_screen[static_cast<size_t>(i)]);
        m_screen.erase(m_screen.begin(), m_screen.begin() + fromTop);
        delta -= fromTop;
    } else if (rows > m_rows) {
        const int pulled = std::min(rows - m_rows, scrollbackCount());
        std::vector<TerminalLine> back(static_cast<size_t>(pulled));
        for (int i = 0; i < pulled; ++i)
            m_history.expandInto(m_history.size() - size_t(pulled) + size_t(i), back[size_t(i)]);
        for (int i = 0; i < pulled; ++i)
            m_history.popBack();
        m_screen.insert(m_screen.begin(), std::make_move_iterator(back.begin()),
                        std::make_move_iterator(back.end()));
        delta += pulled;
        while (static_cast<int>(m_screen.size()) < rows) {
            TerminalLine line;
            clearLine(line, m_cols, blank);
            m_screen.push_back(std::move(line));
        }
    }
    m_rows = static_cast<int>(m_screen.size());
    m_cols = cols;
    for (TerminalLine &line : m_screen) {
        const bool cut = line.cells.size() > static_cast<size_t>(cols);
        line.cells.resize(static_cast<size_t>(cols), blank);
        std::erase_if(line.combining, [cols](const auto &entry) { return entry.first >= cols; });
        // A wide glyph whose second half was cut off goes too, as in xterm: half of it cannot
        // be shown, and a wider screen later would show it beside a blank.
        TerminalCell &last = line.cells.back();
        if (cut && last.wide) {
            std::erase_if(line.combining,
                          [cols](const auto &entry) { return entry.first == cols - 1; });
            last = blank;
        }
    }
    return delta;
}

void LineRing::clearScrollback() {
    m_dropped += scrollbackCount();
    m_history.clear();
}

void LineRing::setScrollbackLimit(int lines) {
    m_limit = std::max(0, lines);
    trimHistory();
}

size_t LineRing::scrollbackBytes() const {
    return m_history.bytes();
}

} // namespace sbx
