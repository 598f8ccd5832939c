#include "server/shell/sessionregistry.h"

#include "server/core/log.h"
#include "server/shell/ptyprocess.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>

namespace sbx {

namespace asio = boost::asio;

namespace {

constexpr auto kHousekeepingPeriod = std::chrono::seconds(1);

std::string newSessionId() {
    static std::mt19937_64 generator{std::random_device{}()};
    std::uniform_int_distribution<std::uint64_t> any;
    // A UUID v4 in form, as AIO's ids are.
    const std::uint64_t high = any(generator);
    const std::uint64_t low = any(generator);
    char text[37];
    std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx",
                  static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                  static_cast<unsigned>(high & 0x0fff),
                  static_cast<unsigned>(((low >> 48) & 0x3fff) | 0x8000),
                  static_cast<unsigned long long>(low & 0xffffffffffffULL));
    return text;
}

// Bash reads this instead of the login files (it sources them itself), then adds the markers:
// PS0 is printed after a command line is read and before it runs, PROMPT_COMMAND before each
// prompt with the last exit status.
constexpr const char *kStartupFile = R"(# Written by sandbox-server for its shell sessions.
[ -r /etc/profile ] && . /etc/profile
if [ -r ~/.bash_profile ]; then . ~/.bash_profile
elif [ -r ~/.bash_login ]; then . ~/.bash_login
elif [ -r ~/.profile ]; then . ~/.profile
fi
__sbx_prompt() { local s=$?; printf '\033]6973;prompt;%s\007' "$s"; return $s; }
PROMPT_COMMAND="__sbx_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
PS0='\e]6973;start\a'"${PS0:-}"
)";

void writeStartupFile(const std::string &path) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    std::ofstream file(path, std::ios::trunc);
    file << kStartupFile;
    if (!file)
        log::warning("cannot write the shell startup file " + path);
}

} // namespace

SessionRegistry::SessionRegistry(asio::io_context &io, ShellConfig config)
    : m_io(io)
    , m_config(std::move(config))
    , m_tick(std::make_unique<asio::steady_timer>(io))
    , m_signals(std::make_unique<asio::signal_set>(io, SIGTERM, SIGINT)) {
    writeStartupFile(m_config.rcFile);
    // The HTTP server stops on these too (Asio tells every signal_set); sessions hold
    // descriptors and timers that would keep the I/O loop running.
    m_signals->async_wait([this](const boost::system::error_code &ec, int) {
        if (!ec)
            beginStop();
    });
    scheduleHousekeeping();
}

SessionRegistry::~SessionRegistry() {
    shutdown();
}

bool SessionRegistry::validId(std::string_view id) {
    if (id.empty() || id.size() > 128)
        return false;
    for (char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        if (!ok)
            return false;
    }
    return true;
}

CreateResult SessionRegistry::create(const std::optional<std::string> &id,
                                     const std::optional<std::string> &workingDirectory) {
    CreateResult result;
    if (m_stopping) {
        result.status = 503;
        result.error = "The server is stopping";
        return result;
    }
    if (id) {
        if (auto existing = find(*id)) {
            result.session = existing;
            return result;
        }
        if (!validId(*id)) {
            result.status = 400;
            result.error = "Session ids are 1 to 128 characters from A-Z a-z 0-9 . _ -";
            return result;
        }
    }
    if (m_sessions.size() >= m_config.maxSessions) {
        result.status = 429;
        result.error = "Too many shell sessions (limit " + std::to_string(m_config.maxSessions) +
                       "): delete one first";
        return result;
    }
    std::string dir = m_config.workspace;
    if (workingDirectory) {
        std::error_code ec;
        if (!std::filesystem::path(*workingDirectory).is_absolute() ||
            !std::filesystem::is_directory(*workingDirectory, ec)) {
            result.status = 400;
            result.error =
                "exec_dir must be an absolute path to an existing directory: " + *workingDirectory;
            return result;
        }
        dir = *workingDirectory;
    }
    SessionSpec spec;
    spec.id = id ? *id : newSessionId();
    spec.argv = {m_config.shell, "--rcfile", m_config.rcFile, "-i"};
    spec.environment = {"TERM=xterm-256color", "COLORTERM=truecolor",
                        "SANDBOX_SHELL_SESSION=" + spec.id};
    spec.workingDirectory = dir;
    spec.ringBytes = m_config.ringBytes;
    std::string error;
    auto session = ShellSession::start(m_io, std::move(spec), error);
    if (!session) {
        result.status = 500;
        result.error = "Cannot start a shell: " + error;
        return result;
    }
    session->setOnEnded([this](ShellSession &ended) {
        const auto it = m_sessions.find(ended.id());
        if (it != m_sessions.end() && it->second.get() == &ended)
            m_sessions.erase(it);
    });
    m_sessions.emplace(session->id(), session);
    log::debug("shell session " + session->id() + " started (pid " +
               std::to_string(session->shellPid()) + ")");
    result.session = std::move(session);
    result.created = true;
    return result;
}

std::shared_ptr<ShellSession> SessionRegistry::find(std::string_view id) const {
    const auto it = m_sessions.find(id);
    return it == m_sessions.end() ? nullptr : it->second;
}

bool SessionRegistry::remove(std::string_view id) {
    auto session = find(id);
    if (!session)
        return false;
    session->terminate(SessionEnd::Deleted);
    return true;
}

std::size_t SessionRegistry::removeAll() {
    const auto all = sessions();
    for (const auto &session : all)
        session->terminate(SessionEnd::Deleted);
    return all.size();
}

std::vector<std::shared_ptr<ShellSession>> SessionRegistry::sessions() const {
    std::vector<std::shared_ptr<ShellSession>> result;
    for (const auto &[id, session] : m_sessions)
        result.push_back(session);
    return result;
}

void SessionRegistry::scheduleHousekeeping() {
    if (!m_tick)
        return;
    m_tick->expires_after(kHousekeepingPeriod);
    m_tick->async_wait([this](const boost::system::error_code &ec) {
        if (ec || m_stopping)
            return;
        housekeeping();
        scheduleHousekeeping();
    });
}

void SessionRegistry::housekeeping() {
    const auto now = SystemClock::now();
    for (const auto &session : sessions()) {
        session->checkShellExited();
        if (session->ended() != SessionEnd::None)
            continue;
        if (session->clients() == 0 && session->idle() &&
            now - session->lastUsedAt() >= m_config.idleTimeout) {
            log::info("shell session " + session->id() + " idle: ended");
            session->terminate(SessionEnd::Deleted);
        }
    }
}

void SessionRegistry::beginStop() {
    if (m_stopping)
        return;
    m_stopping = true;
    if (m_tick)
        m_tick->cancel();
    for (const auto &session : sessions())
        session->terminate(SessionEnd::Stopping);
}

void SessionRegistry::shutdown() {
    beginStop();
    for (const auto &session : sessions())
        session->terminate(SessionEnd::Stopping);
    m_sessions.clear();
    m_tick.reset();
    m_signals.reset();
}

} // namespace sbx
