#include "server/watch/watcher.h"

#include "server/core/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fnmatch.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;

// IN_DONT_FOLLOW: a symlinked folder is reported, never entered (no loops, no escaping the tree).
constexpr std::uint32_t kMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM |
                                IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW |
                                IN_EXCL_UNLINK | IN_ONLYDIR;
// Deeper than any real tree; a bound so a hostile one cannot exhaust the stack.
constexpr int kMaxDepth = 512;
constexpr auto kReportInterval = std::chrono::seconds(10);

std::string relativeTo(const std::string &root, const std::string &path) {
    if (path == root)
        return ".";
    const std::string prefix = root.ends_with('/') ? root : root + "/";
    return path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

std::string_view baseName(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool matches(const std::string &pattern, std::string_view text) {
    return fnmatch(pattern.c_str(), std::string(text).c_str(), 0) == 0;
}

// Patterns are folder names or globs, matched against each component of the relative path.
bool isExcluded(const WatchConfig &config, const std::string &relativePath) {
    if (relativePath == ".")
        return false;
    if (!config.hidden.empty()) {
        const std::string full =
            config.root == "/" ? "/" + relativePath : config.root + "/" + relativePath;
        for (const std::string &hidden : config.hidden) {
            if (full == hidden || full.rfind(hidden + "/", 0) == 0)
                return true;
        }
    }
    std::string_view rest = relativePath;
    while (!rest.empty()) {
        const std::size_t slash = rest.find('/');
        const std::string_view part = rest.substr(0, slash);
        for (const std::string &pattern : config.exclude) {
            if (matches(pattern, part))
                return true;
        }
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
    return false;
}

bool isDirectory(const std::string &path, const dirent &entry) {
    if (entry.d_type != DT_UNKNOWN)
        return entry.d_type == DT_DIR;
    struct stat info {};
    return lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Watches dir and, when recursive, the folders below it that are not excluded; calls found for
// every entry below dir (the scan of a folder that appeared after its parent was watched, whose
// first files inotify never reported). Returns the errno of dir's own watch, or ENOSPC when the
// kernel's watch limit stopped the walk; other failures below dir (a folder removed meanwhile,
// one we may not read) leave that folder out.
int watchTree(int fd, const WatchConfig &config, const std::string &dir, int depth,
              std::vector<std::pair<int, std::string>> &added,
              const std::function<void(const std::string &, bool)> &found) {
    const int wd = inotify_add_watch(fd, dir.c_str(), kMask);
    if (wd < 0)
        return errno;
    added.emplace_back(wd, dir);
    if ((!config.recursive && !found) || depth >= kMaxDepth)
        return 0;
    DIR *listing = opendir(dir.c_str());
    if (!listing)
        return 0;
    std::vector<std::string> folders;
    while (const dirent *entry = readdir(listing)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..")
            continue;
        const std::string full = dir + "/" + std::string(name);
        if (isExcluded(config, relativeTo(config.root, full)))
            continue;
        const bool folder = isDirectory(full, *entry);
        if (found)
            found(full, folder);
        if (folder && config.recursive)
            folders.push_back(full);
    }
    closedir(listing);
    for (const std::string &folder : folders) {
        if (watchTree(fd, config, folder, depth + 1, added, found) == ENOSPC)
            return ENOSPC;
    }
    return 0;
}

// "write" absorbs "chmod"; "create" absorbs both (the file's first contents are part of it).
std::string merged(const std::string &earlier, const std::string &later) {
    if (earlier == "create" || later == "create")
        return "create";
    if (earlier == "write" || later == "write")
        return "write";
    return "chmod";
}

} // namespace

double epochNow() {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return std::chrono::duration<double>(now).count();
}

bool describe(FileEvent &event) {
    struct stat info {};
    if (lstat(event.path.c_str(), &info) != 0)
        return false;
    event.mtime =
        static_cast<double>(info.st_mtim.tv_sec) + static_cast<double>(info.st_mtim.tv_nsec) / 1e9;
    event.size = static_cast<std::int64_t>(info.st_size);
    event.inode = static_cast<std::uint64_t>(info.st_ino);
    event.isDir = S_ISDIR(info.st_mode);
    return true;
}

json toJson(const FileEvent &event, const std::string &watcherId) {
    json out = json::object();
    out["seq"] = event.seq;
    out["type"] = event.type;
    out["path"] = event.path;
    out["relative_path"] = event.relativePath;
    out["old_path"] = event.oldPath ? json(*event.oldPath) : json(nullptr);
    out["is_dir"] = event.isDir;
    out["timestamp"] = event.timestamp;
    out["mtime"] = event.mtime;
    out["size"] = event.size;
    out["inode"] = event.inode;
    out["watcher_id"] = watcherId;
    return out;
}

WatchSetup prepareWatch(const WatchConfig &config) {
    WatchSetup setup;
    setup.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (setup.fd < 0) {
        setup.error = errno;
        setup.message = setup.error == EMFILE
                            ? "Too many inotify instances (fs.inotify.max_user_instances)"
                            : std::string("inotify_init1 failed: ") + std::strerror(setup.error);
        return setup;
    }
    const int error = watchTree(setup.fd, config, config.root, 0, setup.watches, {});
    if (error != 0) {
        setup.error = error;
        if (error == ENOSPC)
            setup.message = "The inotify watch limit is reached (fs.inotify.max_user_watches): "
                            "raise it, or exclude large folders";
        else if (error == ENOENT)
            setup.message = "Path does not exist: " + config.path;
        else
            setup.message = "Cannot watch " + config.root + ": " + std::strerror(error);
        ::close(setup.fd);
        setup.fd = -1;
        setup.watches.clear();
    }
    return setup;
}

Watcher::Watcher(asio::io_context &io, std::string id, WatchConfig config, WatchSetup setup,
                 std::size_t bufferSize)
    : m_io(io)
    , m_id(std::move(id))
    , m_config(std::move(config))
    , m_bufferSize(std::max<std::size_t>(bufferSize, 1))
    , m_createdAt(epochNow())
    , m_fd(setup.fd) {
    for (auto &[wd, path] : setup.watches)
        m_folders[wd] = path;
    if (!setup.watches.empty())
        m_rootWd = setup.watches.front().first;
    if (m_fd >= 0) {
        m_descriptor = std::make_unique<asio::posix::stream_descriptor>(io, m_fd);
        m_flushTimer = std::make_unique<asio::steady_timer>(io);
        m_running = true;
    }
}

Watcher::~Watcher() {
    release();
}

void Watcher::start() {
    if (m_running)
        readEvents();
}

void Watcher::stop() {
    if (!m_running)
        return;
    m_running = false;
    m_batch.clear();
    m_openSlot.clear();
    m_moves.clear();
    if (m_flushTimer)
        m_flushTimer->cancel();
    // Closing the descriptor drops every watch of this instance.
    boost::system::error_code ec;
    if (m_descriptor)
        m_descriptor->close(ec);
    m_fd = -1;
    m_folders.clear();
    notify();
}

void Watcher::release() {
    // Listeners first: during destruction nothing may be called back.
    m_listeners.clear();
    stop();
    m_descriptor.reset();
    m_flushTimer.reset();
}

void Watcher::readEvents() {
    std::weak_ptr<Watcher> weak = weak_from_this();
    m_descriptor->async_wait(
        asio::posix::descriptor_base::wait_read, [weak](const boost::system::error_code &ec) {
            const auto self = weak.lock();
            if (!self || ec || !self->m_running)
                return;
            alignas(inotify_event) char buffer[64 * 1024];
            while (self->m_running) {
                const ssize_t n = ::read(self->m_fd, buffer, sizeof buffer);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                    break;
                if (n <= 0) {
                    log::warning("file watcher " + self->m_id +
                                 ": reading inotify failed: " + std::strerror(errno));
                    self->stop();
                    return;
                }
                for (ssize_t at = 0; at < n && self->m_running;) {
                    const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                    const std::string name =
                        event->len > 0 ? std::string(event->name, strnlen(event->name, event->len))
                                       : std::string();
                    self->handle(event->wd, event->mask, event->cookie, name);
                    at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
                }
            }
            if (self->m_running)
                self->readEvents();
        });
}

void Watcher::handle(int wd, std::uint32_t mask, std::uint32_t cookie, const std::string &name) {
    if (mask & IN_Q_OVERFLOW) {
        addLoss();
        return;
    }
    const auto folder = m_folders.find(wd);
    if (folder == m_folders.end())
        return;
    if (mask & IN_IGNORED) {
        m_folders.erase(folder);
        if (wd == m_rootWd) {
            flush();
            stop();
        }
        return;
    }
    if (mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
        // Other folders are reported by their parent; the root has none: its paths no longer
        // hold, so the watcher ends (status "stopped").
        if (wd == m_rootWd) {
            if ((mask & IN_DELETE_SELF) && !m_config.onlyName)
                record("remove", m_config.root, true);
            flush();
            stop();
        }
        return;
    }
    // A folder's own changes reach its parent's watch too, with a name.
    if (name.empty())
        return;
    if (m_config.onlyName && name != *m_config.onlyName)
        return;
    const std::string full = folder->second + "/" + name;
    const bool isDir = (mask & IN_ISDIR) != 0;
    const bool skip = excluded(relative(full));
    if (mask & IN_MOVED_FROM) {
        if (!skip)
            record("remove", full, isDir, cookie);
        return;
    }
    if (mask & IN_MOVED_TO) {
        const auto move = cookie != 0 ? m_moves.find(cookie) : m_moves.end();
        if (move != m_moves.end()) {
            Slot &slot = m_batch[move->second];
            m_moves.erase(move);
            slot.cookie = 0;
            if (skip) {
                // Moved under an excluded name: for this watcher it is gone.
                if (slot.isDir)
                    forgetTree(slot.path);
                return;
            }
            slot.type = "rename";
            slot.oldPath = slot.path;
            slot.path = full;
            slot.time = epochNow();
            m_openSlot.erase(full);
            if (isDir)
                renameTree(*slot.oldPath, full);
            return;
        }
        // Moved in from outside the tree.
        if (!skip) {
            record("create", full, isDir);
            if (isDir && m_config.recursive)
                addTree(full, 0);
        }
        return;
    }
    if (skip)
        return;
    if (mask & IN_CREATE) {
        record("create", full, isDir);
        if (isDir && m_config.recursive)
            addTree(full, 0);
    } else if (mask & IN_DELETE) {
        record("remove", full, isDir);
    } else if (mask & IN_MODIFY) {
        record("write", full, isDir);
    } else if (mask & IN_ATTRIB) {
        record("chmod", full, isDir);
    }
}

void Watcher::record(const std::string &type, const std::string &path, bool isDir,
                     std::uint32_t cookie) {
    const double now = epochNow();
    const bool coalescing = type == "create" || type == "write" || type == "chmod";
    if (coalescing) {
        if (const auto open = m_openSlot.find(path); open != m_openSlot.end()) {
            Slot &slot = m_batch[open->second];
            slot.type = merged(slot.type, type);
            slot.time = now;
            return;
        }
    } else {
        m_openSlot.erase(path);
    }
    const bool first = m_batch.empty();
    m_batch.push_back({type, path, std::nullopt, isDir, now, cookie});
    if (coalescing)
        m_openSlot[path] = m_batch.size() - 1;
    if (cookie != 0)
        m_moves[cookie] = m_batch.size() - 1;
    if (first && m_flushTimer) {
        // The window opens with its first change: nothing waits longer than debounce ms.
        m_flushTimer->expires_after(std::chrono::milliseconds(m_config.debounceMs));
        std::weak_ptr<Watcher> weak = weak_from_this();
        m_flushTimer->async_wait([weak](const boost::system::error_code &ec) {
            if (const auto self = weak.lock(); self && !ec && self->m_running)
                self->flush();
        });
    }
}

void Watcher::flush() {
    if (m_batch.empty())
        return;
    if (m_flushTimer)
        m_flushTimer->cancel();
    std::vector<Slot> batch;
    batch.swap(m_batch);
    m_openSlot.clear();
    // A move whose other half never came left the tree: a remove, and its watches go.
    for (const auto &[cookie, index] : m_moves) {
        if (batch[index].isDir)
            forgetTree(batch[index].path);
    }
    m_moves.clear();
    bool added = false;
    for (Slot &slot : batch) {
        FileEvent event;
        event.type = std::move(slot.type);
        event.path = std::move(slot.path);
        event.relativePath = relative(event.path);
        event.oldPath = std::move(slot.oldPath);
        event.isDir = slot.isDir;
        event.timestamp = slot.time;
        if (event.type != "remove" && !describe(event))
            event.isDir = slot.isDir;
        if (!included(event))
            continue;
        append(std::move(event));
        added = true;
    }
    if (added)
        notify();
}

void Watcher::addTree(const std::string &dir, int depth) {
    if (m_fd < 0)
        return;
    std::vector<std::pair<int, std::string>> added;
    const int error =
        watchTree(m_fd, m_config, dir, depth, added,
                  [this](const std::string &path, bool isDir) { record("create", path, isDir); });
    for (auto &[wd, path] : added)
        m_folders[wd] = std::move(path);
    if (error == ENOSPC && !m_limitWarned) {
        m_limitWarned = true;
        log::warning("file watcher " + m_id +
                     ": the inotify watch limit is reached (fs.inotify.max_user_watches); "
                     "new folders below " +
                     m_config.path + " are not watched");
        reportOverflow("inotify watch limit reached: new folders are not watched");
    }
}

void Watcher::forgetTree(const std::string &dir) {
    const std::string prefix = dir + "/";
    for (auto it = m_folders.begin(); it != m_folders.end();) {
        if (it->second == dir || it->second.starts_with(prefix)) {
            inotify_rm_watch(m_fd, it->first);
            it = m_folders.erase(it);
        } else {
            ++it;
        }
    }
}

void Watcher::renameTree(const std::string &from, const std::string &to) {
    const std::string prefix = from + "/";
    for (auto &[wd, path] : m_folders) {
        if (path == from || path.starts_with(prefix))
            path = to + path.substr(from.size());
    }
}

void Watcher::append(FileEvent event) {
    event.seq = ++m_lastSeq;
    m_events.push_back(std::move(event));
    while (m_events.size() > m_bufferSize) {
        m_droppedThrough = m_events.front().seq;
        m_events.pop_front();
    }
    while (!m_losses.empty() && m_losses.front() <= m_droppedThrough)
        m_losses.pop_front();
}

void Watcher::addLoss() {
    flush();
    // A seq of its own marks where the kernel dropped events, so that readers past it know.
    if (m_losses.empty() || m_losses.back() != m_lastSeq)
        m_losses.push_back(++m_lastSeq);
    log::warning("file watcher " + m_id + ": the inotify queue overflowed, events were lost");
    reportOverflow("the inotify queue overflowed (fs.inotify.max_queued_events)");
    notify();
}

PollBatch Watcher::eventsAfter(std::uint64_t cursor, std::size_t limit) const {
    PollBatch batch;
    auto it = std::upper_bound(
        m_events.begin(), m_events.end(), cursor,
        [](std::uint64_t value, const FileEvent &event) { return value < event.seq; });
    for (; it != m_events.end() && batch.events.size() < limit; ++it)
        batch.events.push_back(*it);
    const bool more = it != m_events.end();
    batch.cursor = std::max(cursor, more ? batch.events.back().seq : m_lastSeq);
    batch.overflow = cursor < m_droppedThrough;
    for (const std::uint64_t loss : m_losses)
        batch.overflow = batch.overflow || (loss > cursor && loss <= batch.cursor);
    return batch;
}

std::uint64_t Watcher::replayStart() const {
    return std::max(m_droppedThrough, m_losses.empty() ? 0 : m_losses.back());
}

std::uint64_t Watcher::listen(Listener listener) {
    const std::uint64_t token = m_nextToken++;
    m_listeners.emplace(token, std::move(listener));
    return token;
}

void Watcher::unlisten(std::uint64_t token) {
    m_listeners.erase(token);
}

void Watcher::notify() {
    // A copy: listeners unlisten (and answer requests) from inside the call.
    std::vector<Listener> listeners;
    listeners.reserve(m_listeners.size());
    for (const auto &[token, listener] : m_listeners)
        listeners.push_back(listener);
    for (const Listener &listener : listeners)
        listener();
}

void Watcher::reportOverflow(const std::string &why) {
    const auto now = std::chrono::steady_clock::now();
    if (m_lastReport && now - *m_lastReport < kReportInterval)
        return;
    m_lastReport = now;
    if (m_reporter)
        m_reporter(why);
}

std::string Watcher::relative(const std::string &path) const {
    return relativeTo(m_config.root, path);
}

bool Watcher::excluded(const std::string &relativePath) const {
    return isExcluded(m_config, relativePath);
}

bool Watcher::included(const FileEvent &event) const {
    if (m_config.include.empty())
        return true;
    for (const std::string &pattern : m_config.include) {
        if (matches(pattern, baseName(event.path)) || matches(pattern, event.relativePath))
            return true;
        if (event.oldPath && matches(pattern, baseName(*event.oldPath)))
            return true;
    }
    return false;
}

} // namespace sbx
