// bench-server-tickets: TicketStore::mint() per second with no live tickets and at the cap
// of 100 000 live ones, and the same for the scan-per-mint store it replaced (the peer, a copy
// kept here), on the same machine in the same run.
//
//   bench-server-tickets [--seconds S]

#include "server/auth/crypto.h"
#include "server/auth/ticketstore.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

using namespace sbx;
using Clock = std::chrono::steady_clock;

namespace {

// The store before issue 9: every mint scans the live tickets for expired ones and, at the
// cap, once more for the oldest.
class ScanningTicketStore final {
public:
    std::string mint() {
        std::string ticket = crypto::randomToken(32);
        const auto now = Clock::now();
        std::lock_guard lock(m_mutex);
        for (auto it = m_expiry.begin(); it != m_expiry.end();) {
            if (it->second <= now)
                it = m_expiry.erase(it);
            else
                ++it;
        }
        if (m_expiry.size() >= TicketStore::kMaxLiveTickets) {
            auto oldest = m_expiry.begin();
            for (auto it = m_expiry.begin(); it != m_expiry.end(); ++it) {
                if (it->second < oldest->second)
                    oldest = it;
            }
            m_expiry.erase(oldest);
        }
        m_expiry.emplace(crypto::sha256(ticket), now + std::chrono::seconds(30));
        return ticket;
    }
    // Filling through mint() would take minutes (n^2 / 2 visits): insert directly.
    void preload(std::size_t count) {
        const auto expiry = Clock::now() + std::chrono::seconds(30);
        for (std::size_t i = 0; i < count; ++i)
            m_expiry.emplace(crypto::sha256(crypto::randomToken(32)), expiry);
    }
    bool consume(const std::string &ticket) {
        std::lock_guard lock(m_mutex);
        return m_expiry.erase(crypto::sha256(ticket)) > 0;
    }

private:
    std::mutex m_mutex;
    std::map<crypto::Digest, Clock::time_point> m_expiry;
};

// Mints for about `seconds` (at least `minimum` mints); mints per second.
template <typename Store>
double mintRate(Store &store, double seconds, int minimum, bool consumeEach) {
    const auto start = Clock::now();
    const auto until =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    long count = 0;
    while (count < minimum || Clock::now() < until) {
        const std::string ticket = store.mint();
        if (consumeEach)
            store.consume(ticket);
        ++count;
    }
    return static_cast<double>(count) / std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename Store> void fill(Store &store) {
    for (std::size_t i = 0; i < TicketStore::kMaxLiveTickets; ++i)
        store.mint();
}

} // namespace

int main(int argc, char **argv) {
    double seconds = 2.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "--seconds")
            seconds = std::max(0.2, std::atof(argv[i + 1]));
    }
    std::printf("ticket minting (ttl 30 s, cap %zu live), mints/s:\n",
                TicketStore::kMaxLiveTickets);
    {
        TicketStore store(std::chrono::seconds(30));
        const double empty = mintRate(store, seconds, 1000, true);
        fill(store);
        const double full = mintRate(store, seconds, 1000, false);
        std::printf("  TicketStore (FIFO + hash map):  0 live: %9.0f   100 000 live: %9.0f\n",
                    empty, full);
    }
    {
        ScanningTicketStore store;
        const double empty = mintRate(store, seconds, 1000, true);
        store.preload(TicketStore::kMaxLiveTickets);
        const double full = mintRate(store, seconds, 20, false);
        std::printf(
            "  peer: the scanning store it replaced:  0 live: %9.0f   100 000 live: %9.0f\n", empty,
            full);
    }
    return 0;
}
