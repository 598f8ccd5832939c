#pragma once

#include "server/auth/crypto.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sbx {

// One-time tickets for clients that cannot send headers (browser views, WebSockets).
// Only their SHA-256 digests are kept, so a memory dump or a log never shows a live ticket.
class TicketStore final {
public:
    using Clock = std::chrono::steady_clock;
    // Bounds memory if a client mints in a loop; the oldest live ticket gives way.
    static constexpr std::size_t kMaxLiveTickets = 100000;

    explicit TicketStore(std::chrono::seconds ttl, std::size_t maxLive = kMaxLiveTickets,
                         std::function<Clock::time_point()> now = &Clock::now);

    std::chrono::seconds ttl() const { return m_ttl; }
    std::size_t maxLive() const { return m_maxLive; }
    // A fresh url-safe ticket from 32 random bytes, valid once within ttl().
    std::string mint();
    // True once for a live ticket; it is spent either way.
    bool consume(std::string_view ticket);
    std::size_t liveCount();
    // Stored entries looked at by the bookkeeping so far: tests check that it grows by a
    // constant per mint (amortised), whatever the number of live tickets.
    std::uint64_t entriesVisited();

private:
    struct DigestHash {
        std::size_t operator()(const crypto::Digest &digest) const;
    };
    struct Issued {
        Clock::time_point expiry;
        crypto::Digest digest;
    };

    void purgeExpired(Clock::time_point now);
    void dropOldest();
    void compact();

    const std::chrono::seconds m_ttl;
    const std::size_t m_maxLive;
    const std::function<Clock::time_point()> m_now;
    std::mutex m_mutex;
    std::unordered_map<crypto::Digest, Clock::time_point, DigestHash> m_live;
    // Every ticket in minting order, which is expiry order since the ttl is constant; spent
    // ones stay until they reach the front (or a compaction), so both ends cost O(1).
    std::deque<Issued> m_issued;
    std::uint64_t m_visited = 0;
};

} // namespace sbx
