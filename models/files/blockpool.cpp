#include "models/files/blockpool.h"

#include "models/files/hugepages.h"

#include <new>

namespace sbx {

namespace {
constexpr std::size_t kAlign = alignof(std::max_align_t);
thread_local int t_bulk = 0;

std::uintptr_t slabOf(const void *block) {
    return reinterpret_cast<std::uintptr_t>(block) & ~(kHugePage - 1);
}
} // namespace

BlockPool::Bulk::Bulk() {
    ++t_bulk;
}

BlockPool::Bulk::~Bulk() {
    --t_bulk;
}

BlockPool::BlockPool(std::size_t blockSize)
    : m_blockSize((blockSize + kAlign - 1) / kAlign * kAlign)
    , m_blocksPerSlab(kHugePage / m_blockSize) {}

BlockPool::~BlockPool() {
    for (auto &[base, slab] : m_slabs)
        unmapHugePages(slab.base, kHugePage);
}

void *BlockPool::allocate() {
    if (t_bulk > 0) {
        if (void *block = fromSlab())
            return block;
    }
    return ::operator new(m_blockSize);
}

void *BlockPool::fromSlab() {
    const std::scoped_lock lock(m_mutex);
    Slab *slab = slabWithRoom();
    if (!slab)
        return nullptr;
    ++slab->live;
    if (void *block = slab->freed) {
        slab->freed = *static_cast<void **>(block);
        return block;
    }
    return slab->base + m_blockSize * slab->carved++;
}

BlockPool::Slab *BlockPool::slabWithRoom() {
    const auto hasRoom = [this](const Slab &s) {
        return s.freed || s.carved < m_blocksPerSlab;
    };
    if (m_current && hasRoom(*m_current))
        return m_current;
    for (auto &[base, slab] : m_slabs) {
        if (hasRoom(slab))
            return m_current = &slab;
    }
    auto *base = static_cast<char *>(mapHugePages(kHugePage));
    if (!base)
        return nullptr;
    Slab &slab = m_slabs[reinterpret_cast<std::uintptr_t>(base)];
    slab.base = base;
    return m_current = &slab;
}

void BlockPool::release(void *block) {
    if (!block)
        return;
    {
        // A block from the heap lies in no slab, so its slab address is never a slab's.
        const std::scoped_lock lock(m_mutex);
        const auto it = m_slabs.find(slabOf(block));
        if (it != m_slabs.end()) {
            Slab &slab = it->second;
            if (--slab.live == 0 && &slab != m_current) {
                unmapHugePages(slab.base, kHugePage);
                m_slabs.erase(it);
            } else {
                *static_cast<void **>(block) = slab.freed;
                slab.freed = block;
            }
            return;
        }
    }
    ::operator delete(block, m_blockSize);
}

std::size_t BlockPool::slabCount() const {
    const std::scoped_lock lock(m_mutex);
    return m_slabs.size();
}

} // namespace sbx
