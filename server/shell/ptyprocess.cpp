#include "server/shell/ptyprocess.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace sbx::pty {

namespace {

std::vector<std::string> mergedEnvironment(const std::vector<std::string> &extra) {
    std::vector<std::string> result;
    auto nameOf = [](const std::string &entry) {
        return entry.substr(0, entry.find('='));
    };
    for (char **entry = environ; entry && *entry; ++entry) {
        const std::string text(*entry);
        bool replaced = false;
        for (const std::string &e : extra)
            replaced = replaced || nameOf(e) == nameOf(text);
        if (!replaced)
            result.push_back(text);
    }
    result.insert(result.end(), extra.begin(), extra.end());
    return result;
}

} // namespace

std::optional<Child> spawn(const Spec &spec, std::string &error) {
    if (spec.argv.empty()) {
        error = "no program to run";
        return std::nullopt;
    }
    // Everything the child needs is built before fork: after it, only async-signal-safe calls.
    const std::vector<std::string> env = mergedEnvironment(spec.environment);
    std::vector<char *> envp;
    for (const std::string &entry : env)
        envp.push_back(const_cast<char *>(entry.c_str()));
    envp.push_back(nullptr);
    std::vector<char *> argv;
    for (const std::string &arg : spec.argv)
        argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    const char *dir = spec.workingDirectory.empty() ? nullptr : spec.workingDirectory.c_str();

    winsize size{};
    size.ws_col = spec.cols;
    size.ws_row = spec.rows;
    int master = -1;
    const pid_t server = getpid();
    const pid_t pid = forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0) {
        error = std::string("forkpty failed: ") + std::strerror(errno);
        return std::nullopt;
    }
    if (pid == 0) {
        // The server ignores SIGPIPE and an ignored signal survives exec: give the shell the
        // defaults a terminal program expects.
        for (int sig :
             {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU})
            std::signal(sig, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        // A server that is killed outright leaves no shell behind: the shell gets a hangup
        // as from a closed terminal (sessions are forked on the I/O thread, which lives as long
        // as the server).
        prctl(PR_SET_PDEATHSIG, SIGHUP);
        if (getppid() != server)
            _exit(129); // the server died before the line above took effect
        // No listening socket or client connection of the server leaks into the shell.
        close_range(3, ~0U, 0);
        if (dir && chdir(dir) != 0)
            _exit(126);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    fcntl(master, F_SETFD, FD_CLOEXEC);
    return Child{pid, master};
}

bool setSize(int master, unsigned short cols, unsigned short rows) {
    winsize size{};
    size.ws_col = cols;
    size.ws_row = rows;
    return ioctl(master, TIOCSWINSZ, &size) == 0;
}

pid_t foregroundGroup(int master) {
    return tcgetpgrp(master);
}

void signalSession(pid_t sessionId, int signal) {
    if (sessionId <= 0)
        return;
    ::kill(-sessionId, signal);
    DIR *proc = opendir("/proc");
    if (!proc)
        return;
    while (dirent *entry = readdir(proc)) {
        char *end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (!end || *end != '\0' || pid <= 0)
            continue;
        if (getsid(static_cast<pid_t>(pid)) == sessionId)
            ::kill(static_cast<pid_t>(pid), signal);
    }
    closedir(proc);
}

std::optional<int> reap(pid_t pid, bool block) {
    int status = 0;
    pid_t done = 0;
    do {
        done = waitpid(pid, &status, block ? 0 : WNOHANG);
    } while (done < 0 && errno == EINTR);
    if (done == 0)
        return std::nullopt;
    if (done < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

std::string processName(pid_t pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(file, name);
    return name;
}

std::string workingDirectory(pid_t pid) {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/cwd", ec);
    return ec ? std::string() : path.string();
}

} // namespace sbx::pty
