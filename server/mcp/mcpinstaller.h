#pragma once

#include "server/mcp/mcpconfig.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace sbx {

class ActivityEvents;
struct McpFailure;

// Installs one npm package (`npm install --prefix PREFIX name@version`) on first use, on a
// thread of its own so that neither the I/O thread nor the work pool waits for the registry.
// Requests wait for it, up to a bound, then hear that it is still installing; a failed install
// is reported with npm's last words and tried again on a request a minute later.
class McpInstaller final : public std::enable_shared_from_this<McpInstaller> {
public:
    using Done = std::function<void(const McpFailure *)>;

    McpInstaller(boost::asio::io_context &io, ActivityEvents &events, McpInstall install,
                 std::string npm);
    ~McpInstaller();
    McpInstaller(const McpInstaller &) = delete;
    McpInstaller &operator=(const McpInstaller &) = delete;

    // Calls done once on the I/O thread: null once the package is installed.
    void ensure(Done done);
    // The sandbox server stops: npm is cancelled and waiters are answered.
    void abandon();
    // After the I/O loop ended: joins the thread.
    void join();

private:
    struct Waiter {
        Done done;
        std::unique_ptr<boost::asio::steady_timer> timer;
    };
    enum class State { Unknown, Installing, Installed, Failed };

    void begin();
    void finished(bool installed, std::string failure);
    void answerAll(const McpFailure *failure);
    std::string installingText() const;

    boost::asio::io_context &m_io;
    ActivityEvents &m_events;
    McpInstall m_install;
    std::string m_npm;
    State m_state = State::Unknown;
    std::chrono::steady_clock::time_point m_startedAt;
    std::chrono::steady_clock::time_point m_failedAt;
    std::string m_failure;
    std::vector<std::shared_ptr<Waiter>> m_waiters;
    std::atomic<bool> m_cancel{false};
    std::thread m_thread;
};

// The installed version of a package under an npm prefix, empty when it is not there.
std::string installedNpmVersion(const std::string &prefix, const std::string &packageName);

} // namespace sbx
