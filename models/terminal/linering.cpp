#include "models/terminal/linering.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace sbx {

namespace {

// Layout of a CompactLine block: a header of five uint16 (width, cells kept, runs, text bytes,
// combining entries), then the runs, the text, and the combining marks.
constexpr size_t kHeaderSize = 10;
// A run: the cell's first word without its character, fg, bg, then the run's length.
constexpr size_t kRunSize = 14;
constexpr uint32_t kCharMask = 0x1fffffu;

struct Header {
    uint16_t width = 0;
    uint16_t used = 0;
    uint16_t runs = 0;
    uint16_t textBytes = 0;
    uint16_t combining = 0;
};

template <typename T> T load(const uint8_t *at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

template <typename T> void store(uint8_t *at, T value) {
    std::memcpy(at, &value, sizeof value);
}

uint32_t firstWord(const TerminalCell &cell) {
    uint32_t word;
    std::memcpy(&word, &cell, sizeof word);
    return word;
}

bool isUnwritten(const TerminalCell &cell) {
    return firstWord(cell) == 0 && cell.fg == 0 && cell.bg == 0;
}

// UTF-8's layout stretched to the cell's 21 bits; nothing here is ever shown as UTF-8, so
// surrogates and 0 encode like any other value. Writes at most four bytes.
uint8_t *putCodePoint(uint8_t *out, uint32_t c) {
    if (c < 0x80) {
        *out++ = uint8_t(c);
    } else if (c < 0x800) {
        *out++ = uint8_t(0xc0 | (c >> 6));
        *out++ = uint8_t(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *out++ = uint8_t(0xe0 | (c >> 12));
        *out++ = uint8_t(0x80 | ((c >> 6) & 0x3f));
        *out++ = uint8_t(0x80 | (c & 0x3f));
    } else {
        *out++ = uint8_t(0xf0 | (c >> 18));
        *out++ = uint8_t(0x80 | ((c >> 12) & 0x3f));
        *out++ = uint8_t(0x80 | ((c >> 6) & 0x3f));
        *out++ = uint8_t(0x80 | (c & 0x3f));
    }
    return out;
}

uint32_t takeCodePoint(const uint8_t *&at) {
    const uint32_t b = *at++;
    if (b < 0x80)
        return b;
    if (b < 0xe0) {
        const uint32_t c = ((b & 0x1f) << 6) | (at[0] & 0x3f);
        at += 1;
        return c;
    }
    if (b < 0xf0) {
        const uint32_t c = ((b & 0x0f) << 12) | ((at[0] & 0x3fu) << 6) | (at[1] & 0x3f);
        at += 2;
        return c;
    }
    const uint32_t c =
        ((b & 0x07) << 18) | ((at[0] & 0x3fu) << 12) | ((at[1] & 0x3fu) << 6) | (at[2] & 0x3f);
    at += 3;
    return c;
}

Header readHeader(const uint8_t *data) {
    Header h;
    h.width = load<uint16_t>(data);
    h.used = load<uint16_t>(data + 2);
    h.runs = load<uint16_t>(data + 4);
    h.textBytes = load<uint16_t>(data + 6);
    h.combining = load<uint16_t>(data + 8);
    return h;
}

} // namespace

CompactLine::CompactLine(const TerminalLine &line) {
    const TerminalCell *cells = line.cells.data();
    const size_t width = std::min<size_t>(line.cells.size(), UINT16_MAX);
    size_t used = width;
    while (used > 0 && isUnwritten(cells[used - 1]))
        --used;
    size_t markBytes = 0;
    for (const auto &entry : line.combining)
        markBytes += 4 + 4 * entry.second.size();
    // One scratch buffer sized for the worst case, written through raw pointers and copied
    // once: a line scrolls out for every newline of a busy stream.
    thread_local std::vector<uint8_t> scratch;
    const size_t runsCapacity = used * kRunSize;
    const size_t needed = kHeaderSize + runsCapacity + used * 4 + markBytes;
    if (scratch.size() < needed)
        scratch.resize(needed);
    uint8_t *const runsStart = scratch.data() + kHeaderSize;
    uint8_t *run = runsStart;
    uint8_t *const textStart = runsStart + runsCapacity;
    uint8_t *text = textStart;
    Header h;
    h.width = uint16_t(width);
    h.used = uint16_t(used);
    size_t col = 0;
    while (col < used) {
        const uint32_t style = firstWord(cells[col]) & ~kCharMask;
        const uint32_t fg = cells[col].fg;
        const uint32_t bg = cells[col].bg;
        const size_t start = col;
        for (; col < used; ++col) {
            const TerminalCell &cell = cells[col];
            const uint32_t word = firstWord(cell);
            if ((word & ~kCharMask) != style || cell.fg != fg || cell.bg != bg)
                break;
            const uint32_t ch = word & kCharMask;
            if (ch < 0x80) [[likely]]
                *text++ = uint8_t(ch);
            else
                text = putCodePoint(text, ch);
        }
        store(run, style);
        store(run + 4, fg);
        store(run + 8, bg);
        store(run + 12, uint16_t(col - start));
        run += kRunSize;
        ++h.runs;
    }
    // The marks go after the text so a line without any pays nothing for them.
    for (const auto &[at, marks] : line.combining) {
        store(text, uint16_t(at));
        store(text + 2, uint16_t(marks.size()));
        text += 4;
        for (const char32_t mark : marks)
            text = putCodePoint(text, uint32_t(mark));
        ++h.combining;
    }
    const size_t runBytes = size_t(run - runsStart);
    const size_t textBytes = size_t(text - textStart);
    h.textBytes = uint16_t(std::min<size_t>(textBytes, UINT16_MAX));
    m_data = std::make_unique_for_overwrite<uint8_t[]>(kHeaderSize + runBytes + textBytes);
    uint8_t *out = m_data.get();
    store(out, h.width);
    store(out + 2, h.used);
    store(out + 4, h.runs);
    store(out + 6, h.textBytes);
    store(out + 8, h.combining);
    std::memcpy(out + kHeaderSize, runsStart, runBytes);
    std::memcpy(out + kHeaderSize + runBytes, textStart, textBytes);
}

void CompactLine::expandInto(TerminalLine &out) const {
    out.combining.clear();
    if (!m_data) {
        out.cells.clear();
        return;
    }
    const uint8_t *data = m_data.get();
    const Header h = readHeader(data);
    out.cells.assign(h.width, TerminalCell{});
    TerminalCell *cells = out.cells.data();
    const uint8_t *run = data + kHeaderSize;
    const uint8_t *text = run + size_t(h.runs) * kRunSize;
    size_t col = 0;
    for (int r = 0; r < h.runs; ++r, run += kRunSize) {
        const uint32_t style = load<uint32_t>(run);
        const uint32_t fg = load<uint32_t>(run + 4);
        const uint32_t bg = load<uint32_t>(run + 8);
        const size_t end = col + load<uint16_t>(run + 12);
        for (; col < end; ++col) {
            const uint32_t word = style | takeCodePoint(text);
            std::memcpy(static_cast<void *>(&cells[col]), &word, sizeof word);
            cells[col].fg = fg;
            cells[col].bg = bg;
        }
    }
    for (int i = 0; i < h.combining; ++i) {
        const int at = load<uint16_t>(text);
        const size_t count = load<uint16_t>(text + 2);
        text += 4;
        std::u32string marks;
        marks.reserve(count);
        for (size_t k = 0; k < count; ++k)
            marks.push_back(char32_t(takeCodePoint(text)));
        out.combining.emplace_back(at, std::move(marks));
    }
}

size_t CompactLine::byteSize() const {
    if (!m_data)
        return 0;
    const Header h = readHeader(m_data.get());
    return kHeaderSize + size_t(h.runs) * kRunSize + h.textBytes;
}

void clearLine(TerminalLine &line, int cols, const TerminalCell &blank) {
    line.cells.assign(static_cast<size_t>(cols), blank);
    line.combining.clear();
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
        m_history[static_cast<size_t>(index)].expandInto(entry.line);
        entry.absLine = absLine;
    }
    return entry.line;
}

void LineRing::pushHistory(const TerminalLine &line) {
    if (m_limit == 0) {
        ++m_dropped; // the alternate screen keeps nothing: no need to encode
        return;
    }
    const int64_t absLine = m_dropped + scrollbackCount();
    if (!m_cache.empty()) {
        // The number may have named another line before a resize pulled it back to the screen.
        CachedLine &entry = m_cache[static_cast<size_t>(absLine % kHistoryCacheSize)];
        if (entry.absLine == absLine)
            entry.absLine = -1;
    }
    m_history.emplace_back(line);
    trimHistory();
}

void LineRing::trimHistory() {
    while (scrollbackCount() > m_limit) {
        m_history.pop_front();
        ++m_dropped;
    }
}

void LineRing::linearizeScreen() {
    std::rotate(m_screen.begin(), m_screen.begin() + m_screenHead, m_screen.end());
    m_screenHead = 0;
}

void LineRing::scrollUp(int top, int bottom, int count, const TerminalCell &blank) {
    if (count <= 0 || top >= bottom)
        return;
    if (top == 0 && bottom == m_rows) {
        count = std::min(count, m_rows + m_limit);
        // The top line leaves for the scrollback; its cell array becomes the new bottom row.
        for (int i = 0; i < count; ++i) {
            TerminalLine &leaving = m_screen[static_cast<size_t>(m_screenHead)];
            pushHistory(leaving);
            clearLine(leaving, m_cols, blank);
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
    // Moving a TerminalLine moves a few pointers: the region's cells stay where they are.
    std::vector<TerminalLine> leaving;
    leaving.reserve(static_cast<size_t>(count));
    const int leaveFrom = up ? top : bottom - count;
    const int enterAt = up ? bottom - count : top;
    for (int i = 0; i < count; ++i)
        leaving.push_back(std::move(screenLine(leaveFrom + i)));
    if (up) {
        for (int r = top; r < bottom - count; ++r)
            screenLine(r) = std::move(screenLine(r + count));
    } else {
        for (int r = bottom - 1; r >= top + count; --r)
            screenLine(r) = std::move(screenLine(r - count));
    }
    for (int i = 0; i < count; ++i) {
        TerminalLine &line = screenLine(enterAt + i);
        line = std::move(leaving[static_cast<size_t>(i)]);
        clearLine(line, m_cols, blank);
    }
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
            m_history[m_history.size() - size_t(pulled) + size_t(i)].expandInto(back[size_t(i)]);
        m_history.erase(m_history.end() - pulled, m_history.end());
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
        line.cells.resize(static_cast<size_t>(cols), blank);
        std::erase_if(line.combining, [cols](const auto &entry) { return entry.first >= cols; });
    }
    return delta;
}

void LineRing::setScrollbackLimit(int lines) {
    m_limit = std::max(0, lines);
    trimHistory();
}

size_t LineRing::scrollbackBytes() const {
    size_t bytes = 0;
    for (const CompactLine &line : m_history)
        bytes += line.byteSize();
    return bytes;
}

} // namespace sbx
