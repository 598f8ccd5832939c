#pragma once

#include <QtGlobal>

#include <memory>
#include <utility>
#include <vector>

namespace sbx {

// Where every line of a log starts, in about two bytes a line: per block of kBlockLines lines a
// 64-bit base offset, and each line's length as a varint (klogg's idea of a base plus deltas).
// Not thread-safe: LogData guards it.
class LineIndex final {
public:
    static constexpr qint64 kBlockLines = 64;

    // Adds the next line: length bytes, its terminator included.
    void addLine(qint64 length);
    // Adds lines from the lengths given (one call per chunk keeps the work out of a lock).
    void addLines(const std::vector<qint64> &lengths);
    void clear();

    qint64 lineCount() const { return m_lines; }
    // The byte just past the last indexed line.
    qint64 endOffset() const { return m_end; }
    // Start offset and length (terminator included) of line; O(kBlockLines).
    std::pair<qint64, qint64> range(qint64 line) const;
    // The ranges of count lines from first, in order; O(count + kBlockLines).
    std::vector<std::pair<qint64, qint64>> ranges(qint64 first, qint64 count) const;
    // The line holding byte offset (the last line when offset is past the end); O(log n + block).
    qint64 lineAt(qint64 offset) const;
    // Bytes this index holds on the heap, for the memory figures.
    qint64 memoryBytes() const;

private:
    struct Block {
        qint64 base = 0;  // offset of the block's first line
        qint32 chunk = 0; // where its first length starts: which chunk of the pool, and where
        qint32 at = 0;
    };
    // The lengths are kept in chunks that never move: one growing array, doubled at 8 MiB
    // (some 8 million lines), copied itself on the GUI thread's side of the lock and stalled a
    // live log 40-110 ms. A block's lengths never straddle two chunks.
    struct Chunk {
        std::unique_ptr<quint8[]> bytes;
        qint32 size = 0;
        qint32 used = 0;
    };
    const quint8 *lengthsOf(const Block &block) const {
        return m_chunks[size_t(block.chunk)].bytes.get() + block.at;
    }
    std::vector<Block> m_blocks;
    std::vector<Chunk> m_chunks; // LEB128 lengths, block after block
    qint64 m_lines = 0;
    qint64 m_end = 0;
};

} // namespace sbx
