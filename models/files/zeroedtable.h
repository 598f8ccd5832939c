#pragma once

#include <cstddef>
#include <utility>

namespace sbx {

// Zeroed memory for a large table that is read at random (NameIndex's slots): past 1 MiB it is
// in huge pages (mapHugePages). In small pages a 100 000-row index took a page fault per 4 KiB
// as it was first touched and, under a virtual machine's nested paging, a TLB miss on nearly
// every probe: 40 ms of a listing.
class ZeroedTable final {
public:
    ZeroedTable() = default;
    explicit ZeroedTable(std::size_t bytes);
    ~ZeroedTable();
    ZeroedTable(ZeroedTable &&other) noexcept
        : m_data(std::exchange(other.m_data, nullptr))
        , m_bytes(std::exchange(other.m_bytes, 0))
        , m_mapped(std::exchange(other.m_mapped, 0)) {}
    ZeroedTable &operator=(ZeroedTable &&other) noexcept {
        ZeroedTable(std::move(other)).swap(*this);
        return *this;
    }
    ZeroedTable(const ZeroedTable &) = delete;
    ZeroedTable &operator=(const ZeroedTable &) = delete;

    void *data() const { return m_data; }
    std::size_t size() const { return m_bytes; }
    void swap(ZeroedTable &other) noexcept {
        std::swap(m_data, other.m_data);
        std::swap(m_bytes, other.m_bytes);
        std::swap(m_mapped, other.m_mapped);
    }

private:
    void *m_data = nullptr;
    std::size_t m_bytes = 0;
    std::size_t m_mapped = 0; // bytes in huge pages at m_data, 0 when it came from calloc
};

} // namespace sbx
