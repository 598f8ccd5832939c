#pragma once

#include "server/auth/crypto.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace sbx {

// One-time tickets for clients that cannot send headers (browser views, WebSockets).
// Only their SHA-256 digests are kept, so a memory dump or a log never shows a live ticket.
class TicketStore final {
public:
    using Clock = std::chrono::steady_clock;

    explicit TicketStore(std::chrono::seconds ttl);

    std::chrono::seconds ttl() const { return m_ttl; }
    // A fresh url-safe ticket from 32 random bytes, valid once within ttl().
    std::string mint();
    // True once for a live ticket; it is spent either way.
    bool consume(std::string_view ticket);
    std::size_t liveCount();

private:
    void purgeExpired(Clock::time_point now);

    const std::chrono::seconds m_ttl;
    std::mutex m_mutex;
    std::map<crypto::Digest, Clock::time_point> m_expiry;
};

} // namespace sbx
