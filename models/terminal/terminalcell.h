#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace sbx {

// Packed colour: the kind sits in the top byte, a palette index or 0xRRGGBB below it. Twelve
// bytes per cell keep the visible screen fast to write; the scrollback stores lines compacted
// (see CompactLine).
namespace TerminalColor {
constexpr uint32_t kKindMask = 0xff000000u;
constexpr uint32_t kDefaultKind = 0;
constexpr uint32_t kIndexedKind = 1u << 24;
constexpr uint32_t kRgbKind = 2u << 24;
constexpr uint32_t kDefault = 0;
constexpr uint32_t indexed(uint8_t index) {
    return kIndexedKind | index;
}
constexpr uint32_t rgb(uint8_t r, uint8_t g, uint8_t b) {
    return kRgbKind | (uint32_t(r) << 16) | (uint32_t(g) << 8) | b;
}
constexpr uint32_t kind(uint32_t colour) {
    return colour & kKindMask;
}
} // namespace TerminalColor

struct TerminalCell {
    uint32_t ch : 21 = 0; // 0: never written, shown as a blank
    uint32_t bold : 1 = 0;
    uint32_t italic : 1 = 0;
    uint32_t underline : 2 = 0; // 1 single, 2 double, 3 curly (as libvterm reports it)
    uint32_t blink : 1 = 0;
    uint32_t inverse : 1 = 0;
    uint32_t strike : 1 = 0;
    uint32_t wide : 1 = 0;         // first half of a two-cell glyph
    uint32_t continuation : 1 = 0; // second half of a two-cell glyph: painted by its first half
    uint32_t combined : 1 = 0;     // more code points for this cell in TerminalLine::combining
    uint32_t fg = TerminalColor::kDefault;
    uint32_t bg = TerminalColor::kDefault;
};

// The pen with a character, written as three words: building the bit-fields on the stack and
// copying the struct costs a store-forwarding stall per glyph, a third of the parsing time.
inline void stampGlyph(TerminalCell &cell, const TerminalCell &pen, uint32_t ch) {
    static_assert(sizeof(TerminalCell) == 12);
    uint32_t word;
    std::memcpy(&word, &pen, sizeof word);
    word = (word & ~0x1fffffu) | (ch & 0x1fffffu); // ch is the first 21 bits
    std::memcpy(static_cast<void *>(&cell), &word, sizeof word);
    cell.fg = pen.fg;
    cell.bg = pen.bg;
}

// True when two cells can be painted in one run (same colours and attributes).
inline bool sameStyle(const TerminalCell &a, const TerminalCell &b) {
    return a.fg == b.fg && a.bg == b.bg && a.bold == b.bold && a.italic == b.italic &&
           a.underline == b.underline && a.blink == b.blink && a.inverse == b.inverse &&
           a.strike == b.strike;
}

struct TerminalLine {
    std::vector<TerminalCell> cells;
    // Combining marks are rare: a side table keyed by column keeps every other cell small.
    std::vector<std::pair<int, std::u32string>> combining;
};

} // namespace sbx
