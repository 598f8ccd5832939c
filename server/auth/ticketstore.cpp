#include "server/auth/ticketstore.h"

namespace sbx {

namespace {

// Bounds memory if a client mints in a loop; the oldest live ticket gives way.
constexpr std::size_t kMaxLiveTickets = 100000;

} // namespace

TicketStore::TicketStore(std::chrono::seconds ttl)
    : m_ttl(ttl) {}

std::string TicketStore::mint() {
    std::string ticket = crypto::randomToken(32);
    const auto now = Clock::now();
    std::lock_guard lock(m_mutex);
    purgeExpired(now);
    if (m_expiry.size() >= kMaxLiveTickets) {
        auto oldest = m_expiry.begin();
        for (auto it = m_expiry.begin(); it != m_expiry.end(); ++it) {
            if (it->second < oldest->second)
                oldest = it;
        }
        m_expiry.erase(oldest);
    }
    m_expiry.emplace(crypto::sha256(ticket), now + m_ttl);
    return ticket;
}

bool TicketStore::consume(std::string_view ticket) {
    const auto digest = crypto::sha256(ticket);
    const auto now = Clock::now();
    std::lock_guard lock(m_mutex);
    const auto it = m_expiry.find(digest);
    if (it == m_expiry.end())
        return false;
    const bool live = now < it->second;
    m_expiry.erase(it);
    return live;
}

std::size_t TicketStore::liveCount() {
    std::lock_guard lock(m_mutex);
    purgeExpired(Clock::now());
    return m_expiry.size();
}

void TicketStore::purgeExpired(Clock::time_point now) {
    for (auto it = m_expiry.begin(); it != m_expiry.end();) {
        if (it->second <= now)
            it = m_expiry.erase(it);
        else
            ++it;
    }
}

} // namespace sbx
