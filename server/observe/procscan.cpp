#include "server/observe/procscan.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <deque>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace sbx {

namespace {

// Splits off the next space-separated field.
std::string_view nextField(std::string_view &text) {
    const std::size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        text = {};
        return {};
    }
    text.remove_prefix(start);
    const std::size_t end = text.find(' ');
    const std::string_view field = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end);
    return field;
}

template <typename T> bool toNumber(std::string_view text, T &out) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

bool isPid(const char *name, int &pid) {
    return name[0] >= '1' && name[0] <= '9' && toNumber(std::string_view(name), pid);
}

// Reads a small file. With singleRead, one read() that comes back short is taken as the whole
// file: true for /proc/<pid>/stat, which the kernel renders in one go and which is far shorter
// than the buffer, and it saves a syscall per process per scan.
std::optional<std::string> readFile(const std::string &path, bool singleRead) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (singleRead && static_cast<std::size_t>(n) < sizeof buffer)
            break;
        // /proc and cgroup files are small; a bound keeps a surprise from costing memory.
        if (text.size() > (1U << 20))
            break;
    }
    ::close(fd);
    return text;
}

} // namespace

std::optional<std::string> readSmallFile(const std::string &path) {
    return readFile(path, false);
}

bool parseProcStat(std::string_view text, long pageSize, ProcSample &out) {
    const std::size_t open = text.find('(');
    const std::size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return false;
    std::string_view head = text.substr(0, open);
    while (!head.empty() && head.back() == ' ')
        head.remove_suffix(1);
    if (!toNumber(head, out.pid))
        return false;
    out.comm = std::string(text.substr(open + 1, close - open - 1));
    std::string_view rest = text.substr(close + 1);
    // Fields after comm, numbered as in proc(5): 3 state, 4 ppid, 14 utime, 15 stime,
    // 20 num_threads, 22 starttime, 24 rss (pages).
    std::uint64_t utime = 0;
    std::uint64_t stime = 0;
    std::int64_t rssPages = 0;
    int found = 0;
    for (int index = 3; index <= 24; ++index) {
        const std::string_view field = nextField(rest);
        if (field.empty())
            return false;
        switch (index) {
        case 3:
            out.state = field.front();
            ++found;
            break;
        case 4:
            found += toNumber(field, out.ppid);
            break;
        case 14:
            found += toNumber(field, utime);
            break;
        case 15:
            found += toNumber(field, stime);
            break;
        case 20:
            found += toNumber(field, out.threads);
            break;
        case 22:
            found += toNumber(field, out.startTicks);
            break;
        case 24:
            found += toNumber(field, rssPages);
            break;
        default:
            break;
        }
    }
    out.cpuTicks = utime + stime;
    out.rssBytes = std::max<std::int64_t>(rssPages, 0) * pageSize;
    return found == 7;
}

ProcScanner::ProcScanner(std::string procRoot)
    : m_root(std::move(procRoot))
    , m_clockTicks(std::max(::sysconf(_SC_CLK_TCK), 1L))
    , m_pageSize(std::max(::sysconf(_SC_PAGESIZE), 1L)) {
    // CONFIG_PROC_CHILDREN: every kernel distributions ship has it, but a test tree may not.
    const std::string self = m_root + "/self/task/" + std::to_string(::getpid()) + "/children";
    m_haveChildren = ::access(self.c_str(), R_OK) == 0;
}

std::optional<ProcSample> ProcScanner::read(int pid) const {
    const auto text = readFile(m_root + "/" + std::to_string(pid) + "/stat", true);
    ProcSample sample;
    if (!text || !parseProcStat(*text, m_pageSize, sample))
        return std::nullopt;
    return sample;
}

std::optional<uid_t> ProcScanner::owner(int pid) const {
    // /proc/<pid> belongs to the process's effective uid.
    struct stat info {};
    if (::stat((m_root + "/" + std::to_string(pid)).c_str(), &info) != 0)
        return std::nullopt;
    return info.st_uid;
}

void ProcScanner::addChildren(const std::string &file, std::vector<int> &children) const {
    const auto text = readSmallFile(file);
    if (!text)
        return;
    std::string_view rest(*text);
    while (!rest.empty()) {
        const std::string_view field = nextField(rest);
        int child = 0;
        if (!field.empty() && toNumber(field, child))
            children.push_back(child);
    }
}

