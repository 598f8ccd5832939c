#include "server/core/process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace sbx {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

void initChildAttributes(posix_spawnattr_t &attributes) {
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    // The server ignores SIGPIPE and handles SIGTERM/SIGINT; a child starts with neither.
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    sigset_t emptyMask;
    sigemptyset(&emptyMask);
    posix_spawnattr_setsigmask(&attributes, &emptyMask);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETPGROUP);
}

std::vector<std::string> environmentWith(const std::vector<std::string> &extra) {
    std::vector<std::string> env;
    for (char **entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        bool replaced = false;
        for (const std::string &override : extra) {
            if (std::string_view(override).substr(0, override.find('=')) == name)
                replaced = true;
        }
        if (!replaced)
            env.emplace_back(text);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

namespace {

std::vector<char *> pointers(std::vector<std::string> &strings) {
    std::vector<char *> result;
    result.reserve(strings.size() + 1);
    for (std::string &s : strings)
        result.push_back(s.data());
    result.push_back(nullptr);
    return result;
}

// Spawns in a new process group so a timeout or cancel also reaches grandchildren.
pid_t spawn(const ProcessSpec &spec, int outputFd, std::string &error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outputFd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, outputFd, STDERR_FILENO);
    // Our listening socket and connections must not outlive us in a hook's children.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (!spec.workingDirectory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, spec.workingDirectory.c_str());

    posix_spawnattr_t attributes;
    initChildAttributes(attributes);

    std::vector<std::string> args = spec.argv;
    std::vector<std::string> env = environmentWith(spec.extraEnvironment);
    auto argPointers = pointers(args);
    auto envPointers = pointers(env);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, args.front().c_str(), &actions, &attributes,
                                argPointers.data(), envPointers.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) {
        error = "cannot run " + spec.argv.front() + ": " + std::strerror(rc);
        return -1;
    }
    return pid;
}

// kill(-pgid, 0) also counts zombies, which an init slow to reap leaves in the group.
bool groupRuns(pid_t pgid) {
    if (::kill(-pgid, 0) != 0)
        return false;
    DIR *proc = opendir("/proc");
    if (!proc)
        return true;
    bool found = false;
    while (const dirent *entry = readdir(proc)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        const std::string path = std::string("/proc/") + entry->d_name + "/stat";
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        char text[512];
        const ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        if (n <= 0)
            continue;
        text[n] = '\0';
        // "pid (comm) state ppid pgrp ...": comm may hold anything, so from the last ')'.
        const char *end = std::strrchr(text, ')');
        char state = 0;
        int parent = 0;
        int group = 0;
        if (end && std::sscanf(end + 1, " %c %d %d", &state, &parent, &group) == 3 &&
            group == pgid && state != 'Z' && state != 'X') {
            found = true;
            break;
        }
    }
    closedir(proc);
    return found;
}

void fillStatus(ProcessResult &result, int status) {
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.signal = WTERMSIG(status);
}

} // namespace

ProcessResult runProcess(const ProcessSpec &spec, const LineSink &onLine) {
    ProcessResult result;
    if (spec.argv.empty()) {
        result.error = "empty command";
        return result;
    }
    int fds[2];
    // O_CLOEXEC: a child spawned meanwhile by another thread must not hold our write end,
    // or this reader would wait for that child's exit to see end of file.
    if (pipe2(fds, O_CLOEXEC) != 0) {
        result.error = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    const pid_t pid = spawn(spec, fds[1], result.error);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return result;
    }
    result.started = true;

    const auto start = Clock::now();
    const bool limited = spec.timeout.count() > 0;
    std::string pending;
    bool eof = false;
    bool killed = false;
    // When SIGTERM went out: the moment SIGKILL follows.
    std::optional<Clock::time_point> killAt;
    auto signalGroup = [&](int sig) {
        ::kill(-pid, sig);
    };

    auto flushLines = [&] {
        std::size_t newline;
        while ((newline = pending.find('\n')) != std::string::npos) {
            onLine(std::string_view(pending).substr(0, newline));
            pending.erase(0, newline + 1);
        }
        // A process that never ends a line must not grow this buffer without bound.
        if (pending.size() > 64 * 1024) {
            onLine(pending);
            pending.clear();
        }
    };
    const bool bounded = limited || spec.cancel;
    int status = 0;
    bool reaped = false;
    for (;;) {
        if (!killed) {
            const auto now = Clock::now();
            if (limited && !result.timedOut && now - start >= spec.timeout) {
                result.timedOut = true;
                if (spec.timeoutGrace.count() > 0 && !killAt) {
                    signalGroup(SIGTERM);
                    killAt = now + spec.timeoutGrace;
                } else if (!killAt) {
                    signalGroup(SIGKILL);
                    killed = true;
                }
            } else if (spec.cancel && spec.cancel->load() && !killAt) {
                result.cancelled = true;
                signalGroup(SIGTERM);
                killAt = now + std::chrono::seconds(3);
            } else if (killAt && now >= *killAt) {
                signalGroup(SIGKILL);
                killed = true;
            }
        }
        if (eof) {
            // Output closed but the process may live on: keep to the limits while waiting.
            const pid_t done = waitpid(pid, &status, bounded && !killed ? WNOHANG : 0);
            if (done == pid) {
                reaped = true;
                break;
            }
            if (done < 0 && errno != EINTR)
                break;
            if (done == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        if (poll(&pfd, 1, 100) > 0) {
            char buffer[4096];
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n > 0) {
                pending.append(buffer, static_cast<std::size_t>(n));
                flushLines();
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                eof = true;
            }
            continue;
        }
        // A background grandchild may keep the pipe open after the process itself is gone.
        if (waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            break;
        }
    }
    // What the process wrote before it exited is already in the pipe: take it without blocking.
    if (!eof) {
        pollfd pfd{fds[0], POLLIN, 0};
        while (poll(&pfd, 1, 0) > 0) {
            char buffer[4096];
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n <= 0)
                break;
            pending.append(buffer, static_cast<std::size_t>(n));
        }
        flushLines();
    }
    if (!pending.empty())
        onLine(pending);
    close(fds[0]);
    if (killAt && !killed) {
        while (Clock::now() < *killAt && groupRuns(pid))
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (groupRuns(pid))
            signalGroup(SIGKILL);
    }
    if (reaped)
        fillStatus(result, status);
    return result;
}

ProcessResult runCaptured(const ProcessSpec &spec, std::string &output, std::size_t maxOutput) {
    output.clear();
    return runProcess(spec, [&](std::string_view line) {
        if (output.size() >= maxOutput)
            return;
        output.append(line.substr(0, maxOutput - output.size()));
        output.push_back('\n');
    });
}

std::optional<std::string> findExecutable(std::string_view name) {
    if (name.find('/') != std::string_view::npos)
        return access(std::string(name).c_str(), X_OK) == 0 ? std::optional(std::string(name))
                                                            : std::nullopt;
    const char *path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const std::size_t colon = dirs.find(':');
        std::string dir(dirs.substr(0, colon));
        if (dir.empty())
            dir = ".";
        const std::string candidate = dir + "/" + std::string(name);
        struct stat info {};
        if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
            access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (colon == std::string_view::npos)
            break;
        dirs.remove_prefix(colon + 1);
    }
    return std::nullopt;
}

} // namespace sbx
