#pragma once

#include <cstddef>

namespace sbx {

// Memory mapped on its own for a listing's large structures (a name index, nodes, collation
// keys): 2 MiB-aligned and marked for transparent huge pages, zeroed by the kernel. In
// small pages every 4 KiB took a page fault on first touch: 11 us each on a virtual machine
// where that was measured (90 ms for 32 MiB, 2 ms in huge pages), a third of the CPU time of a
// 100 000-row listing.
inline constexpr std::size_t kHugePage = std::size_t(2) << 20;

// At least bytes (rounded up to whole huge pages), or nullptr when the kernel refused.
void *mapHugePages(std::size_t bytes);
// What mapHugePages() gave, with the size asked for.
void unmapHugePages(void *data, std::size_t bytes);

} // namespace sbx
