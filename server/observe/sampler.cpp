#include "server/observe/sampler.h"

#include "server/core/activityevents.h"

#include <algorithm>
#include <pwd.h>
#include <sys/statvfs.h>
#include <thread>

namespace sbx {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr auto kMinBaselineAge = std::chrono::milliseconds(80);
// Older than this, a baseline's average says little about "now": take a fresh one.
constexpr auto kMaxBaselineAge = std::chrono::seconds(60);
constexpr auto kBaselineGap = std::chrono::milliseconds(100);

template <typename T> json orNull(const std::optional<T> &value) {
    return value ? json(*value) : json(nullptr);
}

double round2(double value) {
    return static_cast<double>(static_cast<long long>(value * 100.0 + 0.5)) / 100.0;
}

} // namespace

Sampler::Sampler(SamplerConfig config, ActivityEvents &events)
    : m_config(std::move(config))
    , m_events(events)
    , m_proc(m_config.procRoot) {}

std::string_view Sampler::sourceName() const {
    return m_config.source.source == ObserveSource::Cgroup ? "cgroup" : "process_tree";
}

Sampler::Scan Sampler::scan() const {
    Scan out;
    if (m_config.source.source == ObserveSource::Cgroup) {
        out.processes = m_proc.readAll(cgroupPids(m_config.source.cgroupDir));
        out.cgroup = readCgroup(m_config.source.cgroupDir);
    } else {
        out.processes = m_proc.descendants(m_config.rootPid);
        out.systemOomKills = m_proc.systemOomKills();
    }
    out.uptime = m_proc.uptimeSeconds();
    out.time = Clock::now();
    return out;
}

void Sampler::detectOomKills(const Scan &now) {
    if (m_config.source.source == ObserveSource::Cgroup) {
        // memory.events counts the cgroup's whole subtree: every kill here is the sandbox's.
        const auto kills = now.cgroup.oomKill;
        if (kills && m_lastCgroupOomKill && *kills > *m_lastCgroupOomKill) {
            json data = {{"source", "cgroup"},
                         {"oom_kill", *kills},
                         {"new_kills", *kills - *m_lastCgroupOomKill}};
            m_events.post("oom_kill", "the OOM killer killed a process in the sandbox's cgroup",
                          std::move(data));
        }
        m_lastCgroupOomKill = kills;
        return;
    }
    // The process tree has no per-sandbox counter: the machine's oom_kill rose and processes
    // of the tree seen at the last scan are gone. Likely, not certain, and the event says so.
    std::map<std::pair<int, std::uint64_t>, Seen> seen;
    for (const ProcSample &process : now.processes)
        seen[{process.pid, process.startTicks}] = {process.comm, process.rssBytes};
    const auto kills = now.systemOomKills;
    if (kills && m_lastSystemOomKills && *kills > *m_lastSystemOomKills) {
        json vanished = json::array();
        for (const auto &[key, info] : m_lastSeen) {
            if (!seen.contains(key))
                vanished.push_back(
                    {{"pid", key.first}, {"comm", info.comm}, {"rss_bytes", info.rssBytes}});
        }
        if (!vanished.empty()) {
            json data = {{"source", "process_tree"},
                         {"certain", false},
                         {"system_new_kills", *kills - *m_lastSystemOomKills},
                         {"vanished", std::move(vanished)}};
            m_events.post("oom_kill",
                          "the OOM killer ran and sandbox processes vanished: likely killed",
                          std::move(data));
        }
    }
    m_lastSystemOomKills = kills;
    m_lastSeen = std::move(seen);
}

std::string Sampler::userName(uid_t uid) {
    if (const auto it = m_users.find(uid); it != m_users.end())
        return it->second;
    passwd entry{};
    passwd *found = nullptr;
    char buffer[4096];
    std::string name = std::to_string(uid);
    if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        name = found->pw_name;
    // Bounded: a sandbox that cycles through uids cannot grow it without end.
    if (m_users.size() < 1024)
        m_users.emplace(uid, name);
    return name;
}

