#pragma once

#include "server/watch/watcher.h"

#include <boost/asio/signal_set.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace sbx {

class ActivityEvents;
class WorkPool;

struct WatchSettings {
    // AIO_FILE_WATCH_MAX_WATCHERS
    std::size_t maxWatchers = 10;
    // AIO_FILE_WATCH_BUFFER_SIZE: events kept per watcher.
    std::size_t bufferSize = 10000;
    // SBX_WATCH_HEARTBEAT_MS: the SSE keep-alive comment's interval.
    std::chrono::milliseconds heartbeat{30000};

    // Reads the variables above; unusable values keep the default with a warning.
    static WatchSettings fromEnvironment();
};

struct WatchCreated {
    std::shared_ptr<Watcher> watcher;
    bool reused = false;
    // When watcher is null: an HTTP status, a message, and for 429 AIO's code.
    int status = 0;
    std::string message;
    std::string code;
};

// The named watchers of /v1/file/watch and the temporary ones of /wait, on the I/O thread:
// reuse by configuration, the limit, and the stop (SIGTERM, then the shutdown step).
class WatchRegistry final : public std::enable_shared_from_this<WatchRegistry> {
public:
    WatchRegistry(boost::asio::io_context &io, WorkPool &pool, ActivityEvents &events,
                  WatchSettings settings);
    ~WatchRegistry();
    WatchRegistry(const WatchRegistry &) = delete;
    WatchRegistry &operator=(const WatchRegistry &) = delete;

    // Call once it is owned by a shared_ptr: it listens for SIGTERM/SIGINT.
    void start();
    const WatchSettings &settings() const { return m_settings; }

    // Answers on the I/O thread; the tree is walked on the worker pool.
    void create(WatchConfig config, std::function<void(WatchCreated)> done);
    std::shared_ptr<Watcher> find(const std::string &id) const;
    // In creation order.
    std::vector<std::shared_ptr<Watcher>> list() const;
    bool remove(const std::string &id);

    // A watcher for one request (wait), outside the list and the limit; null with status and
    // message set when it cannot be made. Walks nothing: it is not recursive.
    std::shared_ptr<Watcher> openTemporary(WatchConfig config, int &status, std::string &message);
    void closeTemporary(const std::shared_ptr<Watcher> &watcher);

    // Stops every watcher, which answers waiting polls and ends SSE streams.
    void beginStop();
    // The shutdown step: after the I/O loop, releases every Asio object while it still exists.
    void shutdown();

private:
    std::string newId() const;
    std::shared_ptr<Watcher> make(WatchConfig config, WatchSetup setup);
    std::shared_ptr<Watcher> runningWith(const WatchConfig &config) const;

    boost::asio::io_context &m_io;
    WorkPool &m_pool;
    ActivityEvents &m_events;
    WatchSettings m_settings;
    std::vector<std::shared_ptr<Watcher>> m_watchers;
    std::set<std::shared_ptr<Watcher>> m_temporary;
    std::unique_ptr<boost::asio::signal_set> m_signals;
    bool m_stopping = false;
};

// How a failed setup's errno is answered: 503 for the kernel's limits, 400 for a bad path.
int statusForWatchError(int error);

} // namespace sbx
