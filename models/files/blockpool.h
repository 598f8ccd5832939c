#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace sbx {

// Blocks of one size carved from huge-page slabs (mapHugePages), for the objects a large
// listing makes one per row (its nodes): from the heap, 100 000 of them touched 6 000 fresh
// small pages, a page fault each. Only allocations made while a Bulk lives on the thread come
// from a slab: a folder of ten rows keeps to the heap rather than touch a 2 MiB page. A slab is
// unmapped when its last block is released. Thread-safe.
class BlockPool final {
public:
    explicit BlockPool(std::size_t blockSize);
    ~BlockPool();
    BlockPool(const BlockPool &) = delete;
    BlockPool &operator=(const BlockPool &) = delete;

    // While one lives, allocate() on this thread takes a slab's block.
    class Bulk final {
    public:
        Bulk();
        ~Bulk();
        Bulk(const Bulk &) = delete;
        Bulk &operator=(const Bulk &) = delete;
    };

    // A block of blockSize bytes, aligned for any object; from the heap outside a Bulk.
    void *allocate();
    // Any pointer allocate() returned.
    void release(void *block);
    // Slabs mapped now (for tests).
    std::size_t slabCount() const;

private:
    struct Slab {
        char *base = nullptr;
        std::size_t carved = 0; // blocks handed out from the start at least once
        void *freed = nullptr;  // released blocks, linked through their first bytes
        std::size_t live = 0;
    };
    void *fromSlab();
    Slab *slabWithRoom();

    const std::size_t m_blockSize;
    const std::size_t m_blocksPerSlab;
    mutable std::mutex m_mutex;
    std::unordered_map<std::uintptr_t, Slab> m_slabs; // by base address
    Slab *m_current = nullptr;                        // where blocks are taken from
};

} // namespace sbx