json Sampler::diskJson() const {
    json disks = json::array();
    struct statvfs fs {};
    if (::statvfs(m_config.workspace.c_str(), &fs) != 0)
        return disks;
    const auto unit = static_cast<std::uint64_t>(fs.f_frsize ? fs.f_frsize : fs.f_bsize);
    const std::uint64_t total = fs.f_blocks * unit;
    const std::uint64_t used = (fs.f_blocks - fs.f_bfree) * unit;
    const std::uint64_t free = fs.f_bavail * unit;
    json disk = json::object();
    disk["path"] = m_config.workspace;
    disk["used_bytes"] = used;
    disk["total_bytes"] = total;
    disk["free_bytes"] = free;
    // As df: used over what a user could have, so a full disk is 100 % despite reserved blocks.
    disk["usage_pct"] =
        used + free > 0 ? round2(100.0 * static_cast<double>(used) / double(used + free)) : 0.0;
    if (fs.f_files > 0) {
        const std::uint64_t inodesUsed = fs.f_files - fs.f_ffree;
        disk["inode_used"] = inodesUsed;
        disk["inode_total"] = static_cast<std::uint64_t>(fs.f_files);
        disk["inode_usage_pct"] =
            round2(100.0 * static_cast<double>(inodesUsed) / static_cast<double>(fs.f_files));
    } else {
        // Btrfs and others report no inode figures.
        disk["inode_used"] = nullptr;
        disk["inode_total"] = nullptr;
        disk["inode_usage_pct"] = nullptr;
    }
    disks.push_back(std::move(disk));
    return disks;
}

