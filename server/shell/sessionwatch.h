#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/shell/shellsession.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>
#include <optional>

// How the shell group's coroutines (exec, wait, kill, the SSE streams) sleep on a session.
namespace sbx {

using TimePoint = SteadyClock::time_point;

// After ^C (hard_timeout) or SIGTERM (kill), how long a program gets before SIGKILL.
inline constexpr auto kKillGrace = std::chrono::seconds(2);

// from plus seconds; never for no or a negative value.
inline TimePoint after(TimePoint from, std::optional<double> seconds) {
    if (!seconds || *seconds < 0)
        return TimePoint::max();
    const double capped = std::min(*seconds, 1e7);
    return from +
           std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(capped));
}

// Registers a timer as the session's watcher for as long as a request waits.
class Watch final {
public:
    explicit Watch(ShellSession &session)
        : m_session(session)
        , m_timer(session.io()) {
        m_session.watch(&m_timer);
    }
    ~Watch() { m_session.unwatch(&m_timer); }
    Watch(const Watch &) = delete;
    Watch &operator=(const Watch &) = delete;

    // Until the session changes, the deadline passes or someone cancels timer().
    boost::asio::awaitable<void> until(TimePoint deadline) {
        m_timer.expires_at(deadline);
        boost::system::error_code ec;
        co_await m_timer.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
    boost::asio::steady_timer &timer() { return m_timer; }

private:
    ShellSession &m_session;
    boost::asio::steady_timer m_timer;
};

} // namespace sbx
