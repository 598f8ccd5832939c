#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace sbx {

// One process as /proc/<pid>/stat describes it.
struct ProcSample {
    int pid = 0;
    int ppid = 0;
    std::string comm;
    char state = '?';
    // utime + stime, in clock ticks.
    std::uint64_t cpuTicks = 0;
    // Start time after boot, in clock ticks: with pid, tells a reused pid from the same process.
    std::uint64_t startTicks = 0;
    std::int64_t rssBytes = 0;
    int threads = 0;
};

// Parses the text of /proc/<pid>/stat (comm may hold spaces and parentheses). False when it
// does not have the fields we read.
bool parseProcStat(std::string_view text, long pageSize, ProcSample &out);

// Reads /proc without caching anything: processes may exit at any point of a scan, and an entry
// that vanishes or cannot be read is skipped, never an error.
class ProcScanner final {
public:
    explicit ProcScanner(std::string procRoot = "/proc");

    std::optional<ProcSample> read(int pid) const;
    // The process's (effective) user; read only for the rows shown, it costs a syscall.
    std::optional<uid_t> owner(int pid) const;
    // Every descendant of root (root itself left out), parents before children. Walks the
    // per-thread `children` files where the kernel has them, else scans every /proc/<pid>.
    std::vector<ProcSample> descendants(int root) const;
    // Every process in these cgroup.procs files' lists (cgroup mode).
    std::vector<ProcSample> readAll(const std::vector<int> &pids) const;
    // Entries in /proc/<pid>/fd; nullopt when it cannot be read (another user's process).
    std::optional<int> countFds(int pid) const;
    // /proc/uptime's first figure.
    std::optional<double> uptimeSeconds() const;
    // The system-wide oom_kill counter of /proc/vmstat (Linux 4.13+).
    std::optional<std::uint64_t> systemOomKills() const;

    long clockTicks() const { return m_clockTicks; }

private:
    // threads 1 reads the one task's file; else the task folder is listed.
    std::vector<int> childrenOf(int pid, int threads) const;
    void addChildren(const std::string &file, std::vector<int> &children) const;
    std::vector<ProcSample> scanAll(int root) const;

    std::string m_root;
    long m_clockTicks;
    long m_pageSize;
    bool m_haveChildren;
};

// Reads a whole small file (the /proc and cgroup files); nullopt when it cannot be opened.
std::optional<std::string> readSmallFile(const std::string &path);

} // namespace sbx
