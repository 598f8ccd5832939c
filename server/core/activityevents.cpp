#include "server/core/activityevents.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace sbx {

ActivityEvents::ActivityEvents(std::size_t capacity)
    : m_capacity(std::max<std::size_t>(capacity, 1)) {}

void ActivityEvents::post(std::string type, std::string message, nlohmann::json data) {
    ActivityEvent event{std::chrono::system_clock::now(), std::move(type), std::move(message),
                        std::move(data)};
    const std::lock_guard lock(m_mutex);
    m_events.push_back(std::move(event));
    if (m_events.size() > m_capacity)
        m_events.pop_front();
    ++m_total;
}

std::vector<ActivityEvent> ActivityEvents::recent(std::size_t count) const {
    const std::lock_guard lock(m_mutex);
    const std::size_t n = std::min(count, m_events.size());
    return {m_events.end() - static_cast<std::ptrdiff_t>(n), m_events.end()};
}

std::vector<ActivityEvent> ActivityEvents::since(std::size_t after) const {
    const std::lock_guard lock(m_mutex);
    const std::size_t newer = m_total > after ? m_total - after : 0;
    const std::size_t n = std::min(newer, m_events.size());
    return {m_events.end() - static_cast<std::ptrdiff_t>(n), m_events.end()};
}

std::size_t ActivityEvents::total() const {
    const std::lock_guard lock(m_mutex);
    return m_total;
}

nlohmann::json ActivityEvents::toJson(const ActivityEvent &event) {
    nlohmann::json out = nlohmann::json::object();
    out["ts"] = isoTime(event.ts);
    out["type"] = event.type;
    out["message"] = event.message;
    out["data"] = event.data;
    return out;
}

std::string isoTime(std::chrono::system_clock::time_point when) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count() %
        1000;
    std::snprintf(text + n, sizeof text - n, ".%03dZ", static_cast<int>(millis));
    return text;
}

} // namespace sbx
