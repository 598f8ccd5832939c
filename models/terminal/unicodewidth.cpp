#include "models/terminal/unicodewidth.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace sbx {

namespace {

struct CodePointRange {
    char32_t first;
    char32_t last;
};

#include "models/terminal/unicodewidthtable.inc"

bool inRanges(const CodePointRange *begin, const CodePointRange *end, char32_t cp) {
    const CodePointRange *it = std::upper_bound(
        begin, end, cp, [](char32_t c, const CodePointRange &r) { return c < r.first; });
    return it != begin && cp <= std::prev(it)->last;
}

int searchWidth(char32_t cp) {
    if (inRanges(std::begin(kZeroWidth), std::end(kZeroWidth), cp))
        return 0;
    if (inRanges(std::begin(kDoubleWidth), std::end(kDoubleWidth), cp))
        return 2;
    return 1;
}

// The first two planes at two bits a code point (32 KiB): text is mostly there (CJK in the
// first, emoji in the second), and a table read beats the dozen comparisons of a search for
// every character of a busy stream.
constexpr char32_t kTabled = 0x20000;
struct PlaneWidths {
    std::array<uint8_t, kTabled / 4> packed{};
    PlaneWidths() {
        packed.fill(0x55); // every code point one column wide
        const auto set = [this](const CodePointRange *begin, const CodePointRange *end, int w) {
            for (const CodePointRange *r = begin; r != end && r->first < kTabled; ++r)
                for (char32_t cp = r->first; cp <= r->last && cp < kTabled; ++cp) {
                    const int shift = int(cp & 3) * 2;
                    packed[cp >> 2] = uint8_t((packed[cp >> 2] & ~(3 << shift)) | (w << shift));
                }
        };
        set(std::begin(kZeroWidth), std::end(kZeroWidth), 0);
        set(std::begin(kDoubleWidth), std::end(kDoubleWidth), 2);
    }
};

} // namespace

int unicodeCellWidthOf(char32_t cp) {
    if (cp < 0x300)
        return 1;
    if (cp < kTabled) {
        static const PlaneWidths planes;
        return (planes.packed[cp >> 2] >> ((cp & 3) * 2)) & 3;
    }
    return cp > 0x10ffff ? 1 : searchWidth(cp);
}

} // namespace sbx