json Sampler::snapshot(const SnapshotRequest &request, std::string_view mode) {
    const std::lock_guard lock(m_mutex);
    const auto usable = [](const std::optional<Scan> &baseline, Clock::time_point now) {
        return baseline && now - baseline->time >= kMinBaselineAge &&
               now - baseline->time <= kMaxBaselineAge;
    };
    if (!usable(m_previous, Clock::now()) && !usable(m_older, Clock::now())) {
        m_older.reset();
        m_previous = scan();
        std::this_thread::sleep_for(kBaselineGap);
    }
    Scan now = scan();
    const Scan &base = usable(m_previous, now.time) ? *m_previous : *m_older;
    detectOomKills(now);

    const double wall = std::chrono::duration<double>(now.time - base.time).count();
    const double ticks = static_cast<double>(m_proc.clockTicks());
    std::map<std::pair<int, std::uint64_t>, std::uint64_t> before;
    for (const ProcSample &process : base.processes)
        before[{process.pid, process.startTicks}] = process.cpuTicks;
    // A process that started after the baseline spent all its CPU time within the interval.
    const double baseUptimeTicks = base.uptime ? *base.uptime * ticks : -1.0;

    struct Row {
        const ProcSample *process;
        std::optional<double> cpuPct;
    };
    std::vector<Row> rows;
    rows.reserve(now.processes.size());
    std::int64_t rssSum = 0;
    std::uint64_t cpuTicksSum = 0;
    double treeDeltaTicks = 0;
    for (const ProcSample &process : now.processes) {
        rssSum += process.rssBytes;
        cpuTicksSum += process.cpuTicks;
        std::optional<double> delta;
        if (const auto it = before.find({process.pid, process.startTicks}); it != before.end())
            delta = process.cpuTicks >= it->second ? double(process.cpuTicks - it->second) : 0.0;
        else if (baseUptimeTicks >= 0 && double(process.startTicks) >= baseUptimeTicks)
            delta = double(process.cpuTicks);
        if (delta)
            treeDeltaTicks += *delta;
        rows.push_back({&process, delta && wall > 0
                                      ? std::optional<double>(round2(100.0 * *delta / ticks / wall))
                                      : std::nullopt});
    }

    json cgroup = json::object();
    if (m_config.source.source == ObserveSource::Cgroup) {
        const CgroupFigures &f = now.cgroup;
        std::optional<double> cpuPct;
        if (f.usageUsec && base.cgroup.usageUsec && wall > 0 &&
            *f.usageUsec >= *base.cgroup.usageUsec)
            cpuPct = round2(100.0 * double(*f.usageUsec - *base.cgroup.usageUsec) / 1e6 / wall);
        std::optional<double> memPct;
        if (f.memCurrent && f.memMax && *f.memMax > 0)
            memPct = round2(100.0 * double(*f.memCurrent) / double(*f.memMax));
        cgroup["cpu_usage_pct"] = orNull(cpuPct);
        cgroup["cpu_usage_usec"] = f.usageUsec.value_or(0);
        cgroup["cpu_nr_periods"] = orNull(f.nrPeriods);
        cgroup["cpu_nr_throttled"] = orNull(f.nrThrottled);
        cgroup["cpu_throttled_usec"] = orNull(f.throttledUsec);
        cgroup["mem_current_bytes"] = f.memCurrent.value_or(0);
        cgroup["mem_max_bytes"] = orNull(f.memMax);
        cgroup["mem_usage_pct"] = orNull(memPct);
        cgroup["oom"] = orNull(f.oom);
        cgroup["oom_kill"] = orNull(f.oomKill);
        cgroup["memory_anon_bytes"] = orNull(f.anon);
        cgroup["memory_file_bytes"] = orNull(f.file);
        cgroup["memory_shmem_bytes"] = orNull(f.shmem);
        cgroup["memory_slab_bytes"] = orNull(f.slab);
    } else {
        // Sums over the server's descendants: RSS counts shared pages once per process, and a
        // process's CPU time leaves the sum when it exits. No limit is known, so no percentage.
        cgroup["cpu_usage_pct"] =
            wall > 0 ? json(round2(100.0 * treeDeltaTicks / ticks / wall)) : json(nullptr);
        cgroup["cpu_usage_usec"] = static_cast<std::uint64_t>(double(cpuTicksSum) * 1e6 / ticks);
        cgroup["cpu_nr_periods"] = nullptr;
        cgroup["cpu_nr_throttled"] = nullptr;
        cgroup["cpu_throttled_usec"] = nullptr;
        cgroup["mem_current_bytes"] = rssSum;
        cgroup["mem_max_bytes"] = nullptr;
        cgroup["mem_usage_pct"] = nullptr;
        cgroup["oom"] = nullptr;
        cgroup["oom_kill"] = nullptr;
        cgroup["memory_anon_bytes"] = nullptr;
        cgroup["memory_file_bytes"] = nullptr;
        cgroup["memory_shmem_bytes"] = nullptr;
        cgroup["memory_slab_bytes"] = nullptr;
    }

    json out = json::object();
    out["captured_at"] = isoTime(std::chrono::system_clock::now());
    out["mode"] = mode;
    out["source"] = sourceName();
    out["process_count"] = now.processes.size();
    out["cgroup"] = std::move(cgroup);
    if (request.disk)
        out["disk"] = diskJson();
    if (request.processes) {
        const std::size_t top = std::min(request.topRows, rows.size());
        const auto byRss = [](const Row &a, const Row &b) {
            return a.process->rssBytes != b.process->rssBytes
                       ? a.process->rssBytes > b.process->rssBytes
                       : a.process->pid < b.process->pid;
        };
        const auto byCpu = [&byRss](const Row &a, const Row &b) {
            const double x = a.cpuPct.value_or(-1);
            const double y = b.cpuPct.value_or(-1);
            return x != y ? x > y : byRss(a, b);
        };
        if (request.sort == ProcessSort::Cpu)
            std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(top),
                              rows.end(), byCpu);
        else
            std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(top),
                              rows.end(), byRss);
        json list = json::array();
        for (std::size_t i = 0; i < top; ++i) {
            const ProcSample &p = *rows[i].process;
            json row = json::object();
            row["pid"] = p.pid;
            const auto uid = m_proc.owner(p.pid);
            row["user"] = uid ? userName(*uid) : std::string("?");
            row["comm"] = p.comm;
            row["rss_bytes"] = p.rssBytes;
            row["rss_mib"] = round2(double(p.rssBytes) / (1024.0 * 1024.0));
            row["cpu_pct"] = orNull(rows[i].cpuPct);
            row["threads"] = p.threads;
            // Only the rows shown: counting descriptors is the costliest read per process.
            row["fds"] = orNull(m_proc.countFds(p.pid));
            row["state"] = std::string(1, p.state);
            row["uptime_sec"] =
                now.uptime ? json(round2(std::max(0.0, *now.uptime - double(p.startTicks) / ticks)))
                           : json(nullptr);
            row["ppid"] = p.ppid;
            list.push_back(std::move(row));
        }
        out["top_processes"] = std::move(list);
    }
    if (request.events > 0) {
        json events = json::array();
        for (const ActivityEvent &event : m_events.recent(request.events))
            events.push_back(ActivityEvents::toJson(event));
        out["recent_events"] = std::move(events);
    }

    if (now.time - m_previous->time >= kMinBaselineAge) {
        m_older = std::move(m_previous);
        m_previous = std::move(now);
    }
    return out;
}

} // namespace sbx
