#include "models/files/zeroedtable.h"

#include "models/files/hugepages.h"

#include <cstdlib>
#include <new>

namespace sbx {

namespace {
constexpr std::size_t kMapFrom = std::size_t(1) << 20;
} // namespace

ZeroedTable::ZeroedTable(std::size_t bytes)
    : m_bytes(bytes) {
    if (bytes == 0)
        return;
    if (bytes >= kMapFrom) {
        m_data = mapHugePages(bytes);
        if (m_data) {
            m_mapped = bytes;
            return;
        }
    }
    m_data = std::calloc(bytes, 1);
    if (!m_data)
        throw std::bad_alloc();
}

ZeroedTable::~ZeroedTable() {
    if (m_mapped)
        unmapHugePages(m_data, m_mapped);
    else
        std::free(m_data);
}

} // namespace sbx
