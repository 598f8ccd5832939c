#include "server/mcp/mcpinstaller.h"

#include "server/core/activityevents.h"
#include "server/core/jsonparse.h"
#include "server/core/log.h"
#include "server/core/process.h"
#include "server/mcp/mcpconnection.h"

#include <boost/asio/post.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sbx {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A request waits this long for the install before it hears "installing"; below the 60 s a
// client's request timeout usually is, with room for the start and the call after it.
constexpr auto kWaitForInstall = std::chrono::seconds(40);
constexpr auto kInstallTimeout = std::chrono::minutes(10);
constexpr auto kRetryAfterFailure = std::chrono::seconds(60);
constexpr std::size_t kOutputTail = 1500;

} // namespace

std::string installedNpmVersion(const std::string &prefix, const std::string &packageName) {
    std::ifstream in(prefix + "/node_modules/" + packageName + "/package.json");
    if (!in)
        return {};
    std::ostringstream text;
    text << in.rdbuf();
    const JsonParse parsed = parseJson(text.str());
    if (!parsed.ok() || !parsed.value.is_object())
        return {};
    const auto version = parsed.value.find("version");
    return version != parsed.value.end() && version->is_string() ? version->get<std::string>()
                                                                 : std::string();
}

McpInstaller::McpInstaller(boost::asio::io_context &io, ActivityEvents &events, McpInstall install,
                           std::string npm)
    : m_io(io)
    , m_events(events)
    , m_install(std::move(install))
    , m_npm(std::move(npm)) {}

McpInstaller::~McpInstaller() {
    m_cancel = true;
    join();
}

std::string McpInstaller::installingText() const {
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - m_startedAt).count();
    return "the MCP server is still being installed (npm install " + m_install.package + " into " +
           m_install.prefix + ", " + std::to_string(elapsed) + " s so far); try again shortly";
}

void McpInstaller::ensure(Done done) {
    if (m_state == State::Installed)
        return done(nullptr);
    if (m_cancel) {
        const McpFailure stopping{503, "the sandbox server is stopping"};
        return done(&stopping);
    }
    if (m_state == State::Failed) {
        if (Clock::now() - m_failedAt < kRetryAfterFailure) {
            const McpFailure failed{503, m_failure, 0};
            return done(&failed);
        }
        m_state = State::Unknown;
    }
    auto waiter = std::make_shared<Waiter>();
    waiter->done = std::move(done);
    waiter->timer = std::make_unique<boost::asio::steady_timer>(m_io, kWaitForInstall);
    waiter->timer->async_wait([weak = weak_from_this(), waiter](std::error_code ec) {
        const auto self = weak.lock();
        if (ec || !self || !waiter->done)
            return;
        std::erase(self->m_waiters, waiter);
        const McpFailure installing{503, self->installingText(), 5};
        auto answer = std::move(waiter->done);
        waiter->done = nullptr;
        answer(&installing);
    });
    m_waiters.push_back(waiter);
    if (m_state == State::Unknown)
        begin();
}

void McpInstaller::begin() {
    m_state = State::Installing;
    m_startedAt = Clock::now();
    if (m_thread.joinable())
        m_thread.join(); // the previous attempt, finished
    m_thread = std::thread([this, weak = weak_from_this()] {
        const McpInstall install = m_install;
        if (installedNpmVersion(install.prefix, install.packageName) == install.version) {
            boost::asio::post(m_io, [weak] {
                if (const auto self = weak.lock())
                    self->finished(true, {});
            });
            return;
        }
        log::info("mcp: installing " + install.package + " into " + install.prefix +
                  " (npm, first use)");
        std::error_code ec;
        fs::create_directories(install.prefix, ec);
        ProcessSpec spec;
        spec.argv = {m_npm,          "install",   "--prefix",         install.prefix,
                     "--no-audit",   "--no-fund", "--loglevel=error", "--no-update-notifier",
                     install.package};
        spec.workingDirectory = install.prefix;
        spec.timeout = kInstallTimeout;
        spec.timeoutGrace = std::chrono::seconds(3);
        spec.cancel = &m_cancel;
        std::string tail;
        const ProcessResult result = runProcess(spec, [&tail](std::string_view line) {
            tail.append(line);
            tail += ' ';
            if (tail.size() > kOutputTail)
                tail.erase(0, tail.size() - kOutputTail);
        });
        const bool installed =
            result.exitCode == 0 &&
            installedNpmVersion(install.prefix, install.packageName) == install.version;
        std::string failure;
        if (!installed) {
            const std::string how = !result.started    ? result.error
                                    : result.timedOut  ? std::string("it ran out of time")
                                    : result.cancelled ? std::string("it was cancelled")
                                    : result.exitCode
                                        ? "exit code " + std::to_string(*result.exitCode)
                                        : "signal " + std::to_string(result.signal);
            failure = "installing the MCP server failed (npm install " + install.package +
                      " into " + install.prefix + ": " + how + ")" +
                      (tail.empty() ? std::string() : "; npm said: " + tail);
        }
        boost::asio::post(m_io, [weak, installed, failure = std::move(failure)]() mutable {
            if (const auto self = weak.lock())
                self->finished(installed, std::move(failure));
        });
    });
}

void McpInstaller::finished(bool installed, std::string failure) {
    if (m_cancel)
        return;
    if (installed) {
        log::info("mcp: " + m_install.package + " is installed in " + m_install.prefix);
        m_state = State::Installed;
        answerAll(nullptr);
        return;
    }
    log::error("mcp: " + failure);
    m_events.post("mcp_install_failed", failure, {{"package", m_install.package}});
    m_state = State::Failed;
    m_failedAt = Clock::now();
    m_failure = failure + "; it is tried again on a request after 60 s";
    const McpFailure failed{503, m_failure, 0};
    answerAll(&failed);
}

void McpInstaller::answerAll(const McpFailure *failure) {
    auto waiters = std::move(m_waiters);
    m_waiters.clear();
    for (const auto &waiter : waiters) {
        // Destroyed now, while the I/O context exists; its cancelled handler holds the waiter.
        waiter->timer.reset();
        if (auto done = std::move(waiter->done)) {
            waiter->done = nullptr;
            done(failure);
        }
    }
}

void McpInstaller::abandon() {
    m_cancel = true;
    const McpFailure stopping{503, "the sandbox server is stopping"};
    answerAll(&stopping);
}

void McpInstaller::join() {
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace sbx
