#include "server/jupyter/kernelprocess.h"

#include "server/core/log.h"
#include "server/core/process.h"
#include "server/jupyter/kernelwire.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sbx {

namespace {

constexpr std::size_t kTailBytes = 4096;
// Unix socket paths hold at most 107 bytes; the folder leaves room for "/k-1".
constexpr std::size_t kMaxDirLength = 90;

constexpr const char *kFolderPrefix = "sbx-kernel-";
// In each folder: the pid of the server that made it.
constexpr const char *kOwnerFile = "server.pid";
const char *const kFolderFiles[] = {"k-1",     "k-2", "k-3", "k-4", "k-5", "connection.json",
                                    kOwnerFile};

void removeFolder(const std::string &dir) {
    for (const char *name : kFolderFiles)
        ::unlink((dir + "/" + name).c_str());
    ::rmdir(dir.c_str());
}

std::string runtimeParent() {
    const char *tmp = std::getenv("TMPDIR");
    if (tmp && *tmp == '/' && std::strlen(tmp) + 20 < kMaxDirLength)
        return tmp;
    return "/tmp";
}

bool writeFile(const std::string &path, const std::string &text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ::close(fd);
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return ::close(fd) == 0;
}

} // namespace

std::unique_ptr<KernelProcess> KernelProcess::launch(const KernelSpec &spec,
                                                     const std::string &workingDirectory,
                                                     std::string &error) {
    std::unique_ptr<KernelProcess> kernel(new KernelProcess());
    std::string pattern = runtimeParent() + "/" + kFolderPrefix + "XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        error = std::string("cannot create the kernel's folder: ") + std::strerror(errno);
        return nullptr;
    }
    kernel->m_dir = pattern;
    kernel->m_key = randomHexKey();
    const nlohmann::json connection = {{"transport", "ipc"},
                                       {"ip", kernel->m_dir + "/k"},
                                       {"shell_port", 1},
                                       {"iopub_port", 2},
                                       {"stdin_port", 3},
                                       {"control_port", 4},
                                       {"hb_port", 5},
                                       {"key", kernel->m_key},
                                       {"signature_scheme", "hmac-sha256"},
                                       {"kernel_name", spec.name}};
    const std::string connectionFile = kernel->m_dir + "/connection.json";
    if (!writeFile(kernel->m_dir + "/" + kOwnerFile, std::to_string(::getpid())) ||
        !writeFile(connectionFile, connection.dump())) {
        error = std::string("cannot write the connection file: ") + std::strerror(errno);
        return nullptr;
    }

    int output[2];
    if (::pipe2(output, O_CLOEXEC) != 0) {
        error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return nullptr;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDERR_FILENO);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
    posix_spawnattr_t attributes;
    // A group of its own: an interrupt or a kill reaches what the kernel started too.
    initChildAttributes(attributes);

    std::vector<std::string> args = spec.argv;
    for (std::string &arg : args) {
        if (arg == "{connection_file}")
            arg = connectionFile;
    }
    std::vector<std::string> extra = spec.environment;
    // ipykernel ends itself when its parent is gone (it polls for a parent of pid 1).
    if (::getpid() != 1)
        extra.push_back("JPY_PARENT_PID=" + std::to_string(::getpid()));
    // Python 3.11's debugger otherwise warns about frozen modules at every start.
    extra.push_back("PYDEVD_DISABLE_FILE_VALIDATION=1");
    // The server's own environment has no secret left in it (server/core/secretenv.h).
    std::vector<std::string> env = environmentWith(extra);
    std::vector<char *> argv, envp;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const int rc = posix_spawn(&kernel->m_pid, args.front().c_str(), &actions, &attributes,
                               argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(output[1]);
    if (rc != 0) {
        ::close(output[0]);
        kernel->m_pid = -1;
        error =
            "cannot start " + args.front() + " in " + workingDirectory + ": " + std::strerror(rc);
        return nullptr;
    }
    ::fcntl(output[0], F_SETFL, ::fcntl(output[0], F_GETFL) | O_NONBLOCK);
    kernel->m_outputFd = output[0];
    kernel->m_pidfd = static_cast<int>(::syscall(SYS_pidfd_open, kernel->m_pid, 0));
    kernel->m_label = "kernel " + std::to_string(kernel->m_pid) + ": ";
    return kernel;
}

