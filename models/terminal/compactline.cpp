#include "models/terminal/compactline.h"

#include <algorithm>
#include <cstring>

namespace sbx {

namespace {

// Layout: a header (uint16 width, cells kept, runs, combining entries and flags, then the
// uint32 offset of the runs), the text, the combining marks, and the runs. Text first: it is
// written straight into place while the runs are gathered aside.
constexpr size_t kHeaderSize = 14;
// A run: the cell's first word without its character, fg, bg, the fourth word when the line
// has any (underline colour, faint, conceal, protection: rare), then the run's length.
constexpr size_t kRunSize = 14;
constexpr size_t kWideRunSize = 18;
constexpr uint16_t kFourthWord = 1;
constexpr uint32_t kCharMask = kCellCharMask;

struct Header {
    uint16_t width = 0;
    uint16_t used = 0;
    uint16_t runs = 0;
    uint16_t combining = 0;
    uint16_t flags = 0;
    uint32_t runsOffset = 0;
};

template <typename T> T load(const uint8_t *at) {
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

template <typename T> void store(uint8_t *at, T value) {
    std::memcpy(at, &value, sizeof value);
}

// In the text, before a code point: the cell is the first half of a wide glyph and the next
// cell its plain second half (the same style, no character). The pair is one run entry instead
// of three. Never a lead byte of the text's encoding, which ends at 0xf7.
constexpr uint8_t kWidePairMark = 0xf8;

// Whether cells[col], a wide cell, and the cell after it are such a pair.
inline bool widePair(const TerminalCell *cells, size_t col, size_t used) {
    uint32_t w[4];
    std::memcpy(w, &cells[col], sizeof w);
    if ((w[0] & kCellContinuationBit) || col + 1 >= used)
        return false;
    uint32_t next[4];
    std::memcpy(next, &cells[col + 1], sizeof next);
    return next[0] == ((w[0] & ~kCharMask & ~kCellWideBit) | kCellContinuationBit) &&
           next[1] == w[1] && next[2] == w[2] && next[3] == w[3];
}

bool isUnwritten(const TerminalCell &cell) {
    uint64_t halves[2];
    std::memcpy(halves, &cell, sizeof halves);
    return (halves[0] | halves[1]) == 0;
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
    h.combining = load<uint16_t>(data + 6);
    h.flags = load<uint16_t>(data + 8);
    h.runsOffset = load<uint32_t>(data + 10);
    return h;
}

size_t runSize(const Header &h) {
    return (h.flags & kFourthWord) ? kWideRunSize : kRunSize;
}

} // namespace

size_t CompactLine::maxEncodedSize(const TerminalLine &line, size_t *usedCells) {
    const TerminalCell *cells = line.cells.data();
    size_t used = std::min<size_t>(line.cells.size(), UINT16_MAX);
    // Four cells at a time while all four are unwritten, then one by one.
    while (used >= 4) {
        uint64_t words[8];
        std::memcpy(words, &cells[used - 4], sizeof words);
        if ((words[0] | words[1] | words[2] | words[3] | words[4] | words[5] | words[6] |
             words[7]) != 0)
            break;
        used -= 4;
    }
    while (used > 0 && isUnwritten(cells[used - 1]))
        --used;
    size_t markBytes = 0;
    for (const auto &entry : line.combining)
        markBytes += 4 + 4 * entry.second.size();
    *usedCells = used;
    return kHeaderSize + used * (4 + kWideRunSize) + markBytes;
}

// One pass over the cells: a line scrolls out for every newline of a busy stream. The text
// goes straight to `out`, the runs to a buffer of their own (wide until the line turns out to
// need no fourth word), appended at the end.
size_t CompactLine::encodeInto(const TerminalLine &line, size_t used, uint8_t *out) {
    const TerminalCell *cells = line.cells.data();
    thread_local std::vector<uint8_t> runBuffer;
    if (runBuffer.size() < used * kWideRunSize)
        runBuffer.resize(used * kWideRunSize);
    uint8_t *run = runBuffer.data();
    uint8_t *t = out + kHeaderSize;
    uint32_t fourthSeen = 0;
    size_t runs = 0;
    size_t col = 0;
    // A cell as two 64-bit halves: (first word, fg) and (bg, fourth word). The first word's
    // character bits are masked off for the comparison, and its wide bit in a wide pair.
    constexpr uint64_t kStyleMask = ~uint64_t(kCharMask);
    while (col < used) {
        uint64_t half[2];
        std::memcpy(half, &cells[col], sizeof half);
        bool pair = (uint32_t(half[0]) & kCellWideBit) && widePair(cells, col, used);
        const uint64_t low = half[0] & kStyleMask & ~uint64_t(pair ? kCellWideBit : 0);
        const uint64_t high = half[1];
        const size_t start = col;
        for (;;) {
            // Plain ASCII in the run's style, the bulk of any line: nothing else to look at.
            while (!pair && (half[0] & kStyleMask) == low && half[1] == high &&
                   (uint32_t(half[0]) & kCharMask) < 0x80) {
                *t++ = uint8_t(half[0]);
                if (++col >= used)
                    break;
                std::memcpy(half, &cells[col], sizeof half);
            }
            if (col >= used)
                break;
            pair = (uint32_t(half[0]) & kCellWideBit) && widePair(cells, col, used);
            if ((half[0] & kStyleMask & ~uint64_t(pair ? kCellWideBit : 0)) != low ||
                half[1] != high)
                break;
            const uint32_t ch = uint32_t(half[0]) & kCharMask;
            if (ch < 0x80 && !pair) [[likely]] {
                *t++ = uint8_t(ch);
                ++col;
            } else {
                if (pair)
                    *t++ = kWidePairMark;
                t = putCodePoint(t, ch);
                col += pair ? 2 : 1;
            }
            if (col >= used)
                break;
            std::memcpy(half, &cells[col], sizeof half);
            pair = (uint32_t(half[0]) & kCellWideBit) && widePair(cells, col, used);
            if ((half[0] & kStyleMask & ~uint64_t(pair ? kCellWideBit : 0)) != low ||
                half[1] != high)
                break;
        }
        const uint32_t style = uint32_t(low);
        const uint32_t fg = uint32_t(low >> 32);
        const uint32_t bg = uint32_t(high);
        const uint32_t fourth = uint32_t(high >> 32);
        store(run, style);
        store(run + 4, fg);
        store(run + 8, bg);
        store(run + 12, fourth);
        store(run + 16, uint16_t(col - start));
        run += kWideRunSize;
        fourthSeen |= fourth;
        ++runs;
    }
    for (const auto &[at, marks] : line.combining) {
        store(t, uint16_t(at));
        store(t + 2, uint16_t(marks.size()));
        t += 4;
        for (const char32_t mark : marks)
            t = putCodePoint(t, uint32_t(mark));
    }
    const uint32_t runsOffset = uint32_t(t - out);
    if (fourthSeen) {
        std::memcpy(t, runBuffer.data(), runs * kWideRunSize);
        t += runs * kWideRunSize;
    } else {
        // Most lines: no fourth word anywhere, the runs close up to fourteen bytes each.
        for (size_t i = 0; i < runs; ++i, t += kRunSize) {
            std::memcpy(t, runBuffer.data() + i * kWideRunSize, 12);
            std::memcpy(t + 12, runBuffer.data() + i * kWideRunSize + 16, 2);
        }
    }
    store(out, uint16_t(std::min<size_t>(line.cells.size(), UINT16_MAX)));
    store(out + 2, uint16_t(used));
    store(out + 4, uint16_t(runs));
    store(out + 6, uint16_t(line.combining.size()));
    store(out + 8, uint16_t(fourthSeen ? kFourthWord : 0));
    store(out + 10, runsOffset);
    return size_t(t - out);
}

void CompactLine::decode(const uint8_t *data, TerminalLine &out) {
    out.combining.clear();
    const Header h = readHeader(data);
    out.cells.assign(h.width, TerminalCell{});
    TerminalCell *cells = out.cells.data();
    const bool anyFourth = h.flags & kFourthWord;
    const size_t stride = runSize(h);
    const uint8_t *run = data + h.runsOffset;
    const uint8_t *text = data + kHeaderSize;
    size_t col = 0;
    for (int r = 0; r < h.runs; ++r, run += stride) {
        const uint32_t style = load<uint32_t>(run);
        const uint32_t fg = load<uint32_t>(run + 4);
        const uint32_t bg = load<uint32_t>(run + 8);
        const uint32_t fourth = anyFourth ? load<uint32_t>(run + 12) : 0;
        const size_t end = std::min<size_t>(col + load<uint16_t>(run + stride - 2), h.width);
        while (col < end) {
            if (*text == kWidePairMark && col + 1 < end) {
                ++text;
                const uint32_t wide[4] = {style | kCellWideBit | takeCodePoint(text), fg, bg,
                                          fourth};
                const uint32_t second[4] = {style | kCellContinuationBit, fg, bg, fourth};
                std::memcpy(static_cast<void *>(&cells[col]), wide, sizeof wide);
                std::memcpy(static_cast<void *>(&cells[col + 1]), second, sizeof second);
                col += 2;
                continue;
            }
            const uint32_t words[4] = {style | takeCodePoint(text), fg, bg, fourth};
            std::memcpy(static_cast<void *>(&cells[col]), words, sizeof words);
            ++col;
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

size_t CompactLine::encodedSize(const uint8_t *data) {
    const Header h = readHeader(data);
    return h.runsOffset + size_t(h.runs) * runSize(h);
}

CompactLine::CompactLine(const TerminalLine &line) {
    size_t used = 0;
    thread_local std::vector<uint8_t> buffer;
    const size_t most = maxEncodedSize(line, &used);
    if (buffer.size() < most)
        buffer.resize(most);
    const size_t size = encodeInto(line, used, buffer.data());
    m_data = std::make_unique_for_overwrite<uint8_t[]>(size);
    std::memcpy(m_data.get(), buffer.data(), size);
}
void CompactLine::expandInto(TerminalLine &out) const {
    if (!m_data) {
        out.combining.clear();
        out.cells.clear();
        return;
    }
    decode(m_data.get(), out);
}

size_t CompactLine::byteSize() const {
    return m_data ? encodedSize(m_data.get()) : 0;
}

} // namespace sbx
