#include "models/files/zeroedtable.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace sbx {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kMapFrom = std::size_t(1) << 20;
} // namespace

ZeroedTable::ZeroedTable(std::size_t bytes)
    : m_bytes(bytes) {
    if (bytes == 0)
        return;
    if (bytes >= kMapFrom) {
        // Mapped with a huge page's room to spare, then trimmed to an aligned run: the kernel
        // hands out zeroed pages, so nothing is written until a slot is used.
        const std::size_t length = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void *raw = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw != MAP_FAILED) {
            auto *begin = static_cast<char *>(raw);
            auto *aligned = reinterpret_cast<char *>(
                (reinterpret_cast<std::uintptr_t>(begin) + kHugePage - 1) & ~(kHugePage - 1));
            if (aligned > begin)
                ::munmap(begin, std::size_t(aligned - begin));
            if (const auto tail = std::size_t(begin + kHugePage - aligned))
                ::munmap(aligned + length, tail);
#ifdef MADV_HUGEPAGE
            ::madvise(aligned, length, MADV_HUGEPAGE); // a hint: small pages if refused
#endif
            m_data = aligned;
            m_mapped = length;
            return;
        }
    }
    m_data = std::calloc(bytes, 1);
    if (!m_data)
        throw std::bad_alloc();
}

ZeroedTable::~ZeroedTable() {
    if (m_mapped)
        ::munmap(m_data, m_mapped);
    else
        std::free(m_data);
}

} // namespace sbx
