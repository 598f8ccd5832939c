#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sbx {

// What a watcher watches; two requests with equal configurations share one watcher.
struct WatchConfig {
    // The folder inotify watches: the path itself, or a file's parent folder.
    std::string root;
    // Set when the path is a file: only events for this name in root are kept.
    std::optional<std::string> onlyName;
    // The path as the client sees it (absolute, normalised).
    std::string path;
    bool recursive = true;
    std::vector<std::string> exclude;
    std::vector<std::string> include;
    // Absolute folders never reported, whatever the patterns: the server's own state folder,
    // where command output and uploads churn, is not the sandbox's files.
    std::vector<std::string> hidden;
    int debounceMs = 300;

    bool operator==(const WatchConfig &) const = default;
};

// AIO's FileEvent; remove events carry 0 for mtime, size and inode (the file is gone).
struct FileEvent {
    std::uint64_t seq = 0;
    std::string type; // create, write, remove, rename, chmod
    std::string path;
    std::string relativePath;
    std::optional<std::string> oldPath;
    bool isDir = false;
    double timestamp = 0;
    double mtime = 0;
    std::int64_t size = 0;
    std::uint64_t inode = 0;
};

nlohmann::json toJson(const FileEvent &event, const std::string &watcherId);
double epochNow();
// Fills mtime, size, inode and isDir from lstat; false when the path is gone.
bool describe(FileEvent &event);

// The inotify descriptor with its first watches, built on the worker pool since a big tree
// takes a while to walk. Events queue in the kernel until the Watcher reads them.
struct WatchSetup {
    int fd = -1;
    std::vector<std::pair<int, std::string>> watches; // descriptor -> absolute folder
    int error = 0;                                    // errno of the step that failed
    std::string message;
};
WatchSetup prepareWatch(const WatchConfig &config);

struct PollBatch {
    std::vector<FileEvent> events;
    std::uint64_t cursor = 0;
    // Events in (requested cursor, cursor] were dropped: buffer eviction or a kernel overflow.
    bool overflow = false;
};

// One inotify watcher: reads events on the I/O thread, pairs renames, follows new subfolders,
// debounces into FileEvents and keeps the newest in a bounded buffer for poll and SSE readers.
// Every member is used on the I/O thread only.
class Watcher final : public std::enable_shared_from_this<Watcher> {
public:
    using Listener = std::function<void()>;

    Watcher(boost::asio::io_context &io, std::string id, WatchConfig config, WatchSetup setup,
            std::size_t bufferSize);
    ~Watcher();
    Watcher(const Watcher &) = delete;
    Watcher &operator=(const Watcher &) = delete;

    void start();
    // Closes the descriptor and wakes every listener; pending (debounced) events are dropped.
    void stop();
    // Releases the Asio objects; for the shutdown step, while the I/O context still exists.
    void release();

    const std::string &id() const { return m_id; }
    const WatchConfig &config() const { return m_config; }
    bool running() const { return m_running; }
    double createdAt() const { return m_createdAt; }
    int subscribers() const { return m_subscribers; }
    void addSubscriber(int delta) { m_subscribers += delta; }
    std::uint64_t lastSeq() const { return m_lastSeq; }

    PollBatch eventsAfter(std::uint64_t cursor, std::size_t limit) const;
    // Where a reader without a cursor starts: the oldest event kept after the last loss, so a
    // fresh SSE subscriber gets what is kept and never an overflow it could not avoid.
    std::uint64_t replayStart() const;
    // Called after new events, an overflow or the stop; never from inside listen/unlisten.
    std::uint64_t listen(Listener listener);
    void unlisten(std::uint64_t token);
    // Called (at most every 10 s) when events were lost, with a sentence saying how.
    void setOverflowReporter(std::function<void(const std::string &)> reporter) {
        m_reporter = std::move(reporter);
    }
    void reportOverflow(const std::string &why);

private:
    struct Slot {
        std::string type;
        std::string path;
        std::optional<std::string> oldPath;
        bool isDir = false;
        double time = 0;
        std::uint32_t cookie = 0; // an unpaired IN_MOVED_FROM
    };

    void readEvents();
    void handle(int wd, std::uint32_t mask, std::uint32_t cookie, const std::string &name);
    void record(const std::string &type, const std::string &path, bool isDir,
                std::uint32_t cookie = 0);
    void flush();
    void addTree(const std::string &dir, int depth);
    void forgetTree(const std::string &dir);
    void renameTree(const std::string &from, const std::string &to);
    void append(FileEvent event);
    void addLoss();
    void notify();
    std::string relative(const std::string &path) const;
    bool excluded(const std::string &relativePath) const;
    bool included(const FileEvent &event) const;

    boost::asio::io_context &m_io;
    std::string m_id;
    WatchConfig m_config;
    std::size_t m_bufferSize;
    double m_createdAt;
    int m_fd = -1;
    int m_rootWd = -1;
    bool m_running = false;
    bool m_limitWarned = false;
    int m_subscribers = 0;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_descriptor;
    std::unique_ptr<boost::asio::steady_timer> m_flushTimer;
    std::unordered_map<int, std::string> m_folders;
    // The debounce window's changes in order, and each path's slot still open to coalescing.
    std::vector<Slot> m_batch;
    std::unordered_map<std::string, std::size_t> m_openSlot;
    std::unordered_map<std::uint32_t, std::size_t> m_moves;
    std::deque<FileEvent> m_events;
    std::uint64_t m_lastSeq = 0;
    // Every seq up to this was evicted; m_losses are seqs standing for kernel overflows.
    std::uint64_t m_droppedThrough = 0;
    std::deque<std::uint64_t> m_losses;
    std::map<std::uint64_t, Listener> m_listeners;
    std::uint64_t m_nextToken = 1;
    std::function<void(const std::string &)> m_reporter;
    std::optional<std::chrono::steady_clock::time_point> m_lastReport;
};

} // namespace sbx
