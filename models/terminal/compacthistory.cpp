#include "models/terminal/compacthistory.h"

#include "models/terminal/compactline.h"

#include <algorithm>
#include <utility>

namespace sbx {

size_t CompactHistory::push(const TerminalLine &line) {
    size_t used = 0;
    const size_t most = CompactLine::maxEncodedSize(line, &used);
    if (m_blocks.empty() || m_blocks.back().capacity - m_blocks.back().used < most) {
        Block block;
        if (m_spare.data && m_spare.capacity >= most) {
            block = std::move(m_spare);
            m_spare = Block();
        } else {
            block.capacity = std::max(kBlockSize, most);
            block.data = std::make_unique_for_overwrite<uint8_t[]>(block.capacity);
        }
        m_blocks.push_back(std::move(block));
    }
    Block &last = m_blocks.back();
    uint8_t *at = last.data.get() + last.used;
    last.used += CompactLine::encodeInto(line, used, at);
    ++last.lines;
    m_lines.push_back(at);
    return used;
}

void CompactHistory::retire(Block &&block) {
    if (block.capacity == kBlockSize && !m_spare.data) {
        block.used = 0;
        block.lines = 0;
        m_spare = std::move(block);
    }
}

void CompactHistory::popFront() {
    if (m_lines.empty())
        return;
    m_lines.pop_front();
    Block &front = m_blocks.front();
    if (--front.lines > 0)
        return;
    if (m_blocks.size() == 1) {
        front.used = 0;
        return;
    }
    retire(std::move(front));
    m_blocks.pop_front();
}

void CompactHistory::popBack() {
    if (m_lines.empty())
        return;
    // The last line ends its block: the block's end moves back to where the line began.
    Block &last = m_blocks.back();
    last.used = size_t(m_lines.back() - last.data.get());
    m_lines.pop_back();
    if (--last.lines > 0 || m_blocks.size() == 1)
        return;
    retire(std::move(last));
    m_blocks.pop_back();
}

void CompactHistory::clear() {
    if (!m_blocks.empty())
        retire(std::move(m_blocks.front()));
    m_blocks.clear();
    m_lines.clear();
}

void CompactHistory::expandInto(size_t index, TerminalLine &out) const {
    CompactLine::decode(m_lines[index], out);
}

size_t CompactHistory::bytes() const {
    if (m_lines.empty())
        return 0;
    size_t total = 0;
    for (const Block &block : m_blocks)
        total += block.used;
    return total - size_t(m_lines.front() - m_blocks.front().data.get());
}

} // namespace sbx
