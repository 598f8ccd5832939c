#include "server/core/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>

namespace sbx::log {

namespace {

std::atomic<bool> g_verbose{false};
std::mutex g_mutex;

const char *levelName(Level level) {
    switch (level) {
    case Level::Debug:
        return "debug";
    case Level::Info:
        return "info";
    case Level::Warning:
        return "warning";
    case Level::Error:
        return "error";
    }
    return "info";
}

} // namespace

void setVerbose(bool verbose) {
    g_verbose = verbose;
}

bool verbose() {
    return g_verbose;
}

void write(Level level, std::string_view message) {
    if (level == Level::Debug && !g_verbose)
        return;
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &local);
    char millisText[8];
    std::snprintf(millisText, sizeof millisText, ".%03d", static_cast<int>(millis));

    std::string line;
    line.reserve(message.size() + 64);
    line.append(stamp).append(millisText).append(" sandbox-server ").append(levelName(level));
    line.append(": ").append(message).push_back('\n');
    // One fwrite per line under a lock keeps lines from threads whole.
    std::lock_guard lock(g_mutex);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

} // namespace sbx::log
