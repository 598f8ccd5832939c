#pragma once

#include "models/terminal/terminalcell.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

namespace sbx {

// The scrollback's lines, oldest first, each encoded as a CompactLine and packed one after
// the other into large blocks: no allocation or free per line that scrolls in or out, and no
// allocator overhead per line. Lines leave from the front (the limit) and the back (a resize
// pulling them onto the screen).
class CompactHistory final {
public:
    size_t size() const { return m_lines.size(); }
    // Appends a line; returns how many of its cells it kept: the rest were never written.
    size_t push(const TerminalLine &line);
    void popFront();
    void popBack();
    void clear();
    void expandInto(size_t index, TerminalLine &out) const;
    // Bytes of the encoded lines, for tests and benchmarks.
    size_t bytes() const;

    static constexpr size_t kBlockSize = 64 * 1024;

private:
    struct Block {
        std::unique_ptr<uint8_t[]> data;
        size_t capacity = 0;
        size_t used = 0;
        size_t lines = 0;
    };
    void retire(Block &&block);

    std::deque<Block> m_blocks;
    std::deque<const uint8_t *> m_lines; // where each line starts, in its block
    Block m_spare;                       // an emptied block, kept for the next one needed
};

} // namespace sbx
