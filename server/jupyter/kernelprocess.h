#pragma once

#include "server/jupyter/kernelspecs.h"

#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace sbx {

enum class KernelChannel { Shell = 1, IoPub = 2, Stdin = 3, Control = 4, Heartbeat = 5 };

// One kernel process: its private folder (0700, under $TMPDIR or /tmp, so that the Unix socket
// paths stay short) with the connection file and the ipc sockets, the process in a group of
// its own with a sanitized environment, a pidfd for its end and a pipe carrying its stdout and
// stderr. Not thread-safe: the kernel hub's thread owns it.
class KernelProcess final {
public:
    // Null with error set when the folder, the connection file or the process cannot be made.
    static std::unique_ptr<KernelProcess>
    launch(const KernelSpec &spec, const std::string &workingDirectory, std::string &error);
    // Kills the group if it still runs, reaps the process and removes the folder.
    ~KernelProcess();
    KernelProcess(const KernelProcess &) = delete;
    KernelProcess &operator=(const KernelProcess &) = delete;

    pid_t pid() const { return m_pid; }
    // Readable once the process has ended; -1 on kernels without pidfd (then poll reap()).
    int pidfd() const { return m_pidfd; }
    // The kernel's stdout and stderr; -1 once they reached end of file.
    int outputFd() const { return m_outputFd; }
    const std::string &key() const { return m_key; }
    // "ipc:///tmp/sbx-kernel-XXXXXX/k-1".
    std::string endpoint(KernelChannel channel) const;

    // Reads what the kernel printed: logged (verbose) and the last few KiB kept for a death
    // report.
    void readOutput();
    std::string outputTail() const;
    // True once the process has ended (waits for nothing).
    bool reap();
    bool exited() const { return m_exited; }
    // "exited with code 1", "was killed by signal 9 (Killed)".
    std::string exitDescription() const;
    // SIGINT to the group, as Jupyter interrupts a kernel.
    void interrupt();
    void kill();

    // Removes the folders that kernels of a server no longer running left behind (a server
    // killed outright cannot remove them; its kernels end by themselves). Blocking: a readdir.
    static void removeStaleFolders();

private:
    KernelProcess() = default;

    std::string m_dir;
    std::string m_key;
    std::string m_label;
    pid_t m_pid = -1;
    int m_pidfd = -1;
    int m_outputFd = -1;
    bool m_exited = false;
    int m_status = 0;
    std::string m_tail;
    std::string m_partialLine;
};

} // namespace sbx
