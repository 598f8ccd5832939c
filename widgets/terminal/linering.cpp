#include "widgets/terminal/linering.h"

#include <algorithm>
#include <utility>

void clearLine(TerminalLine &line, int cols, const TerminalCell &blank) {
    line.cells.assign(static_cast<size_t>(cols), blank);
    line.combining.clear();
}

bool lineIsBlank(const TerminalLine &line) {
    return std::all_of(line.cells.begin(), line.cells.end(), [](const TerminalCell &c) {
        return (c.ch == 0 || c.ch == U' ') && c.bg == TerminalColor::Default && !c.inverse;
    });
}

LineRing::LineRing(int cols, int rows, int scrollbackLimit)
    : m_cols(cols)
    , m_rows(rows)
    , m_limit(std::max(0, scrollbackLimit)) {
    const TerminalCell blank;
    for (int r = 0; r < rows; ++r)
        appendLine(blank);
}

void LineRing::appendLine(const TerminalCell &blank) {
    const int maxLines = m_limit + m_rows;
    // When full, the oldest line's storage becomes the new last line: only the head moves.
    if (m_count >= maxLines)
        dropOldest(m_count - maxLines + 1);
    if (m_count < static_cast<int>(m_ring.size())) {
        clearLine(m_ring[static_cast<size_t>(slot(m_count))], m_cols, blank);
    } else {
        if (m_head != 0)
            linearize();
        TerminalLine line;
        clearLine(line, m_cols, blank);
        m_ring.push_back(std::move(line));
    }
    ++m_count;
}

void LineRing::dropOldest(int count) {
    count = std::min(count, m_count);
    m_head = m_ring.empty() ? 0 : (m_head + count) % static_cast<int>(m_ring.size());
    m_count -= count;
    m_dropped += count;
}

void LineRing::linearize() {
    std::rotate(m_ring.begin(), m_ring.begin() + m_head, m_ring.end());
    m_head = 0;
}

void LineRing::scrollUp(int top, int bottom, int count, const TerminalCell &blank) {
    if (count <= 0 || top >= bottom)
        return;
    if (top == 0 && bottom == m_rows) {
        count = std::min(count, m_rows + m_limit);
        for (int i = 0; i < count; ++i)
            appendLine(blank);
        return;
    }
    rotateUp(top, bottom, count, blank);
}

void LineRing::scrollDown(int top, int bottom, int count, const TerminalCell &blank) {
    if (count <= 0 || top >= bottom)
        return;
    rotateDown(top, bottom, count, blank);
}

void LineRing::rotateUp(int top, int bottom, int count, const TerminalCell &blank) {
    const int base = m_count - m_rows;
    const int height = bottom - top;
    count = std::min(count, height);
    // Moving a TerminalLine moves three pointers: the region's cells stay where they are.
    std::vector<TerminalLine> leaving;
    leaving.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
        leaving.push_back(std::move(m_ring[static_cast<size_t>(slot(base + top + i))]));
    for (int r = top; r < bottom - count; ++r)
        m_ring[static_cast<size_t>(slot(base + r))] =
            std::move(m_ring[static_cast<size_t>(slot(base + r + count))]);
    for (int i = 0; i < count; ++i) {
        TerminalLine &line = m_ring[static_cast<size_t>(slot(base + bottom - count + i))];
        line = std::move(leaving[static_cast<size_t>(i)]);
        clearLine(line, m_cols, blank);
    }
}

void LineRing::rotateDown(int top, int bottom, int count, const TerminalCell &blank) {
    const int base = m_count - m_rows;
    const int height = bottom - top;
    count = std::min(count, height);
    std::vector<TerminalLine> leaving;
    leaving.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
        leaving.push_back(std::move(m_ring[static_cast<size_t>(slot(base + bottom - count + i))]));
    for (int r = bottom - 1; r >= top + count; --r)
        m_ring[static_cast<size_t>(slot(base + r))] =
            std::move(m_ring[static_cast<size_t>(slot(base + r - count))]);
    for (int i = 0; i < count; ++i) {
        TerminalLine &line = m_ring[static_cast<size_t>(slot(base + top + i))];
        line = std::move(leaving[static_cast<size_t>(i)]);
        clearLine(line, m_cols, blank);
    }
}

int LineRing::resize(int cols, int rows, int cursorRow, const TerminalCell &blank) {
    cols = std::max(cols, 1);
    rows = std::max(rows, 1);
    int delta = 0;
    if (rows < m_rows) {
        // Blank rows below the cursor go first, as in xterm; only then do top rows move into
        // the scrollback (or vanish when there is none).
        int remove = m_rows - rows;
        while (remove > 0 && m_rows - 1 > cursorRow && lineIsBlank(screenLine(m_rows - 1))) {
            --m_count;
            --m_rows;
            --remove;
        }
        m_rows -= remove;
        delta -= remove;
        const int excess = m_count - (m_limit + m_rows);
        if (excess > 0)
            dropOldest(excess);
    } else if (rows > m_rows) {
        const int pulled = std::min(rows - m_rows, scrollbackCount());
        m_rows += pulled;
        delta += pulled;
        while (m_rows < rows) {
            // m_rows grows first so appendLine's capacity check counts the new row.
            ++m_rows;
            appendLine(blank);
        }
    }
    m_cols = cols;
    for (int r = 0; r < m_rows; ++r) {
        TerminalLine &line = screenLine(r);
        line.cells.resize(static_cast<size_t>(cols), blank);
        std::erase_if(line.combining, [cols](const auto &entry) { return entry.first >= cols; });
    }
    return delta;
}

void LineRing::setScrollbackLimit(int lines) {
    m_limit = std::max(0, lines);
    const int excess = scrollbackCount() - m_limit;
    if (excess > 0)
        dropOldest(excess);
}

void LineRing::clearScrollback() {
    dropOldest(scrollbackCount());
}
