#include "server/shell/outputring.h"

#include <algorithm>
#include <cstring>

namespace sbx {

OutputRing::OutputRing(std::size_t capacity)
    : m_data(std::max<std::size_t>(capacity, 1)) {
    m_safePoints.push_back({0, false});
}

void OutputRing::append(std::string_view bytes) {
    const std::size_t capacity = m_data.size();
    if (bytes.size() > capacity) {
        m_end += bytes.size() - capacity;
        bytes.remove_prefix(bytes.size() - capacity);
    }
    std::size_t at = static_cast<std::size_t>(m_end % capacity);
    while (!bytes.empty()) {
        const std::size_t n = std::min(bytes.size(), capacity - at);
        std::memcpy(m_data.data() + at, bytes.data(), n);
        bytes.remove_prefix(n);
        m_end += n;
        at = 0;
        m_size = std::min(capacity, m_size + n);
    }
    dropStaleSafePoints();
}

void OutputRing::addSafePoint(std::uint64_t offset, bool altScreen) {
    if (offset < begin() || offset > m_end)
        return;
    if (!m_safePoints.empty() && m_safePoints.back().offset >= offset)
        return;
    m_safePoints.push_back({offset, altScreen});
}

std::size_t OutputRing::copy(std::uint64_t from, std::size_t max, std::string &out) const {
    from = std::max(from, begin());
    if (from >= m_end)
        return 0;
    const std::size_t capacity = m_data.size();
    const std::size_t total = static_cast<std::size_t>(std::min<std::uint64_t>(max, m_end - from));
    std::size_t at = static_cast<std::size_t>(from % capacity);
    std::size_t left = total;
    while (left > 0) {
        const std::size_t n = std::min(left, capacity - at);
        out.append(m_data.data() + at, n);
        left -= n;
        at = 0;
    }
    return total;
}

std::optional<OutputRing::Point> OutputRing::oldestSafePoint() const {
    if (m_safePoints.empty())
        return std::nullopt;
    return m_safePoints.front();
}

std::optional<OutputRing::Point> OutputRing::newestSafePoint() const {
    if (m_safePoints.empty())
        return std::nullopt;
    return m_safePoints.back();
}

void OutputRing::dropStaleSafePoints() {
    while (!m_safePoints.empty() && m_safePoints.front().offset < begin())
        m_safePoints.pop_front();
}

} // namespace sbx
