#pragma once

#include "server/bash/bashcommand.h"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx {

class ActivityEvents;

struct BashSession {
    std::string id;
    std::string workingDirectory;
    std::string snapshotPath;
    std::chrono::system_clock::time_point createdAt;
    std::chrono::system_clock::time_point lastUsedAt;
    // Oldest first; finished ones leave after the retention time.
    std::vector<std::shared_ptr<BashCommand>> commands;
    std::size_t commandCount = 0;

    // The newest command still running, else null.
    std::shared_ptr<BashCommand> running() const;
    std::shared_ptr<BashCommand> find(const std::string &commandId) const;
};

struct BashConfig {
    std::string workspace;
    std::string outputDirectory;
    // How long a finished command's output stays readable.
    std::chrono::seconds retention{3600};
    std::size_t maxSessions = 100;
    // Finished commands kept per session beyond which the oldest go early.
    std::size_t maxFinishedPerSession = 200;
};

// The namespace of /v1/bash sessions and their commands. I/O thread only.
class BashSessions final {
public:
    BashSessions(boost::asio::io_context &io, ActivityEvents &events, BashConfig config);
    ~BashSessions();

    struct Created {
        BashSession *session = nullptr;
        bool created = false;
        int status = 0;
        std::string error;
    };
    // An existing id returns that session; an empty or absent id makes a new one.
    Created obtain(const std::optional<std::string> &id, const std::optional<std::string> &dir,
                   const std::optional<std::string> &snapshot = std::nullopt);
    BashSession *find(const std::string &id);
    std::vector<const BashSession *> all() const;
    // Kills what runs in it and forgets it. False when there is no such session.
    bool close(const std::string &id);

    std::shared_ptr<BashCommand> run(BashSession &session, std::string command,
                                     std::vector<std::string> environment,
                                     std::chrono::milliseconds hardTimeout, std::string &error);
    const BashConfig &config() const { return m_config; }
    void shutdown();

private:
    void scheduleSweep();
    void sweep();

    boost::asio::io_context &m_io;
    ActivityEvents &m_events;
    BashConfig m_config;
    std::map<std::string, std::unique_ptr<BashSession>> m_sessions;
    boost::asio::steady_timer m_sweep;
    // SIGTERM/SIGINT: the sweep timer and the commands' timers would keep the I/O loop, and
    // so the stop, running (the shutdown step runs only after the loop ends).
    boost::asio::signal_set m_signals;
    bool m_stopped = false;
};

std::string newBashId(std::size_t hexDigits);
// Why dir cannot be a working directory, or nullopt when it can.
std::optional<std::string> directoryError(const std::string &dir);

} // namespace sbx
