#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

// PTY and process-group plumbing for shell sessions (forkpty, /proc); no Asio here.
namespace sbx::pty {

struct Spec {
    // argv[0] is the program path.
    std::vector<std::string> argv;
    std::string workingDirectory;
    // "NAME=value" entries replacing or added to the server's environment.
    std::vector<std::string> environment;
    unsigned short cols = 80;
    unsigned short rows = 24;
};

struct Child {
    pid_t pid = -1;
    // Non-blocking, close-on-exec.
    int master = -1;
};

// Starts the program as a session leader on a new PTY. Error text on failure.
std::optional<Child> spawn(const Spec &spec, std::string &error);
bool setSize(int master, unsigned short cols, unsigned short rows);
// The terminal's foreground process group, -1 if unknown.
pid_t foregroundGroup(int master);
// Sends signal to every process of the terminal session led by sessionId (the shell, its jobs,
// their children), since jobs run in process groups of their own.
void signalSession(pid_t sessionId, int signal);
// Exit code of pid once it exited (128 + signal when a signal ended it); nullopt while it runs.
std::optional<int> reap(pid_t pid, bool block);
// /proc/PID/comm, or empty.
std::string processName(pid_t pid);
// /proc/PID/cwd, or empty.
std::string workingDirectory(pid_t pid);

} // namespace sbx::pty
