#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace sbx {

// Packed colour: the kind sits in the top byte, a palette index or 0xRRGGBB below it. Sixteen
// bytes per cell keep the visible screen fast to write (four aligned words, the character in
// the first); the scrollback stores lines compacted (see CompactLine).
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

// SGR 4:n, as drawn.
enum class TerminalUnderline : uint32_t { None, Single, Double, Curly, Dotted, Dashed };

struct TerminalCell {
    uint32_t ch : 21 = 0; // 0: never written, shown as a blank
    uint32_t bold : 1 = 0;
    uint32_t italic : 1 = 0;
    uint32_t underline : 3 = 0; // a TerminalUnderline
    uint32_t blink : 1 = 0;
    uint32_t inverse : 1 = 0;
    uint32_t strike : 1 = 0;
    uint32_t wide : 1 = 0;         // first half of a two-cell glyph
    uint32_t continuation : 1 = 0; // second half of a two-cell glyph: painted by its first half
    uint32_t combined : 1 = 0;     // more code points for this cell in TerminalLine::combining
    uint32_t fg = TerminalColor::kDefault;
    uint32_t bg = TerminalColor::kDefault;
    uint32_t underlineColor : 26 = TerminalColor::kDefault; // SGR 58; default: the text's colour
    uint32_t faint : 1 = 0;
    uint32_t conceal : 1 = 0;
    uint32_t protect : 1 = 0; // DECSCA: selective erase (DECSED, DECSEL) leaves the cell
    uint32_t spare : 3 = 0;   // named so that a cell has no indeterminate bits
};

// The four words of a cell, for code that copies or compares cells without their bit-fields.
struct TerminalCellWords {
    uint32_t w[4];
};
inline TerminalCellWords cellWords(const TerminalCell &cell) {
    static_assert(sizeof(TerminalCell) == 16);
    TerminalCellWords words;
    std::memcpy(words.w, &cell, sizeof words.w);
    return words;
}
constexpr uint32_t kCellCharMask = 0x1fffffu; // the character: the first 21 bits of word 0
// Where the compiler puts the flags (tst_terminalscrollback checks it): code that handles
// cells as words tests them without the bit-fields.
constexpr uint32_t kCellWideBit = 1u << 29;
constexpr uint32_t kCellContinuationBit = 1u << 30;
constexpr uint32_t kCellCombinedBit = 1u << 31;

// The pen with a character, written as words: building the bit-fields on the stack and
// copying the struct costs a store-forwarding stall per glyph.
inline void stampGlyph(TerminalCell &cell, const TerminalCellWords &pen, uint32_t ch) {
    uint32_t words[4] = {(pen.w[0] & ~kCellCharMask) | (ch & kCellCharMask), pen.w[1], pen.w[2],
                         pen.w[3]};
    std::memcpy(static_cast<void *>(&cell), words, sizeof words);
}
inline void stampGlyph(TerminalCell &cell, const TerminalCell &pen, uint32_t ch) {
    stampGlyph(cell, cellWords(pen), ch);
}

// True when two cells can be painted in one run (same colours and attributes).
inline bool sameStyle(const TerminalCell &a, const TerminalCell &b) {
    return a.fg == b.fg && a.bg == b.bg && a.bold == b.bold && a.italic == b.italic &&
           a.underline == b.underline && a.blink == b.blink && a.inverse == b.inverse &&
           a.strike == b.strike && a.underlineColor == b.underlineColor && a.faint == b.faint &&
           a.conceal == b.conceal;
}

struct TerminalLine {
    std::vector<TerminalCell> cells;
    // Combining marks are rare: a side table keyed by column keeps every other cell small.
    std::vector<std::pair<int, std::u32string>> combining;
};

} // namespace sbx
