#include "server/observe/cgroupstats.h"

#include "server/observe/procscan.h"

#include <charconv>
#include <filesystem>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

namespace sbx {

namespace {

// The initial cgroup namespace's inode (PROC_CGROUP_INIT_INO): the host's own.
constexpr ino_t kInitialCgroupNamespace = 0xEFFFFFFBU;

std::optional<std::uint64_t> number(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<std::uint64_t> fileNumber(const std::string &path) {
    const auto text = readSmallFile(path);
    return text ? number(*text) : std::nullopt;
}

} // namespace

std::optional<ObserveSource> parseObserveSource(std::string_view text) {
    if (text == "auto")
        return ObserveSource::Auto;
    if (text == "cgroup")
        return ObserveSource::Cgroup;
    if (text == "tree" || text == "process_tree")
        return ObserveSource::ProcessTree;
    return std::nullopt;
}

std::optional<std::uint64_t> keyedValue(std::string_view text, std::string_view key) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ')
            return number(line.substr(key.size() + 1));
        at = end + 1;
    }
    return std::nullopt;
}

std::optional<std::string> unifiedCgroupPath(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (line.starts_with("0::"))
            return std::string(line.substr(3));
        at = end + 1;
    }
    return std::nullopt;
}

SourceChoice chooseSource(ObserveSource requested, const CgroupPaths &paths) {
    SourceChoice choice;
    const auto selfText = readSmallFile(paths.procSelfCgroup);
    const auto path = selfText ? unifiedCgroupPath(*selfText) : std::nullopt;
    struct statfs fs {};
    const bool v2 = ::statfs(paths.mount.c_str(), &fs) == 0 &&
                    static_cast<unsigned long>(fs.f_type) == CGROUP2_SUPER_MAGIC;
    const std::string dir = path ? (*path == "/" ? paths.mount : paths.mount + *path) : "";

    if (requested == ObserveSource::ProcessTree) {
        choice.reason = "process tree, as --observe-source asked";
        return choice;
    }
    if (requested == ObserveSource::Cgroup) {
        choice.source = ObserveSource::Cgroup;
        choice.cgroupDir = dir.empty() ? paths.mount : dir;
        choice.reason = "cgroup " + choice.cgroupDir + ", as --observe-source asked";
        return choice;
    }
    struct stat ns {};
    const bool initialNamespace =
        ::stat(paths.procSelfCgroupNs.c_str(), &ns) != 0 || ns.st_ino == kInitialCgroupNamespace;
    std::error_code ec;
    if (!v2) {
        choice.reason = "process tree: " + paths.mount + " is not cgroup v2";
    } else if (!path || *path != "/") {
        choice.reason = "process tree: the server is in cgroup " + path.value_or("?") +
                        ", not the root of a cgroup namespace of its own";
    } else if (initialNamespace) {
        choice.reason = "process tree: cgroup / of the host's namespace is the whole machine";
    } else if (!std::filesystem::exists(dir + "/memory.current", ec)) {
        choice.reason = "process tree: " + dir + " has no memory.current";
    } else {
        choice.source = ObserveSource::Cgroup;
        choice.cgroupDir = dir;
        choice.reason = "cgroup " + dir + ": the root of the sandbox's own cgroup namespace";
    }
    return choice;
}

CgroupFigures readCgroup(const std::string &dir) {
    CgroupFigures figures;
    if (const auto cpu = readSmallFile(dir + "/cpu.stat")) {
        figures.usageUsec = keyedValue(*cpu, "usage_usec");
        figures.nrPeriods = keyedValue(*cpu, "nr_periods");
        figures.nrThrottled = keyedValue(*cpu, "nr_throttled");
        figures.throttledUsec = keyedValue(*cpu, "throttled_usec");
    }
    figures.memCurrent = fileNumber(dir + "/memory.current");
    // "max\n" does not parse as a number: no limit, null as AIO's model has it.
    figures.memMax = fileNumber(dir + "/memory.max");
    if (const auto events = readSmallFile(dir + "/memory.events")) {
        figures.oom = keyedValue(*events, "oom");
        figures.oomKill = keyedValue(*events, "oom_kill");
    }
    if (const auto stat = readSmallFile(dir + "/memory.stat")) {
        figures.anon = keyedValue(*stat, "anon");
        figures.file = keyedValue(*stat, "file");
        figures.shmem = keyedValue(*stat, "shmem");
        figures.slab = keyedValue(*stat, "slab");
    }
    return figures;
}

std::vector<int> cgroupPids(const std::string &dir) {
    std::vector<int> pids;
    std::error_code ec;
    auto addFile = [&pids](const std::string &file) {
        const auto text = readSmallFile(file);
        if (!text)
            return;
        std::string_view rest(*text);
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            int pid = 0;
            const auto [ptr, err] = std::from_chars(rest.data(), rest.data() + end, pid);
            if (err == std::errc() && ptr == rest.data() + end && pid > 0)
                pids.push_back(pid);
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
    };
    addFile(dir + "/cgroup.procs");
    for (std::filesystem::recursive_directory_iterator
             it(dir, std::filesystem::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end; it.increment(ec)) {
        if (it->is_directory(ec))
            addFile(it->path().string() + "/cgroup.procs");
    }
    return pids;
}

} // namespace sbx
