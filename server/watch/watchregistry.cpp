#include "server/watch/watchregistry.h"

#include "server/core/activityevents.h"
#include "server/core/log.h"
#include "server/core/workpool.h"

#include <boost/asio/post.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <random>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;

std::optional<long long> envNumber(const char *name, long long min, long long max) {
    const char *text = std::getenv(name);
    if (!text || !*text)
        return std::nullopt;
    char *end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max) {
        log::warning(std::string(name) + ": not a number from " + std::to_string(min) + " to " +
                     std::to_string(max) + "; the default applies");
        return std::nullopt;
    }
    return value;
}

} // namespace

WatchSettings WatchSettings::fromEnvironment() {
    WatchSettings settings;
    if (const auto max = envNumber("AIO_FILE_WATCH_MAX_WATCHERS", 1, 100000))
        settings.maxWatchers = static_cast<std::size_t>(*max);
    if (const auto size = envNumber("AIO_FILE_WATCH_BUFFER_SIZE", 1, 10000000))
        settings.bufferSize = static_cast<std::size_t>(*size);
    if (const auto ms = envNumber("SBX_WATCH_HEARTBEAT_MS", 10, 3600000))
        settings.heartbeat = std::chrono::milliseconds(*ms);
    return settings;
}

int statusForWatchError(int error) {
    switch (error) {
    case ENOSPC:
    case EMFILE:
    case ENFILE:
    case ENOMEM:
        return 503;
    case ENOENT:
    case ENOTDIR:
    case EACCES:
    case EPERM:
    case ELOOP:
    case ENAMETOOLONG:
        return 400;
    default:
        return 500;
    }
}

WatchRegistry::WatchRegistry(asio::io_context &io, WorkPool &pool, ActivityEvents &events,
                             WatchSettings settings)
    : m_io(io)
    , m_pool(pool)
    , m_events(events)
    , m_settings(settings) {}

WatchRegistry::~WatchRegistry() {
    shutdown();
}

void WatchRegistry::start() {
    // The HTTP server stops on these too (Asio tells every signal_set); waiting polls and the
    // inotify reads would keep the I/O loop running.
    m_signals = std::make_unique<asio::signal_set>(m_io, SIGTERM, SIGINT);
    std::weak_ptr<WatchRegistry> weak = weak_from_this();
    m_signals->async_wait([weak](const boost::system::error_code &ec, int) {
        if (const auto self = weak.lock(); self && !ec)
            self->beginStop();
    });
}

std::string WatchRegistry::newId() const {
    static std::mt19937_64 generator{std::random_device{}()};
    for (;;) {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(generator()));
        std::string id(text, 12);
        if (!find(id))
            return id;
    }
}

std::shared_ptr<Watcher> WatchRegistry::make(WatchConfig config, WatchSetup setup) {
    auto watcher = std::make_shared<Watcher>(m_io, newId(), std::move(config), std::move(setup),
                                             m_settings.bufferSize);
    ActivityEvents &events = m_events;
    const std::string id = watcher->id();
    const std::string path = watcher->config().path;
    watcher->setOverflowReporter([&events, id, path](const std::string &why) {
        nlohmann::json data = nlohmann::json::object();
        data["watcher_id"] = id;
        data["path"] = path;
        events.post("watch_overflow", "File watcher " + id + " on " + path + ": " + why, data);
    });
    watcher->start();
    return watcher;
}

std::shared_ptr<Watcher> WatchRegistry::runningWith(const WatchConfig &config) const {
    for (const auto &watcher : m_watchers) {
        if (watcher->running() && watcher->config() == config)
            return watcher;
    }
    return nullptr;
}