std::vector<int> ProcScanner::childrenOf(int pid, int threads) const {
    // Children are listed per thread: a child forked by a worker thread is in that task's file.
    std::vector<int> children;
    const std::string base = m_root + "/" + std::to_string(pid) + "/task/";
    if (threads == 1) {
        // The common case needs no listing of the task folder.
        addChildren(base + std::to_string(pid) + "/children", children);
        return children;
    }
    DIR *dir = ::opendir(base.c_str());
    if (!dir)
        return children;
    while (const dirent *entry = ::readdir(dir)) {
        int tid = 0;
        if (isPid(entry->d_name, tid))
            addChildren(base + entry->d_name + "/children", children);
    }
    ::closedir(dir);
    return children;
}

std::vector<ProcSample> ProcScanner::scanAll(int root) const {
    std::unordered_map<int, std::vector<ProcSample>> byParent;
    DIR *dir = ::opendir(m_root.c_str());
    if (!dir)
        return {};
    while (const dirent *entry = ::readdir(dir)) {
        int pid = 0;
        if (!isPid(entry->d_name, pid))
            continue;
        if (auto sample = read(pid))
            byParent[sample->ppid].push_back(std::move(*sample));
    }
    ::closedir(dir);
    std::vector<ProcSample> out;
    std::deque<int> queue{root};
    while (!queue.empty()) {
        const int parent = queue.front();
        queue.pop_front();
        const auto it = byParent.find(parent);
        if (it == byParent.end())
            continue;
        for (ProcSample &child : it->second) {
            queue.push_back(child.pid);
            out.push_back(std::move(child));
        }
        byParent.erase(it);
    }
    return out;
}

std::vector<ProcSample> ProcScanner::descendants(int root) const {
    if (!m_haveChildren)
        return scanAll(root);
    std::vector<ProcSample> out;
    // (pid, threads): the root's thread count is unknown, so its task folder is listed.
    std::deque<std::pair<int, int>> queue{{root, 0}};
    // A bound against a pathological tree (a fork bomb): the figures then cover the first ones.
    constexpr std::size_t kMaxProcesses = 100000;
    while (!queue.empty() && out.size() < kMaxProcesses) {
        const auto [parent, threads] = queue.front();
        queue.pop_front();
        for (const int child : childrenOf(parent, threads)) {
            // A child that exited between the two reads is simply not there.
            if (auto sample = read(child)) {
                queue.emplace_back(child, sample->threads);
                out.push_back(std::move(*sample));
            }
        }
    }
    return out;
}

std::vector<ProcSample> ProcScanner::readAll(const std::vector<int> &pids) const {
    std::vector<ProcSample> out;
    out.reserve(pids.size());
    for (const int pid : pids) {
        if (auto sample = read(pid))
            out.push_back(std::move(*sample));
    }
    return out;
}

std::optional<int> ProcScanner::countFds(int pid) const {
    const std::string path = m_root + "/" + std::to_string(pid) + "/fd";
    DIR *dir = ::opendir(path.c_str());
    if (!dir)
        return std::nullopt;
    int count = 0;
    while (const dirent *entry = ::readdir(dir)) {
        if (entry->d_name[0] != '.')
            ++count;
    }
    ::closedir(dir);
    return count;
}

std::optional<double> ProcScanner::uptimeSeconds() const {
    const auto text = readSmallFile(m_root + "/uptime");
    if (!text)
        return std::nullopt;
    char *end = nullptr;
    const double seconds = std::strtod(text->c_str(), &end);
    return end == text->c_str() ? std::nullopt : std::optional<double>(seconds);
}

std::optional<std::uint64_t> ProcScanner::systemOomKills() const {
    const auto text = readSmallFile(m_root + "/vmstat");
    if (!text)
        return std::nullopt;
    const std::string_view key = "oom_kill ";
    std::size_t at = text->starts_with(key) ? 0 : text->find("\noom_kill ");
    if (at == std::string::npos)
        return std::nullopt;
    at += at == 0 ? key.size() : key.size() + 1;
    const std::size_t end = text->find('\n', at);
    std::uint64_t value = 0;
    if (!toNumber(std::string_view(*text).substr(at, end - at), value))
        return std::nullopt;
    return value;
}

} // namespace sbx
