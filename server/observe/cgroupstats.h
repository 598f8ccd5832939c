#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx {

// Where observe's figures come from (--observe-source).
enum class ObserveSource { Auto, Cgroup, ProcessTree };

std::optional<ObserveSource> parseObserveSource(std::string_view text);

// The cgroup v2 files observe reads; a figure the kernel does not give is nullopt.
struct CgroupFigures {
    std::optional<std::uint64_t> usageUsec;
    std::optional<std::uint64_t> nrPeriods;
    std::optional<std::uint64_t> nrThrottled;
    std::optional<std::uint64_t> throttledUsec;
    std::optional<std::uint64_t> memCurrent;
    // Nullopt for "max" (no limit) as well as for a missing file.
    std::optional<std::uint64_t> memMax;
    std::optional<std::uint64_t> oom;
    std::optional<std::uint64_t> oomKill;
    std::optional<std::uint64_t> anon;
    std::optional<std::uint64_t> file;
    std::optional<std::uint64_t> shmem;
    std::optional<std::uint64_t> slab;
};

// What the server's start decided, and why (logged, and shown by the live snapshot's source).
struct SourceChoice {
    ObserveSource source = ObserveSource::ProcessTree;
    // Absolute cgroup directory, in cgroup mode.
    std::string cgroupDir;
    std::string reason;
};

// The files chooseSource looks at; tests point them at a fake tree.
struct CgroupPaths {
    std::string procSelfCgroup = "/proc/self/cgroup";
    std::string procSelfCgroupNs = "/proc/self/ns/cgroup";
    std::string mount = "/sys/fs/cgroup";
};

// Auto picks the cgroup only when it is the sandbox's own: cgroup v2 at the mount, the process at
// its cgroup namespace's root ("0::/"), that namespace not the host's initial one (else "/" is
// the whole machine), and memory.current present (the host's root cgroup has none). Anything
// else sums over the server's process tree, so a desktop session's cgroup is never shown as
// the sandbox's. Cgroup forces the cgroup named in /proc/self/cgroup.
SourceChoice chooseSource(ObserveSource requested, const CgroupPaths &paths = {});

// "key value" lines (cpu.stat, memory.events, memory.stat).
std::optional<std::uint64_t> keyedValue(std::string_view text, std::string_view key);
// The cgroup v2 path of "0::/path" in /proc/self/cgroup text.
std::optional<std::string> unifiedCgroupPath(std::string_view procSelfCgroup);

CgroupFigures readCgroup(const std::string &dir);
// The pids in dir's cgroup.procs and in every cgroup below it.
std::vector<int> cgroupPids(const std::string &dir);

} // namespace sbx
