#pragma once

#include "server/observe/cgroupstats.h"
#include "server/observe/procscan.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sbx {

class ActivityEvents;

enum class ProcessSort { Rss, Cpu };

struct SnapshotRequest {
    std::size_t topRows = 10;
    ProcessSort sort = ProcessSort::Rss;
    bool processes = true;
    bool disk = true;
    // recent_events: the newest this many; 0 leaves the field out (capture samples).
    std::size_t events = 50;
};

struct SamplerConfig {
    SourceChoice source;
    std::string workspace;
    // The server: in process-tree mode the sandbox is everything below it.
    int rootPid = 0;
    std::string procRoot = "/proc";
};

// Takes AIO's ObservationLiveSnapshot of the sandbox from cgroup v2 or the server's process tree
// (SamplerConfig::source), keeping the previous scan so CPU percentages are deltas over real
// time. Live polls and capture sessions share it; calls are serialised.
class Sampler final {
public:
    Sampler(SamplerConfig config, ActivityEvents &events);

    // Blocking (reads /proc; without a recent baseline it scans twice 100 ms apart): call it off
    // the I/O thread.
    nlohmann::json snapshot(const SnapshotRequest &request, std::string_view mode);
    // "cgroup" or "process_tree".
    std::string_view sourceName() const;

private:
    struct Scan {
        std::chrono::steady_clock::time_point time;
        std::vector<ProcSample> processes;
        std::optional<double> uptime;
        CgroupFigures cgroup;
        std::optional<std::uint64_t> systemOomKills;
    };
    struct Seen {
        std::string comm;
        std::int64_t rssBytes = 0;
    };

    Scan scan() const;
    void detectOomKills(const Scan &now);
    std::string userName(uid_t uid);
    nlohmann::json diskJson() const;

    const SamplerConfig m_config;
    ActivityEvents &m_events;
    const ProcScanner m_proc;
    std::mutex m_mutex;
    // The baseline of CPU deltas and the one before it, for polls closer together than 80 ms.
    std::optional<Scan> m_previous;
    std::optional<Scan> m_older;
    // What the last scan saw, for OOM detection: (pid, start) -> name and size.
    std::map<std::pair<int, std::uint64_t>, Seen> m_lastSeen;
    std::optional<std::uint64_t> m_lastCgroupOomKill;
    std::optional<std::uint64_t> m_lastSystemOomKills;
    std::unordered_map<uid_t, std::string> m_users;
};

} // namespace sbx
