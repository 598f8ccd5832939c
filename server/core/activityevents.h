#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

// The sandbox's notable moments (a command past its hard_timeout, a process killed by the OOM
// killer, a file watcher that overflowed), posted by any route group from any thread and read by
// /v1/sandbox/observe as its `recent_events`. Bounded: the oldest fall off.
namespace sbx {

struct ActivityEvent {
    std::chrono::system_clock::time_point ts;
    std::string type;
    std::string message;
    nlohmann::json data = nlohmann::json::object();
};

class ActivityEvents final {
public:
    explicit ActivityEvents(std::size_t capacity = 256);

    void post(std::string type, std::string message,
              nlohmann::json data = nlohmann::json::object());
    // The newest `count` events, oldest first.
    std::vector<ActivityEvent> recent(std::size_t count) const;
    // Events posted after `after` (a value of total() taken earlier), oldest first.
    std::vector<ActivityEvent> since(std::size_t after) const;
    // How many were ever posted.
    std::size_t total() const;

    // AIO's ObservationEvent: {ts, type, message, data}.
    static nlohmann::json toJson(const ActivityEvent &event);

private:
    mutable std::mutex m_mutex;
    std::deque<ActivityEvent> m_events;
    std::size_t m_capacity;
    std::size_t m_total = 0;
};

// "2026-12-01T18:48:40.123Z".
std::string isoTime(std::chrono::system_clock::time_point when);

} // namespace sbx