KernelProcess::~KernelProcess() {
    if (m_pid > 0 && !m_exited) {
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (m_pidfd >= 0)
        ::close(m_pidfd);
    if (m_outputFd >= 0)
        ::close(m_outputFd);
    if (!m_dir.empty())
        removeFolder(m_dir);
}

void KernelProcess::removeStaleFolders() {
    const std::string parent = runtimeParent();
    DIR *dir = ::opendir(parent.c_str());
    if (!dir)
        return;
    std::vector<std::string> stale;
    while (const dirent *entry = ::readdir(dir)) {
        if (std::strncmp(entry->d_name, kFolderPrefix, std::strlen(kFolderPrefix)) != 0)
            continue;
        const std::string path = parent + "/" + entry->d_name;
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
            info.st_uid != ::geteuid())
            continue;
        std::ifstream owner(path + "/" + kOwnerFile);
        long pid = 0;
        // Only a folder whose server is known to be gone (a reused pid keeps it, harmlessly).
        if (owner >> pid && pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            stale.push_back(path);
    }
    ::closedir(dir);
    for (const std::string &path : stale)
        removeFolder(path);
    if (!stale.empty())
        log::info("jupyter: removed " + std::to_string(stale.size()) +
                  " kernel folders left by a server that is gone");
}

std::string KernelProcess::endpoint(KernelChannel channel) const {
    return "ipc://" + m_dir + "/k-" + std::to_string(static_cast<int>(channel));
}

void KernelProcess::readOutput() {
    if (m_outputFd < 0)
        return;
    char buffer[16 * 1024];
    for (int reads = 0; reads < 16; ++reads) {
        const ssize_t n = ::read(m_outputFd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            ::close(m_outputFd);
            m_outputFd = -1;
            return;
        }
        m_tail.append(buffer, static_cast<std::size_t>(n));
        if (m_tail.size() > kTailBytes)
            m_tail.erase(0, m_tail.size() - kTailBytes);
        if (log::verbose()) {
            m_partialLine.append(buffer, static_cast<std::size_t>(n));
            std::size_t start = 0;
            for (std::size_t nl; (nl = m_partialLine.find('\n', start)) != std::string::npos;
                 start = nl + 1)
                log::debug(m_label + m_partialLine.substr(start, nl - start));
            m_partialLine.erase(0, start);
        }
    }
}

std::string KernelProcess::outputTail() const {
    std::string tail = m_tail;
    // Start on a line, and on a character.
    if (m_tail.size() >= kTailBytes) {
        const auto nl = tail.find('\n');
        if (nl != std::string::npos && nl + 1 < tail.size())
            tail.erase(0, nl + 1);
    }
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
        tail.pop_back();
    return tail;
}

bool KernelProcess::reap() {
    if (m_exited || m_pid <= 0)
        return true;
    siginfo_t info{};
    // WNOWAIT leaves the zombie, which keeps the pid (and so the group id) from being reused
    // while what the kernel started is killed with it.
    while (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0 &&
           errno == EINTR) {
    }
    if (info.si_pid == 0)
        return false;
    ::kill(-m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_status = status;
    m_exited = true;
    if (m_pidfd >= 0) {
        ::close(m_pidfd);
        m_pidfd = -1;
    }
    return true;
}

std::string KernelProcess::exitDescription() const {
    if (!m_exited)
        return "is running";
    if (WIFEXITED(m_status))
        return "exited with code " + std::to_string(WEXITSTATUS(m_status));
    if (WIFSIGNALED(m_status)) {
        const int signal = WTERMSIG(m_status);
        const char *name = ::strsignal(signal);
        return "was killed by signal " + std::to_string(signal) +
               (name ? std::string(" (") + name + ")" : std::string());
    }
    return "ended";
}

void KernelProcess::interrupt() {
    if (m_pid > 0 && !m_exited)
        ::kill(-m_pid, SIGINT);
}

void KernelProcess::kill() {
    if (m_pid > 0 && !m_exited)
        ::kill(-m_pid, SIGKILL);
}

} // namespace sbx
