#pragma once

#include "models/terminal/terminalcell.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace sbx {

// A line that left the screen, in one block of bytes: trailing never-written cells dropped, the
// code points as UTF-8, the attributes as runs, combining marks at the end. A line of plain
// text costs about its length in bytes instead of sixteen bytes per column.
class CompactLine final {
public:
    CompactLine() = default;
    explicit CompactLine(const TerminalLine &line);

    // Writes the line back exactly as it was given (cells, width and combining marks),
    // reusing the storage of `out`.
    void expandInto(TerminalLine &out) const;
    // Bytes held on the heap, for tests and benchmarks.
    size_t byteSize() const;

    // The encoding itself, for a store that keeps many lines in blocks of its own: the most
    // bytes a line can take and how many of its cells it keeps (those after were never
    // written), then the encoding into room of that size, which returns the bytes it took.
    static size_t maxEncodedSize(const TerminalLine &line, size_t *usedCells);
    static size_t encodeInto(const TerminalLine &line, size_t usedCells, uint8_t *out);
    static void decode(const uint8_t *data, TerminalLine &out);
    static size_t encodedSize(const uint8_t *data);

private:
    std::unique_ptr<uint8_t[]> m_data;
};

} // namespace sbx
