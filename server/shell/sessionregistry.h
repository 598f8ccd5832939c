#pragma once

#include "server/shell/shellsession.h"

#include <boost/asio/signal_set.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx {

struct ShellConfig {
    std::string workspace;
    // The bash startup file that adds the prompt markers (written by the registry).
    std::string rcFile;
    std::string shell;
    std::chrono::seconds idleTimeout{24 * 60 * 60};
    std::chrono::seconds pingInterval{30};
    std::size_t ringBytes = 1024 * 1024;
    std::size_t maxSessions = 100;
};

struct CreateResult {
    std::shared_ptr<ShellSession> session;
    bool created = false;
    // HTTP status and text when no session could be had.
    int status = 200;
    std::string error;
};

// Every shell session of the server by id: one namespace for the WebSocket terminal and the
// REST API. Reaps idle sessions and ends them all when the server stops.
class SessionRegistry final {
public:
    SessionRegistry(boost::asio::io_context &io, ShellConfig config);
    ~SessionRegistry();
    SessionRegistry(const SessionRegistry &) = delete;
    SessionRegistry &operator=(const SessionRegistry &) = delete;

    const ShellConfig &config() const { return m_config; }
    boost::asio::io_context &io() { return m_io; }
    // An existing id returns that session. workingDirectory must be absolute and exist.
    CreateResult create(const std::optional<std::string> &id,
                        const std::optional<std::string> &workingDirectory);
    std::shared_ptr<ShellSession> find(std::string_view id) const;
    bool remove(std::string_view id);
    std::size_t removeAll();
    std::vector<std::shared_ptr<ShellSession>> sessions() const;
    bool stopping() const { return m_stopping; }
    // Ends every session and releases every Asio object (the I/O context goes away next).
    void shutdown();

    static bool validId(std::string_view id);

private:
    void scheduleHousekeeping();
    void housekeeping();
    void beginStop();

    boost::asio::io_context &m_io;
    ShellConfig m_config;
    std::map<std::string, std::shared_ptr<ShellSession>, std::less<>> m_sessions;
    std::unique_ptr<boost::asio::steady_timer> m_tick;
    std::unique_ptr<boost::asio::signal_set> m_signals;
    bool m_stopping = false;
};

} // namespace sbx
