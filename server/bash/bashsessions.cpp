#include "server/bash/bashsessions.h"

#include "server/core/log.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <random>

namespace sbx {

namespace fs = std::filesystem;

std::string newBashId(std::size_t hexDigits) {
    static std::mt19937_64 generator{std::random_device{}()};
    static const char digits[] = "0123456789abcdef";
    std::string id;
    while (id.size() < hexDigits) {
        std::uint64_t bits = generator();
        for (int i = 0; i < 16 && id.size() < hexDigits; ++i, bits >>= 4)
            id += digits[bits & 0xf];
    }
    return id;
}

std::optional<std::string> directoryError(const std::string &dir) {
    std::error_code ec;
    if (!fs::path(dir).is_absolute() || !fs::is_directory(dir, ec))
        return "exec_dir is not an existing absolute directory: " + dir;
    return std::nullopt;
}

std::shared_ptr<BashCommand> BashSession::running() const {
    for (auto it = commands.rbegin(); it != commands.rend(); ++it) {
        if (!(*it)->finished())
            return *it;
    }
    return nullptr;
}

std::shared_ptr<BashCommand> BashSession::find(const std::string &commandId) const {
    for (const auto &command : commands) {
        if (command->id() == commandId)
            return command;
    }
    return nullptr;
}

BashSessions::BashSessions(boost::asio::io_context &io, ActivityEvents &events, BashConfig config)
    : m_io(io)
    , m_events(events)
    , m_config(std::move(config))
    , m_sweep(io)
    , m_signals(io, SIGTERM, SIGINT) {
    // The HTTP server stops on these too (Asio tells every signal_set); running commands and
    // waiting long-polls would keep the I/O loop alive.
    m_signals.async_wait([this](const boost::system::error_code &ec, int) {
        if (!ec)
            shutdown();
    });
    std::error_code ec;
    // Output of a previous run (a crash leaves it) belongs to no command now, and neither do
    // the processes it may have left running.
    reapLeftoverGroups(m_config.outputDirectory);
    fs::remove_all(m_config.outputDirectory, ec);
    fs::create_directories(m_config.outputDirectory, ec);
    if (ec)
        log::warning("bash: cannot create " + m_config.outputDirectory + ": " + ec.message());
    scheduleSweep();
}

BashSessions::~BashSessions() {
    shutdown();
}

BashSessions::Created BashSessions::obtain(const std::optional<std::string> &id,
                                           const std::optional<std::string> &dir,
                                           const std::optional<std::string> &snapshot) {
    Created result;
    if (id && !id->empty()) {
        if (BashSession *existing = find(*id)) {
            result.session = existing;
            return result;
        }
    }
    std::string workingDirectory = m_config.workspace;
    if (dir) {
        if (auto refused = directoryError(*dir)) {
            result.status = 400;
            result.error = *refused;
            return result;
        }
        workingDirectory = *dir;
    }
    if (snapshot && !snapshot->empty()) {
        std::error_code ec;
        if (!fs::is_regular_file(*snapshot, ec)) {
            result.status = 400;
            result.error = "snapshot_path is not a file: " + *snapshot;
            return result;
        }
    }
    if (m_sessions.size() >= m_config.maxSessions) {
        result.status = 429;
        result.error = "Too many bash sessions (" + std::to_string(m_config.maxSessions) +
                       "); close one first";
        return result;
    }
    auto session = std::make_unique<BashSession>();
    session->id = id && !id->empty() ? *id : newBashId(32);
    session->workingDirectory = workingDirectory;
    session->snapshotPath = snapshot.value_or("");
    session->createdAt = session->lastUsedAt = std::chrono::system_clock::now();
    result.session = session.get();
    result.created = true;
    m_sessions[session->id] = std::move(session);
    return result;
}

BashSession *BashSessions::find(const std::string &id) {
    auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : it->second.get();
}

std::vector<const BashSession *> BashSessions::all() const {
    std::vector<const BashSession *> sessions;
    for (const auto &[id, session] : m_sessions)
        sessions.push_back(session.get());
    std::sort(sessions.begin(), sessions.end(),
              [](const auto *a, const auto *b) { return a->createdAt < b->createdAt; });
    return sessions;
}

bool BashSessions::close(const std::string &id) {
    auto it = m_sessions.find(id);
    if (it == m_sessions.end())
        return false;
    for (const auto &command : it->second->commands)
        command->kill(SIGKILL);
    m_sessions.erase(it);
    return true;
}

std::shared_ptr<BashCommand> BashSessions::run(BashSession &session, std::string command,
                                               std::vector<std::string> environment,
                                               std::chrono::milliseconds hardTimeout,
                                               std::string &error) {
    BashCommandSpec spec;
    spec.id = newBashId(16);
    spec.command = std::move(command);
    spec.workingDirectory = session.workingDirectory;
    spec.environment = std::move(environment);
    spec.snapshotPath = session.snapshotPath;
    spec.hardTimeout = hardTimeout;
    spec.outputDirectory = m_config.outputDirectory;
    auto started = BashCommand::start(m_io, std::move(spec), m_events, error);
    session.lastUsedAt = std::chrono::system_clock::now();
    if (started) {
        session.commands.push_back(started);
        ++session.commandCount;
    }
    return started;
}

void BashSessions::scheduleSweep() {
    if (m_stopped)
        return;
    m_sweep.expires_after(
        std::min<std::chrono::seconds>(m_config.retention, std::chrono::seconds(30)));
    m_sweep.async_wait([this](std::error_code ec) {
        if (ec)
            return;
        sweep();
        scheduleSweep();
    });
}

void BashSessions::sweep() {
    const auto now = std::chrono::steady_clock::now();
    for (auto &[id, session] : m_sessions) {
        auto &commands = session->commands;
        std::size_t finished = static_cast<std::size_t>(std::count_if(
            commands.begin(), commands.end(), [](const auto &c) { return c->finished(); }));
        std::erase_if(commands, [&](const std::shared_ptr<BashCommand> &command) {
            if (!command->finished())
                return false;
            const bool expired = now - command->finishedAt() >= m_config.retention;
            const bool surplus = finished > m_config.maxFinishedPerSession;
            if (expired || surplus) {
                --finished;
                return true;
            }
            return false;
        });
    }
}

void BashSessions::shutdown() {
    if (m_stopped)
        return;
    m_stopped = true;
    m_sweep.cancel();
    m_signals.cancel();
    for (auto &[id, session] : m_sessions) {
        for (const auto &command : session->commands)
            command->kill(SIGKILL);
    }
}

} // namespace sbx
