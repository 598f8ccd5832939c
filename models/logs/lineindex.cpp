#include "models/logs/lineindex.h"

#include <algorithm>

namespace sbx {

namespace {

// Reads one LEB128 varint at p and moves p past it.
inline qint64 readVarint(const quint8 *&p) {
    qint64 value = 0;
    int shift = 0;
    while (true) {
        const quint8 byte = *p++;
        value |= qint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
        shift += 7;
    }
}

// A block's lengths take at most this many bytes (a varint of a 64-bit length is 10).
constexpr qint32 kBlockBytesMax = qint32(LineIndex::kBlockLines) * 10;
// Chunks start small (a short log costs little) and double up to this size.
constexpr qint32 kFirstChunkBytes = 4096;
constexpr qint32 kLargestChunkBytes = 1 << 20;

} // namespace

void LineIndex::addLine(qint64 length) {
    if (m_lines % kBlockLines == 0) {
        if (m_chunks.empty() || m_chunks.back().size - m_chunks.back().used < kBlockBytesMax) {
            const qint32 size = m_chunks.empty()
                                    ? kFirstChunkBytes
                                    : std::min(2 * m_chunks.back().size, kLargestChunkBytes);
            m_chunks.push_back({std::make_unique_for_overwrite<quint8[]>(size_t(size)), size, 0});
        }
        m_blocks.push_back({m_end, qint32(m_chunks.size() - 1), m_chunks.back().used});
    }
    Chunk &chunk = m_chunks.back();
    quint64 v = quint64(length);
    while (v >= 0x80) {
        chunk.bytes[size_t(chunk.used++)] = quint8(v | 0x80);
        v >>= 7;
    }
    chunk.bytes[size_t(chunk.used++)] = quint8(v);
    ++m_lines;
    m_end += length;
}

void LineIndex::addLines(const std::vector<qint64> &lengths) {
    for (const qint64 length : lengths)
        addLine(length);
}

void LineIndex::clear() {
    m_blocks = {};
    std::vector<Chunk>().swap(m_chunks);
    m_lines = 0;
    m_end = 0;
}

std::pair<qint64, qint64> LineIndex::range(qint64 line) const {
    const auto all = ranges(line, 1);
    return all.empty() ? std::pair<qint64, qint64>{m_end, 0} : all.front();
}

std::vector<std::pair<qint64, qint64>> LineIndex::ranges(qint64 first, qint64 count) const {
    std::vector<std::pair<qint64, qint64>> out;
    first = std::max<qint64>(0, first);
    count = std::min(count, m_lines - first);
    if (count <= 0)
        return out;
    out.reserve(size_t(count));
    const Block &block = m_blocks[size_t(first / kBlockLines)];
    const quint8 *p = lengthsOf(block);
    qint64 offset = block.base;
    for (qint64 skip = first % kBlockLines; skip > 0; --skip)
        offset += readVarint(p);
    for (qint64 i = 0; i < count; ++i) {
        // The next block's lengths may be in the next chunk.
        if (const qint64 line = first + i; i > 0 && line % kBlockLines == 0)
            p = lengthsOf(m_blocks[size_t(line / kBlockLines)]);
        const qint64 length = readVarint(p);
        out.emplace_back(offset, length);
        offset += length;
    }
    return out;
}

qint64 LineIndex::lineAt(qint64 offset) const {
    if (m_lines == 0)
        return 0;
    if (offset >= m_end)
        return m_lines - 1;
    // The last block whose base is at or before offset.
    const auto it = std::upper_bound(m_blocks.begin(), m_blocks.end(), offset,
                                     [](qint64 o, const Block &b) { return o < b.base; });
    const qint64 blockIndex = qint64(it - m_blocks.begin()) - 1;
    const Block &block = m_blocks[size_t(blockIndex)];
    const quint8 *p = lengthsOf(block);
    qint64 start = block.base;
    qint64 line = blockIndex * kBlockLines;
    while (line < m_lines - 1) {
        const qint64 length = readVarint(p);
        if (offset < start + length)
            break;
        start += length;
        ++line;
    }
    return line;
}

qint64 LineIndex::memoryBytes() const {
    qint64 bytes = qint64(m_blocks.capacity() * sizeof(Block));
    for (const Chunk &chunk : m_chunks)
        bytes += chunk.size;
    return bytes;
}

} // namespace sbx
