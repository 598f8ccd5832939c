#include "server/mcp/mcpprocess.h"

#include "server/core/jsonparse.h"
#include "server/core/log.h"
#include "server/core/process.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace sbx {

namespace asio = boost::asio;
using nlohmann::json;

namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// One message (a tool's answer with an image or a file) may be large, but not without bound: a
// line longer than this ends the process, whose later answers could not be told apart.
constexpr std::size_t kMaxMessageBytes = 64 * 1024 * 1024;
// Tool schemas nest deeper and list more values than request bodies do.
constexpr JsonLimits kMessageLimits{.maxDepth = 256, .maxValues = 4 * 1024 * 1024};
// A chatty server must not fill the log: this many stderr lines per process, each cut short.
constexpr std::size_t kStderrLinesLogged = 200;
constexpr std::size_t kStderrLineLogged = 500;
constexpr std::size_t kStderrTail = 2048;
constexpr std::size_t kNoiseLogged = 20;
constexpr auto kExitPollPeriod = std::chrono::milliseconds(50);

std::string lastLineOf(const std::string &text, std::size_t limit) {
    std::string flat;
    for (const char c : text)
        flat += (c == '\n' || c == '\r') ? ' ' : c;
    while (!flat.empty() && flat.back() == ' ')
        flat.pop_back();
    return flat.size() > limit ? "..." + flat.substr(flat.size() - limit) : flat;
}

} // namespace

std::string describeWaitStatus(int status) {
    if (WIFEXITED(status))
        return "exit code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
               ")";
    return "status " + std::to_string(status);
}

McpProcess::McpProcess(asio::io_context &io, McpLaunch launch)
    : m_io(io)
    , m_launch(std::move(launch))
    , m_exitPoll(std::make_unique<asio::steady_timer>(io))
    , m_killTimer(std::make_unique<asio::steady_timer>(io))
    , m_outChunk(kReadChunk)
    , m_errChunk(kReadChunk) {}

