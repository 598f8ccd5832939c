#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sbx {

class ActivityEvents;

// AIO's CommandStatus (pending is internal to AIO and never reported here).
enum class CommandStatus { Running, Completed, TimedOut, Killed };
const char *commandStatusName(CommandStatus status);

struct BashCommandSpec {
    std::string id;
    std::string command;
    std::string workingDirectory;
    // "NAME=value" for this command only.
    std::vector<std::string> environment;
    // A script sourced before the command (the session's snapshot_path); empty: none.
    std::string snapshotPath;
    // Zero: none. On expiry the process group gets SIGKILL and the status is timed_out.
    std::chrono::milliseconds hardTimeout{0};
    // Where <id>.stdout and <id>.stderr go.
    std::string outputDirectory;
};

// One /v1/bash/exec: a bash process in its own process group whose stdout and stderr go, apart,
// to two files on disk (so output of any size costs no memory), read back by byte offset.
// Lives on the I/O thread: every member but the const getters and the output paths is called
// there.
class BashCommand final : public std::enable_shared_from_this<BashCommand> {
public:
    // Null with error set when the process cannot start.
    static std::shared_ptr<BashCommand> start(boost::asio::io_context &io, BashCommandSpec spec,
                                              ActivityEvents &events, std::string &error);
    ~BashCommand();
    BashCommand(const BashCommand &) = delete;
    BashCommand &operator=(const BashCommand &) = delete;

    const std::string &id() const { return m_spec.id; }
    const std::string &command() const { return m_spec.command; }
    const std::string &stdoutPath() const { return m_stdoutPath; }
    const std::string &stderrPath() const { return m_stderrPath; }
    CommandStatus status() const { return m_status; }
    bool finished() const { return m_status != CommandStatus::Running; }
    std::optional<int> exitCode() const { return m_exitCode; }
    // Bytes written to each file so far; a reader may read up to these from another thread.
    std::uint64_t stdoutSize() const { return m_outSize; }
    std::uint64_t stderrSize() const { return m_errSize; }
    std::chrono::steady_clock::time_point finishedAt() const { return m_finishedAt; }

    // Calls `waiter` once, on the I/O thread, at the next output or at the end.
    void notifyOnChange(std::function<void()> waiter);
    // Queues input for the process's stdin. False when the process no longer reads it.
    bool write(std::string input);
    // Sends the signal to the process group; the status becomes killed when the process ends.
    bool kill(int signal);

private:
    struct Pipe;
    BashCommand(boost::asio::io_context &io, BashCommandSpec spec, ActivityEvents &events);
    bool spawn(std::string &error);
    void readPipe(Pipe &pipe);
    void drain(Pipe &pipe);
    void watchExit();
    void reap();
    void finishIfDone();
    void writeNext();
    void changed();
    void recordGroup() const;

    boost::asio::io_context &m_io;
    BashCommandSpec m_spec;
    ActivityEvents &m_events;
    std::string m_stdoutPath;
    std::string m_stderrPath;
    std::string m_groupPath; // its process group, for reapLeftoverGroups()
    pid_t m_pid = -1;
    std::unique_ptr<Pipe> m_out;
    std::unique_ptr<Pipe> m_err;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_stdin;
    std::deque<std::string> m_input;
    bool m_writing = false;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_pidfd;
    boost::asio::steady_timer m_exitPoll;
    boost::asio::steady_timer m_hardTimer;
    std::uint64_t m_outSize = 0;
    std::uint64_t m_errSize = 0;
    bool m_exited = false;
    int m_waitStatus = 0;
    bool m_killRequested = false;
    bool m_timedOut = false;
    CommandStatus m_status = CommandStatus::Running;
    std::optional<int> m_exitCode;
    std::chrono::steady_clock::time_point m_finishedAt;
    std::vector<std::function<void()>> m_waiters;
};

// Kills the process groups of commands a previous server left running (it was SIGKILLed or
// crashed, so nothing killed them), from the records in its output directory; returns how many.
int reapLeftoverGroups(const std::string &outputDirectory);

} // namespace sbx
