#include "server/auth/ticketstore.h"

#include <cstring>

namespace sbx {

TicketStore::TicketStore(std::chrono::seconds ttl, std::size_t maxLive,
                         std::function<Clock::time_point()> now)
    : m_ttl(ttl)
    , m_maxLive(maxLive)
    , m_now(std::move(now)) {}

std::size_t TicketStore::DigestHash::operator()(const crypto::Digest &digest) const {
    // A SHA-256 digest is uniform already: its first bytes are a fine hash.
    std::size_t hash = 0;
    std::memcpy(&hash, digest.data(), sizeof hash);
    return hash;
}

std::string TicketStore::mint() {
    std::string ticket = crypto::randomToken(32);
    const crypto::Digest digest = crypto::sha256(ticket);
    std::lock_guard lock(m_mutex);
    // Read under the lock so that m_issued stays in expiry order across threads.
    const auto now = m_now();
    purgeExpired(now);
    if (m_live.size() >= m_maxLive)
        dropOldest();
    const auto expiry = now + m_ttl;
    m_live.emplace(digest, expiry);
    m_issued.push_back({expiry, digest});
    // Spent tickets wait in m_issued until they expire; a client minting and spending fast
    // must not grow it beyond twice the live cap.
    if (m_issued.size() > 2 * m_maxLive + 16)
        compact();
    return ticket;
}

bool TicketStore::consume(std::string_view ticket) {
    const auto digest = crypto::sha256(ticket);
    std::lock_guard lock(m_mutex);
    const auto now = m_now();
    const auto it = m_live.find(digest);
    if (it == m_live.end())
        return false;
    const bool live = now < it->second;
    m_live.erase(it);
    return live;
}

std::size_t TicketStore::liveCount() {
    std::lock_guard lock(m_mutex);
    purgeExpired(m_now());
    return m_live.size();
}

std::uint64_t TicketStore::entriesVisited() {
    std::lock_guard lock(m_mutex);
    return m_visited;
}

void TicketStore::purgeExpired(Clock::time_point now) {
    // Every entry is popped once: amortised O(1) per mint.
    while (!m_issued.empty() && m_issued.front().expiry <= now) {
        ++m_visited;
        const auto it = m_live.find(m_issued.front().digest);
        if (it != m_live.end() && it->second == m_issued.front().expiry)
            m_live.erase(it);
        m_issued.pop_front();
    }
}

void TicketStore::dropOldest() {
    // The front is the oldest minted; skip the spent ones (each is popped once).
    while (!m_issued.empty()) {
        ++m_visited;
        const Issued oldest = m_issued.front();
        m_issued.pop_front();
        const auto it = m_live.find(oldest.digest);
        if (it != m_live.end() && it->second == oldest.expiry) {
            m_live.erase(it);
            return;
        }
    }
}

void TicketStore::compact() {
    // Runs after at least m_maxLive spent entries piled up: O(1) per mint, amortised.
    std::deque<Issued> kept;
    for (const Issued &issued : m_issued) {
        ++m_visited;
        const auto it = m_live.find(issued.digest);
        if (it != m_live.end() && it->second == issued.expiry)
            kept.push_back(issued);
    }
    m_issued = std::move(kept);
}

} // namespace sbx