McpProcess::~McpProcess() {
    if (m_pid > 0 && !m_reaped) {
        // Nothing we started may outlive its owner.
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

std::shared_ptr<McpProcess> McpProcess::start(asio::io_context &io, McpLaunch launch,
                                              std::string &error) {
    std::shared_ptr<McpProcess> process(new McpProcess(io, std::move(launch)));
    if (!process->spawn(error))
        return nullptr;
    process->readStdout();
    process->readStderr();
    process->watchExit();
    return process;
}

bool McpProcess::spawn(std::string &error) {
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        error = std::string("cannot create pipes: ") + std::strerror(errno);
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        error = std::string("cannot create pipes: ") + std::strerror(errno);
        ::close(in[0]);
        ::close(in[1]);
        return false;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        error = std::string("cannot create pipes: ") + std::strerror(errno);
        for (const int fd : {in[0], in[1], out[0], out[1]})
            ::close(fd);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    // Our listening socket and connections must not leak into it.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawn_file_actions_addchdir_np(&actions, m_launch.workingDirectory.c_str());
    posix_spawnattr_t attributes;
    // Its own group: stopping it reaches what it started (npx starts node).
    initChildAttributes(attributes);
    std::vector<std::string> args = m_launch.argv;
    std::vector<std::string> env = m_launch.environment;
    std::vector<char *> argv, envp;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc = posix_spawn(&m_pid, m_launch.program.c_str(), &actions, &attributes, argv.data(),
                               envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        error = "cannot run " + m_launch.program + " in " + m_launch.workingDirectory + ": " +
                std::strerror(rc);
        m_pid = -1;
        for (const int fd : {in[1], out[0], err[0]})
            ::close(fd);
        return false;
    }
    for (const int fd : {in[1], out[0], err[0]})
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    m_stdin = std::make_unique<asio::posix::stream_descriptor>(m_io, in[1]);
    m_stdout = std::make_unique<asio::posix::stream_descriptor>(m_io, out[0]);
    m_stderr = std::make_unique<asio::posix::stream_descriptor>(m_io, err[0]);
    log::info("mcp " + m_launch.name + ": started pid " + std::to_string(m_pid) + " (" +
              m_launch.program + ")");
    return true;
}

void McpProcess::readStdout() {
    m_stdout->async_read_some(asio::buffer(m_outChunk),
                              [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                  if (self->m_finished || !self->m_stdout)
                                      return;
                                  if (n > 0)
                                      self->consumeStdout(self->m_outChunk.data(), n);
                                  if (self->m_finished || !self->m_stdout)
                                      return;
                                  if (!ec)
                                      return self->readStdout();
                                  // It closed its stdout: it can no longer answer anything.
                                  boost::system::error_code ignored;
                                  self->m_stdout->close(ignored);
                                  self->m_stdout.reset();
                                  if (!self->m_reaped)
                                      self->stop(std::chrono::seconds(2));
                              });
}

void McpProcess::readStderr() {
    m_stderr->async_read_some(asio::buffer(m_errChunk),
                              [self = shared_from_this()](std::error_code ec, std::size_t n) {
                                  if (self->m_finished || !self->m_stderr)
                                      return;
                                  if (n > 0)
                                      self->consumeStderr(self->m_errChunk.data(), n);
                                  if (!ec)
                                      return self->readStderr();
                                  boost::system::error_code ignored;
                                  self->m_stderr->close(ignored);
                                  self->m_stderr.reset();
                              });
}

void McpProcess::consumeStdout(const char *data, std::size_t size) {
    if (m_broken)
        return;
    m_line.append(data, size);
    std::size_t start = 0;
    for (;;) {
        const std::size_t newline = m_line.find('\n', m_scanned);
        if (newline == std::string::npos)
            break;
        handleLine(std::string_view(m_line).substr(start, newline - start));
        if (m_finished)
            return;
        start = newline + 1;
        m_scanned = start;
    }
    m_line.erase(0, start);
    m_scanned = m_line.size();
    if (m_line.size() > kMaxMessageBytes)
        protocolFailure("it sent a message over 64 MiB");
}

void McpProcess::consumeStderr(const char *data, std::size_t size) {
    m_errTail.append(data, size);
    if (m_errTail.size() > kStderrTail)
        m_errTail.erase(0, m_errTail.size() - kStderrTail);
    for (std::size_t i = 0; i < size; ++i) {
        const char c = data[i];
        if (c != '\n') {
            if (m_errLine.size() < kStderrLineLogged)
                m_errLine += c;
            continue;
        }
        if (m_errLinesLogged < kStderrLinesLogged)
            log::info("mcp " + m_launch.name + " stderr: " + m_errLine);
        else if (m_errLinesLogged == kStderrLinesLogged)
            log::info("mcp " + m_launch.name + ": further stderr is not logged");
        ++m_errLinesLogged;
        m_errLine.clear();
    }
}

void McpProcess::handleLine(std::string_view line) {
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return;
    JsonParse parsed = parseJson(line, kMessageLimits);
    if (!parsed.ok() || !parsed.value.is_object()) {
        // Some servers print banners on stdout; the messages around them still count.
        if (m_noiseLogged++ < kNoiseLogged)
            log::warning("mcp " + m_launch.name + ": ignored a stdout line that is not a " +
                         "JSON-RPC message (" + std::to_string(line.size()) + " bytes)");
        return;
    }
    handleMessage(std::move(parsed.value));
}

void McpProcess::handleMessage(json message) {
    const auto method = message.find("method");
    const auto id = message.find("id");
    if (method != message.end() && method->is_string()) {
        const std::string name = method->get<std::string>();
        if (id != message.end() && !id->is_null())
            return answerServerRequest(*id, name);
        if (m_onNotification) {
            const auto params = message.find("params");
            m_onNotification(name, params != message.end() ? *params : json::object());
        }
        return;
    }
    if (id == message.end() || !id->is_number_integer())
        return; // a response to nothing we sent (we only send integer ids)
    const auto found = m_pending.find(id->get<std::int64_t>());
    if (found == m_pending.end())
        return; // answered after its timeout
    Pending pending = std::move(found->second);
    m_pending.erase(found);
    pending.timer->cancel();
    RpcOutcome outcome;
    if (const auto error = message.find("error"); error != message.end()) {
        outcome.kind = RpcOutcome::Kind::Error;
        outcome.value = error->is_object() ? std::move(*error) : json::object();
    } else {
        const auto result = message.find("result");
        outcome.value = result != message.end() ? std::move(*result) : json(nullptr);
    }
    pending.reply(std::move(outcome));
}

void McpProcess::answerServerRequest(const json &id, const std::string &method) {
    // We declare no client capability (no sampling, roots or elicitation); ping is universal.
    if (method == "ping") {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"result", json::object()}});
        return;
    }
    send({{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", -32601}, {"message", "Method not found: " + method}}}});
}

void McpProcess::request(const std::string &method, json params, std::chrono::milliseconds timeout,
                         Reply reply) {
    if (m_finished || !m_stdin || m_broken) {
        const std::string why = !m_exitText.empty() ? m_exitText
                                : m_finished        ? std::string("it has ended")
                                                    : std::string("it is being stopped");
        asio::post(m_io, [reply = std::move(reply), why] {
            reply({.kind = RpcOutcome::Kind::Ended, .value = nullptr, .message = why});
        });
        return;
    }
    const std::int64_t id = m_nextId++;
    Pending pending{method, std::move(reply), std::make_unique<asio::steady_timer>(m_io)};
    pending.timer->expires_after(timeout);
    pending.timer->async_wait([weak = weak_from_this(), id, timeout](std::error_code ec) {
        const auto self = weak.lock();
        if (ec || !self)
            return;
        const auto found = self->m_pending.find(id);
        if (found == self->m_pending.end())
            return;
        Pending expired = std::move(found->second);
        self->m_pending.erase(found);
        // The server may stop the work; its late answer is dropped by id.
        self->notify("notifications/cancelled",
                     {{"requestId", id}, {"reason", "timed out in sandbox-server"}});
        const auto ms = timeout.count();
        expired.reply({.kind = RpcOutcome::Kind::Timeout,
                       .value = nullptr,
                       .message = "no answer to " + expired.method + " within " +
                                  (ms % 1000 == 0 ? std::to_string(ms / 1000) + " s"
                                                  : std::to_string(ms) + " ms")});
    });
    m_pending.emplace(id, std::move(pending));
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

void McpProcess::notify(const std::string &method, json params) {
    if (m_finished)
        return;
    json message = {{"jsonrpc", "2.0"}, {"method", method}};
    if (!params.is_null())
        message["params"] = std::move(params);
    send(message);
}

void McpProcess::setNotificationHandler(NotificationHandler handler) {
    m_onNotification = std::move(handler);
}

void McpProcess::setExitHandler(ExitHandler handler) {
    m_onExit = std::move(handler);
}

void McpProcess::send(const json &message) {
    if (!m_stdin)
        return;
    std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    m_output.push_back(std::move(line));
    if (!m_writing)
        writeNext();
}

void McpProcess::writeNext() {
    if (m_output.empty() || !m_stdin) {
        m_writing = false;
        return;
    }
    m_writing = true;
    asio::async_write(*m_stdin, asio::buffer(m_output.front()),
                      [self = shared_from_this()](std::error_code ec, std::size_t) {
                          if (ec) {
                              // It closed its stdin (it is ending): the exit path answers
                              // what waits.
                              self->m_output.clear();
                              self->m_writing = false;
                              return;
                          }
                          self->m_output.pop_front();
                          self->writeNext();
                      });
}

void McpProcess::watchExit() {
    if (m_finished)
        return;
    if (!m_pidfd) {
        const int fd = static_cast<int>(::syscall(SYS_pidfd_open, m_pid, 0));
        if (fd >= 0)
            m_pidfd = std::make_unique<asio::posix::stream_descriptor>(m_io, fd);
    }
    const auto check = [self = shared_from_this()](std::error_code ec) {
        if (ec || self->m_reaped)
            return;
        // Looked at without reaping: while the leader is an unreaped zombie the group id is
        // still ours, so what it started can be killed without hitting a stranger.
        siginfo_t info{};
        if (waitid(P_PID, static_cast<id_t>(self->m_pid), &info, WEXITED | WNOHANG | WNOWAIT) !=
                0 ||
            info.si_pid == 0)
            return self->watchExit();
        ::kill(-self->m_pid, SIGKILL);
        int status = 0;
        while (waitpid(self->m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        self->exited(status);
    };
    if (m_pidfd) {
        m_pidfd->async_wait(asio::posix::descriptor_base::wait_read, check);
        return;
    }
    // Kernels before 5.3 have no pidfd: poll.
    m_exitPoll->expires_after(kExitPollPeriod);
    m_exitPoll->async_wait(check);
}

void McpProcess::exited(int status) {
    m_reaped = true;
    m_exitText = "it ended with " + describeWaitStatus(status);
    const std::string tail = stderrTail();
    if (!tail.empty())
        m_exitText += "; its stderr ended with: " + tail;
    log::info("mcp " + m_launch.name + ": pid " + std::to_string(m_pid) + " ended with " +
              describeWaitStatus(status));
    drainAfterExit();
    finish(m_exitText);
}

void McpProcess::drainAfterExit() {
    // Answers written just before the exit are still in the pipe.
    char buffer[kReadChunk];
    for (auto *descriptor : {&m_stdout, &m_stderr}) {
        while (*descriptor && !m_finished) {
            const ssize_t n = ::read((*descriptor)->native_handle(), buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            if (descriptor == &m_stdout)
                consumeStdout(buffer, static_cast<std::size_t>(n));
            else
                consumeStderr(buffer, static_cast<std::size_t>(n));
        }
    }
}

void McpProcess::finish(const std::string &why) {
    if (m_finished)
        return;
    m_finished = true;
    closeDescriptors();
    failAll(why);
    if (auto handler = std::move(m_onExit))
        handler(why);
}

void McpProcess::closeDescriptors() {
    boost::system::error_code ignored;
    for (auto *descriptor : {&m_stdin, &m_stdout, &m_stderr, &m_pidfd}) {
        if (*descriptor)
            (*descriptor)->close(ignored);
        descriptor->reset();
    }
    m_output.clear();
    m_exitPoll.reset();
    m_killTimer.reset();
}

void McpProcess::failAll(const std::string &why) {
    auto pending = std::move(m_pending);
    m_pending.clear();
    for (auto &[id, entry] : pending) {
        entry.timer->cancel();
        entry.reply({.kind = RpcOutcome::Kind::Ended, .value = nullptr, .message = why});
    }
}

void McpProcess::protocolFailure(const std::string &why) {
    log::warning("mcp " + m_launch.name + ": stopping it: " + why);
    m_exitText = "it was stopped: " + why;
    m_broken = true;
    m_line.clear();
    m_line.shrink_to_fit();
    failAll(m_exitText);
    stop(std::chrono::seconds(2));
}

void McpProcess::stop(std::chrono::milliseconds grace) {
    if (m_reaped || m_finished || m_pid <= 0)
        return;
    if (m_stdin) {
        boost::system::error_code ignored;
        m_stdin->close(ignored);
        m_stdin.reset();
    }
    ::kill(-m_pid, SIGTERM);
    m_killTimer->expires_after(grace);
    m_killTimer->async_wait([self = shared_from_this()](std::error_code ec) {
        if (!ec && !self->m_reaped)
            ::kill(-self->m_pid, SIGKILL);
    });
}

void McpProcess::abandon(int signal, const std::string &why) {
    if (m_finished)
        return;
    m_finished = true;
    m_onExit = nullptr;
    closeDescriptors();
    failAll(why);
    if (!m_reaped && m_pid > 0)
        ::kill(-m_pid, signal);
}

bool McpProcess::reap(std::chrono::steady_clock::time_point deadline) {
    if (m_reaped || m_pid <= 0)
        return true;
    bool killed = false;
    for (;;) {
        int status = 0;
        const pid_t done = waitpid(m_pid, &status, WNOHANG);
        if (done == m_pid || (done < 0 && errno == ECHILD)) {
            m_reaped = true;
            return true;
        }
        if (!killed && std::chrono::steady_clock::now() >= deadline) {
            ::kill(-m_pid, SIGKILL);
            killed = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

std::string McpProcess::stderrTail() const {
    return lastLineOf(m_errTail, 400);
}

} // namespace sbx
