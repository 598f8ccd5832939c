#include "models/files/hugepages.h"

#include <cstdint>
#include <sys/mman.h>

namespace sbx {

namespace {
std::size_t rounded(std::size_t bytes) {
    return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}
} // namespace

void *mapHugePages(std::size_t bytes) {
    // Mapped with a huge page's room to spare, then trimmed to an aligned run: the kernel can
    // only back an aligned 2 MiB run with a huge page.
    const std::size_t length = rounded(bytes);
    void *raw = ::mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return nullptr;
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
    return aligned;
}

void unmapHugePages(void *data, std::size_t bytes) {
    if (data)
        ::munmap(data, rounded(bytes));
}

} // namespace sbx
