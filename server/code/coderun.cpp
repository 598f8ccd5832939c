#include "server/code/coderun.h"

#include "server/core/process.h"

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sbx {

namespace asio = boost::asio;

namespace {

// Without pidfd (kernels before 5.3) the exit is polled.
constexpr auto kExitPollPeriod = std::chrono::milliseconds(20);

class CodeRun final : public std::enable_shared_from_this<CodeRun> {
public:
    CodeRun(asio::io_context &io, CodeRunSpec spec, std::function<void(CodeRunResult)> done)
        : m_spec(std::move(spec))
        , m_done(std::move(done))
        , m_stdin(io)
        , m_stdout(io)
        , m_stderr(io)
        , m_pidfd(io)
        , m_timer(io)
        , m_exitPoll(io) {}
    ~CodeRun() {
        if (m_pid > 0 && !m_exited) {
            ::kill(-m_pid, SIGKILL);
            int status = 0;
            while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
    }

    void start() {
        if (!spawn()) {
            m_result.started = false;
            return complete();
        }
        m_result.started = true;
        asio::async_write(m_stdin, asio::buffer(m_spec.input),
                          [self = shared_from_this()](std::error_code, std::size_t) {
                              // Written, or the program stopped reading: either way no more.
                              boost::system::error_code ignored;
                              self->m_stdin.close(ignored);
                          });
        read(m_stdout, m_outBuffer, m_result.out, m_result.droppedOut);
        read(m_stderr, m_errBuffer, m_result.err, m_result.droppedErr);
        watchExit();
        m_timer.expires_after(m_spec.timeout);
        m_timer.async_wait([self = shared_from_this()](std::error_code ec) {
            if (ec || self->m_exited)
                return;
            self->m_result.timedOut = true;
            ::kill(-self->m_pid, SIGKILL);
        });
    }

private:
    using Buffer = std::array<char, 64 * 1024>;

    bool spawn() {
        int in[2], out[2], err[2];
        if (::pipe2(in, O_CLOEXEC) != 0)
            return fail("cannot create pipes");
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            return fail("cannot create pipes");
        }
        if (::pipe2(err, O_CLOEXEC) != 0) {
            for (const int fd : {in[0], in[1], out[0], out[1]})
                ::close(fd);
            return fail("cannot create pipes");
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        posix_spawn_file_actions_addchdir_np(&actions, m_spec.workingDirectory.c_str());
        posix_spawnattr_t attributes;
        // A group of its own: the timeout reaches what the code started too.
        initChildAttributes(attributes);
        std::vector<std::string> args = m_spec.argv;
        std::vector<std::string> env = environmentWith({});
        std::vector<char *> argv, envp;
        for (std::string &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        for (std::string &e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        const int rc = posix_spawn(&m_pid, args.front().c_str(), &actions, &attributes, argv.data(),
                                   envp.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        for (const int fd : {in[0], out[1], err[1]})
            ::close(fd);
        if (rc != 0) {
            m_pid = -1;
            for (const int fd : {in[1], out[0], err[0]})
                ::close(fd);
            return fail("cannot run " + args.front() + " in " + m_spec.workingDirectory + ": " +
                        std::strerror(rc));
        }
        for (const int fd : {in[1], out[0], err[0]})
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        m_stdin.assign(in[1]);
        m_stdout.assign(out[0]);
        m_stderr.assign(err[0]);
        return true;
    }

    bool fail(std::string error) {
        m_result.error = std::move(error);
        return false;
    }

    void keep(std::string &text, std::size_t &dropped, const char *data, std::size_t size) {
        const std::size_t room =
            m_spec.maxOutput > text.size() ? m_spec.maxOutput - text.size() : 0;
        const std::size_t taken = std::min(room, size);
        text.append(data, taken);
        dropped += size - taken;
    }

    void read(asio::posix::stream_descriptor &pipe, Buffer &buffer, std::string &text,
              std::size_t &dropped) {
        pipe.async_read_some(asio::buffer(buffer),
                             [self = shared_from_this(), &pipe, &buffer, &text,
                              &dropped](std::error_code ec, std::size_t n) {
                                 if (n > 0)
                                     self->keep(text, dropped, buffer.data(), n);
                                 if (ec || self->m_finished) {
                                     boost::system::error_code ignored;
                                     pipe.close(ignored);
                                     self->finishIfDone();
                                     return;
                                 }
                                 self->read(pipe, buffer, text, dropped);
                             });
    }

    // After the exit: what is in the pipes now is the program's; a background child still
    // holding them must not keep the answer waiting.
    void drainNow(asio::posix::stream_descriptor &pipe, Buffer &buffer, std::string &text,
                  std::size_t &dropped) {
        while (pipe.is_open()) {
            const ssize_t n = ::read(pipe.native_handle(), buffer.data(), buffer.size());
            if (n > 0) {
                keep(text, dropped, buffer.data(), static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        boost::system::error_code ignored;
        pipe.close(ignored); // the pending read ends with operation_aborted
    }

    void watchExit() {
        const int fd = static_cast<int>(::syscall(SYS_pidfd_open, m_pid, 0));
        if (fd >= 0) {
            m_pidfd.assign(fd);
            m_pidfd.async_wait(asio::posix::descriptor_base::wait_read,
                               [self = shared_from_this()](std::error_code ec) {
                                   if (!ec)
                                       self->reap(true);
                               });
            return;
        }
        m_exitPoll.expires_after(kExitPollPeriod);
        m_exitPoll.async_wait([self = shared_from_this()](std::error_code ec) {
            if (!ec)
                self->reap(false);
        });
    }

    void reap(bool fromPidfd) {
        int status = 0;
        pid_t done;
        while ((done = ::waitpid(m_pid, &status, WNOHANG)) < 0 && errno == EINTR) {
        }
        if (done == 0) {
            if (!fromPidfd)
                watchExit();
            return;
        }
        m_exited = true;
        if (WIFEXITED(status))
            m_result.exitCode = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            m_result.exitCode = 128 + WTERMSIG(status);
        m_timer.cancel();
        boost::system::error_code ignored;
        m_pidfd.close(ignored);
        drainNow(m_stdout, m_outBuffer, m_result.out, m_result.droppedOut);
        drainNow(m_stderr, m_errBuffer, m_result.err, m_result.droppedErr);
        finishIfDone();
    }

    void finishIfDone() {
        if (m_finished || !m_exited || m_stdout.is_open() || m_stderr.is_open())
            return;
        complete();
    }

    void complete() {
        m_finished = true;
        boost::system::error_code ignored;
        m_stdin.close(ignored);
        auto done = std::move(m_done);
        m_done = nullptr;
        if (done)
            done(std::move(m_result));
    }

    CodeRunSpec m_spec;
    std::function<void(CodeRunResult)> m_done;
    CodeRunResult m_result;
    asio::posix::stream_descriptor m_stdin;
    asio::posix::stream_descriptor m_stdout;
    asio::posix::stream_descriptor m_stderr;
    asio::posix::stream_descriptor m_pidfd;
    asio::steady_timer m_timer;
    asio::steady_timer m_exitPoll;
    Buffer m_outBuffer{};
    Buffer m_errBuffer{};
    pid_t m_pid = -1;
    bool m_exited = false;
    bool m_finished = false;
};

} // namespace

void runCode(asio::io_context &io, CodeRunSpec spec, std::function<void(CodeRunResult)> done) {
    std::make_shared<CodeRun>(io, std::move(spec), std::move(done))->start();
}

} // namespace sbx