void WatchRegistry::create(WatchConfig config, std::function<void(WatchCreated)> done) {
    auto refusal = [this](const WatchConfig &wanted) -> std::optional<WatchCreated> {
        WatchCreated result;
        if (m_stopping) {
            result.status = 503;
            result.message = "The server is stopping";
            return result;
        }
        if (auto existing = runningWith(wanted)) {
            result.watcher = std::move(existing);
            result.reused = true;
            return result;
        }
        if (m_watchers.size() >= m_settings.maxWatchers) {
            result.status = 429;
            result.code = "WATCH_LIMIT_EXCEEDED";
            result.message = "Too many file watchers (at most " +
                             std::to_string(m_settings.maxWatchers) +
                             ", AIO_FILE_WATCH_MAX_WATCHERS): delete one first";
            return result;
        }
        return std::nullopt;
    };
    if (auto early = refusal(config)) {
        done(std::move(*early));
        return;
    }
    std::weak_ptr<WatchRegistry> weak = weak_from_this();
    m_pool.post(
        [weak, refusal, config = std::move(config), done = std::move(done), &io = m_io]() mutable {
            WatchSetup setup = prepareWatch(config);
            asio::post(io, [weak, refusal, config = std::move(config), done = std::move(done),
                            setup = std::move(setup)]() mutable {
                const auto self = weak.lock();
                // Checked again: another request may have made the same watcher meanwhile.
                std::optional<WatchCreated> late;
                if (self && setup.fd >= 0)
                    late = refusal(config);
                if (!self || late || setup.fd < 0) {
                    if (setup.fd >= 0)
                        ::close(setup.fd);
                    WatchCreated result;
                    if (late) {
                        result = std::move(*late);
                    } else {
                        result.status = self ? statusForWatchError(setup.error) : 503;
                        result.message = self ? setup.message : "The server is stopping";
                    }
                    done(std::move(result));
                    return;
                }
                WatchCreated result;
                result.watcher = self->make(std::move(config), std::move(setup));
                self->m_watchers.push_back(result.watcher);
                log::info("file watcher " + result.watcher->id() + " on " +
                          result.watcher->config().path);
                done(std::move(result));
            });
        });
}

std::shared_ptr<Watcher> WatchRegistry::find(const std::string &id) const {
    for (const auto &watcher : m_watchers) {
        if (watcher->id() == id)
            return watcher;
    }
    return nullptr;
}

std::vector<std::shared_ptr<Watcher>> WatchRegistry::list() const {
    return m_watchers;
}

bool WatchRegistry::remove(const std::string &id) {
    for (auto it = m_watchers.begin(); it != m_watchers.end(); ++it) {
        if ((*it)->id() == id) {
            const auto watcher = *it;
            m_watchers.erase(it);
            watcher->stop();
            return true;
        }
    }
    return false;
}

std::shared_ptr<Watcher> WatchRegistry::openTemporary(WatchConfig config, int &status,
                                                      std::string &message) {
    if (m_stopping) {
        status = 503;
        message = "The server is stopping";
        return nullptr;
    }
    config.recursive = false;
    WatchSetup setup = prepareWatch(config);
    if (setup.fd < 0) {
        status = statusForWatchError(setup.error);
        message = setup.message;
        return nullptr;
    }
    auto watcher = make(std::move(config), std::move(setup));
    m_temporary.insert(watcher);
    return watcher;
}

void WatchRegistry::closeTemporary(const std::shared_ptr<Watcher> &watcher) {
    watcher->stop();
    m_temporary.erase(watcher);
}

void WatchRegistry::beginStop() {
    if (m_stopping)
        return;
    m_stopping = true;
    // Copies: stopping wakes listeners, which may close temporary watchers.
    for (const auto &watcher : std::vector(m_watchers.begin(), m_watchers.end()))
        watcher->stop();
    for (const auto &watcher : std::vector(m_temporary.begin(), m_temporary.end()))
        watcher->stop();
}

void WatchRegistry::shutdown() {
    beginStop();
    for (const auto &watcher : m_watchers)
        watcher->release();
    for (const auto &watcher : m_temporary)
        watcher->release();
    m_watchers.clear();
    m_temporary.clear();
    m_signals.reset();
}

} // namespace sbx
