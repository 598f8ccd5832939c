#include "server/bash/bashcommand.h"

#include "server/core/activityevents.h"
#include "server/core/log.h"
#include "server/core/process.h"
#include "server/observe/procscan.h"

#include <boost/asio/write.hpp>

#include <filesystem>
#include <fstream>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sbx {

namespace asio = boost::asio;

namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// Reads per wake-up, so a fast writer cannot hold the I/O thread from other clients.
constexpr int kReadsPerWake = 16;
// Without pidfd (kernels before 5.3) the exit is polled.
constexpr auto kExitPollPeriod = std::chrono::milliseconds(50);

std::string shellQuoted(const std::string &text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

bool writeAll(int fd, const char *data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

const char *commandStatusName(CommandStatus status) {
    switch (status) {
    case CommandStatus::Running:
        return "running";
    case CommandStatus::Completed:
        return "completed";
    case CommandStatus::TimedOut:
        return "timed_out";
    case CommandStatus::Killed:
        return "killed";
    }
    return "completed";
}

// One of the two output pipes and the file it fills.
struct BashCommand::Pipe {
    Pipe(asio::io_context &io, int readFd, int file, std::uint64_t &counter)
        : descriptor(io, readFd)
        , fileFd(file)
        , size(counter) {}
    ~Pipe() {
        if (fileFd >= 0)
            ::close(fileFd);
    }
    asio::posix::stream_descriptor descriptor;
    int fileFd;
    std::uint64_t &size;
    bool open = true;
};

BashCommand::BashCommand(asio::io_context &io, BashCommandSpec spec, ActivityEvents &events)
    : m_io(io)
    , m_spec(std::move(spec))
    , m_events(events)
    , m_stdoutPath(m_spec.outputDirectory + "/" + m_spec.id + ".stdout")
    , m_stderrPath(m_spec.outputDirectory + "/" + m_spec.id + ".stderr")
    , m_groupPath(m_spec.outputDirectory + "/" + m_spec.id + ".group")
    , m_exitPoll(io)
    , m_hardTimer(io) {}

BashCommand::~BashCommand() {
    if (m_pid > 0 && !m_exited) {
        // The server is stopping or the session was closed: nothing may outlive it.
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        while (waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    ::unlink(m_stdoutPath.c_str());
    ::unlink(m_stderrPath.c_str());
    ::unlink(m_groupPath.c_str());
}

namespace {
std::optional<std::uint64_t> startTicksOf(int pid) {
    const auto text = readSmallFile("/proc/" + std::to_string(pid) + "/stat");
    ProcSample sample;
    if (!text || !parseProcStat(*text, 4096, sample))
        return std::nullopt;
    return sample.startTicks;
}
} // namespace

void BashCommand::recordGroup() const {
    // Read by reapLeftoverGroups() after a crash: "<pgid> <start ticks of its leader>".
    const auto start = startTicksOf(m_pid);
    std::ofstream out(m_groupPath, std::ios::trunc);
    out << m_pid << ' ' << start.value_or(0) << '\n';
}

int reapLeftoverGroups(const std::string &outputDirectory) {
    namespace fs = std::filesystem;
    std::error_code ec;
    int killed = 0;
    for (const auto &entry : fs::directory_iterator(outputDirectory, ec)) {
        if (entry.path().extension() != ".group")
            continue;
        std::ifstream in(entry.path());
        long long pgid = 0;
        unsigned long long start = 0;
        if (!(in >> pgid >> start) || pgid <= 1)
            continue;
        // The leader alive as the same process, or gone with its group possibly left: a pid
        // that still names a process group is not given to a new process, so a live leader
        // with another start time leads a group that is not ours.
        const auto now = startTicksOf(int(pgid));
        if (now && *now != start)
            continue;
        if (::kill(-pid_t(pgid), SIGKILL) == 0) {
            ++killed;
            log::info("bash: killed the leftover process group " + std::to_string(pgid) +
                      " of a server that did not stop cleanly");
        }
    }
    return killed;
}

std::shared_ptr<BashCommand> BashCommand::start(asio::io_context &io, BashCommandSpec spec,
                                                ActivityEvents &events, std::string &error) {
    std::shared_ptr<BashCommand> command(new BashCommand(io, std::move(spec), events));
    if (!command->spawn(error))
        return nullptr;
    command->readPipe(*command->m_out);
    command->readPipe(*command->m_err);
    command->watchExit();
    if (command->m_spec.hardTimeout.count() > 0) {
        command->m_hardTimer.expires_after(command->m_spec.hardTimeout);
        command->m_hardTimer.async_wait([weak = std::weak_ptr(command)](std::error_code ec) {
            auto self = weak.lock();
            if (ec || !self || self->m_exited)
                return;
            self->m_timedOut = true;
            ::kill(-self->m_pid, SIGKILL);
            self->m_events.post("command_timeout",
                                "Command ran past its hard_timeout and was killed: " +
                                    self->m_spec.command.substr(0, 200),
                                {{"command_id", self->m_spec.id}, {"pid", self->m_pid}});
        });
    }
    return command;
}

bool BashCommand::spawn(std::string &error) {
    const auto openOutput = [&](const std::string &path) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            error = "cannot create the output file " + path + ": " + std::strerror(errno);
        return fd;
    };
    const int outFile = openOutput(m_stdoutPath);
    if (outFile < 0)
        return false;
    const int errFile = openOutput(m_stderrPath);
    if (errFile < 0) {
        ::close(outFile);
        return false;
    }
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        error = std::string("cannot create pipes: ") + std::strerror(errno);
        ::close(outFile);
        ::close(errFile);
        return false;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawn_file_actions_addchdir_np(&actions, m_spec.workingDirectory.c_str());
    posix_spawnattr_t attributes;
    // Its own group: kill and hard_timeout reach what the command started too.
    initChildAttributes(attributes);

    std::string script = m_spec.command;
    if (!m_spec.snapshotPath.empty())
        script = ". " + shellQuoted(m_spec.snapshotPath) + "\n" + script;
    const std::string shell = findExecutable("bash").value_or("/bin/sh");
    std::vector<std::string> args = {shell, "-c", script};
    std::vector<std::string> env = environmentWith(m_spec.environment);
    std::vector<char *> argv, envp;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc =
        posix_spawn(&m_pid, shell.c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        error = "cannot run " + shell + ": " + std::strerror(rc);
        m_pid = -1;
        for (const int fd : {in[1], out[0], err[0], outFile, errFile})
            ::close(fd);
        return false;
    }
    for (const int fd : {in[1], out[0], err[0]})
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    m_stdin = std::make_unique<asio::posix::stream_descriptor>(m_io, in[1]);
    m_out = std::make_unique<Pipe>(m_io, out[0], outFile, m_outSize);
    m_err = std::make_unique<Pipe>(m_io, err[0], errFile, m_errSize);
    recordGroup();
    return true;
}

void BashCommand::readPipe(Pipe &pipe) {
    pipe.descriptor.async_wait(asio::posix::descriptor_base::wait_read,
                               [self = shared_from_this(), &pipe](std::error_code ec) {
                                   if (!pipe.open)
                                       return;
                                   if (ec && !self->m_exited)
                                       return;
                                   self->drain(pipe);
                               });
}

void BashCommand::drain(Pipe &pipe) {
    char buffer[kReadChunk];
    // After the exit, whatever is left is read now: a background child holding the pipe must
    // not keep the command running.
    const int reads = m_exited ? 1 << 30 : kReadsPerWake;
    bool grew = false;
    bool ended = false;
    for (int i = 0; i < reads && !ended; ++i) {
        const ssize_t n = ::read(pipe.descriptor.native_handle(), buffer, sizeof buffer);
        if (n > 0) {
            if (writeAll(pipe.fileFd, buffer, static_cast<std::size_t>(n))) {
                pipe.size += static_cast<std::uint64_t>(n);
                grew = true;
            } else {
                log::warning("bash: cannot write the output of " + m_spec.id + ": " +
                             std::strerror(errno));
            }
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !m_exited) {
            break;
        } else {
            ended = true; // end of file, an error, or nothing left after the exit
        }
    }
    if (grew)
        changed();
    if (!ended) {
        // Empty for now, or the budget ran out: wait again, letting other work run between.
        readPipe(pipe);
        return;
    }
    pipe.open = false;
    boost::system::error_code ignored;
    pipe.descriptor.close(ignored);
    finishIfDone();
}

void BashCommand::watchExit() {
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, m_pid, 0));
    if (fd >= 0) {
        m_pidfd = std::make_unique<asio::posix::stream_descriptor>(m_io, fd);
        m_pidfd->async_wait(asio::posix::descriptor_base::wait_read,
                            [self = shared_from_this()](std::error_code ec) {
                                if (!ec)
                                    self->reap();
                            });
        return;
    }
    m_exitPoll.expires_after(kExitPollPeriod);
    m_exitPoll.async_wait([self = shared_from_this()](std::error_code ec) {
        if (ec)
            return;
        int status = 0;
        if (waitpid(self->m_pid, &status, WNOHANG) == 0)
            return self->watchExit();
        self->m_waitStatus = status;
        self->m_exited = true;
        self->reap();
    });
}

void BashCommand::reap() {
    if (!m_exited) {
        int status = 0;
        pid_t done;
        while ((done = waitpid(m_pid, &status, WNOHANG)) < 0 && errno == EINTR) {
        }
        if (done == 0) { // pidfd woke early; cannot happen, but never spin
            watchExit();
            return;
        }
        m_waitStatus = status;
        m_exited = true;
    }
    if (m_pidfd) {
        boost::system::error_code ignored;
        m_pidfd->close(ignored);
    }
    // The readers wake with operation_aborted, see m_exited and read what is left.
    for (Pipe *pipe : {m_out.get(), m_err.get()}) {
        if (pipe->open)
            pipe->descriptor.cancel();
    }
    finishIfDone();
}

void BashCommand::finishIfDone() {
    if (!m_exited || m_out->open || m_err->open || finished())
        return;
    if (WIFEXITED(m_waitStatus))
        m_exitCode = WEXITSTATUS(m_waitStatus);
    else if (WIFSIGNALED(m_waitStatus))
        m_exitCode = 128 + WTERMSIG(m_waitStatus); // as a shell reports it
    m_status = m_timedOut        ? CommandStatus::TimedOut
               : m_killRequested ? CommandStatus::Killed
                                 : CommandStatus::Completed;
    m_finishedAt = std::chrono::steady_clock::now();
    m_hardTimer.cancel();
    m_input.clear();
    if (m_stdin) {
        boost::system::error_code ignored;
        m_stdin->close(ignored);
    }
    changed();
}

void BashCommand::notifyOnChange(std::function<void()> waiter) {
    m_waiters.push_back(std::move(waiter));
}

void BashCommand::changed() {
    auto waiters = std::move(m_waiters);
    m_waiters.clear();
    for (auto &waiter : waiters)
        waiter();
}

bool BashCommand::write(std::string input) {
    if (finished() || !m_stdin || !m_stdin->is_open())
        return false;
    m_input.push_back(std::move(input));
    if (!m_writing)
        writeNext();
    return true;
}

void BashCommand::writeNext() {
    if (m_input.empty() || !m_stdin || !m_stdin->is_open()) {
        m_writing = false;
        return;
    }
    m_writing = true;
    asio::async_write(*m_stdin, asio::buffer(m_input.front()),
                      [self = shared_from_this()](std::error_code ec, std::size_t) {
                          if (ec) {
                              // The process closed its stdin: what is queued cannot arrive.
                              self->m_input.clear();
                              self->m_writing = false;
                              return;
                          }
                          self->m_input.pop_front();
                          self->writeNext();
                      });
}

bool BashCommand::kill(int signal) {
    if (m_exited || m_pid <= 0)
        return false;
    m_killRequested = true;
    return ::kill(-m_pid, signal) == 0 || ::kill(m_pid, signal) == 0;
}

} // namespace sbx
