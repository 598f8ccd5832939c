#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/shell/outputring.h"
#include "server/shell/vttracker.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace sbx {

using SteadyClock = std::chrono::steady_clock;
using SystemClock = std::chrono::system_clock;

struct SessionSpec {
    std::string id;
    // argv of the shell, environment additions, starting directory.
    std::vector<std::string> argv;
    std::vector<std::string> environment;
    std::string workingDirectory;
    std::size_t ringBytes = 1024 * 1024;
    int noChangeTimeout = 120;
};

// The command a session runs or ran last: an exec'd one, or one typed in a terminal (then its
// text is unknown). Statuses are AIO's BashCommandStatus values.
struct CommandRecord {
    std::uint64_t seq = 0;
    std::string command;
    std::string status = "completed";
    std::optional<int> exitCode;
    // Plain text after the start marker, without escape sequences; bounded (the head goes).
    std::string output;
    // Bytes trimmed from the head of output since the start marker: output's first byte is
    // byte outputDropped of the command's output, so a follower keeps its place (SSE).
    std::uint64_t outputDropped = 0;
    // The prompt shown before the command, as plain text.
    std::string ps1;
    bool started = false;
    bool finished = true;
    SteadyClock::time_point lastOutputAt{};
};

enum class SessionEnd { None, Exited, Deleted, Stopping };

// One shell in a PTY: reads its output into the ring, runs the VT tracker over it, follows
// the command running in it, and wakes whoever watches the session (terminal clients, exec
// requests) on every change. Lives on the I/O thread.
class ShellSession final : public std::enable_shared_from_this<ShellSession> {
public:
    static std::shared_ptr<ShellSession> start(boost::asio::io_context &io, SessionSpec spec,
                                               std::string &error);
    ~ShellSession();
    ShellSession(const ShellSession &) = delete;
    ShellSession &operator=(const ShellSession &) = delete;

    const std::string &id() const { return m_spec.id; }
    boost::asio::io_context &io() { return m_io; }
    pid_t shellPid() const { return m_pid; }
    const OutputRing &ring() const { return m_ring; }
    bool altScreen() const { return m_tracker.altScreen(); }
    // The shell printed its first prompt (its startup files ran).
    bool ready() const { return m_ready; }
    const CommandRecord &command() const { return m_command; }
    CommandRecord &command() { return m_command; }
    int noChangeTimeout() const { return m_noChangeTimeout; }
    void setNoChangeTimeout(int seconds) { m_noChangeTimeout = seconds; }
    SystemClock::time_point createdAt() const { return m_createdAt; }
    SystemClock::time_point lastUsedAt() const { return m_lastUsedAt; }
    void touch() { m_lastUsedAt = SystemClock::now(); }
    std::string workingDirectory() const;

    // Timers cancelled on every change (output, marker, end); a watcher re-checks the state.
    void watch(boost::asio::steady_timer *timer) { m_watchers.insert(timer); }
    void unwatch(boost::asio::steady_timer *timer) { m_watchers.erase(timer); }
    // Terminal clients attached; sessions without any may be reaped when idle.
    void attach() {
        ++m_clients;
        touch();
    }
    void detach() {
        --m_clients;
        touch();
    }
    int clients() const { return m_clients; }

    // Queues input for the PTY; false (nothing queued) when the program has not read the
    // last megabyte of input.
    bool write(std::string_view bytes);
    // Types a command line into the shell and starts a new command record; its seq.
    std::uint64_t typeCommand(const std::string &command, const std::string &line);
    void resize(unsigned short cols, unsigned short rows);
    unsigned short cols() const { return m_cols; }
    unsigned short rows() const { return m_rows; }
    // Makes a full-screen program repaint: one row less, then back (two SIGWINCHs).
    void nudge();
    // The shell itself owns the terminal and no command is under way.
    bool idle() const;
    // What runs in the foreground when it is not the shell ("sleep (pid 123)"), else empty.
    std::string foregroundHolder() const;
    // Signals the foreground process group when it is not the shell; false when it is.
    bool signalForeground(int signal);

    // Kills every process of the shell's terminal session and ends the session.
    void terminate(SessionEnd why);
    SessionEnd ended() const { return m_end; }
    std::optional<int> exitCode() const { return m_exitCode; }
    // The shell exited while something else keeps the PTY open (a background job): ends the
    // session. Polled by the registry.
    void checkShellExited();
    // Called once the session ended, on the I/O thread.
    void setOnEnded(std::function<void(ShellSession &)> onEnded) { m_onEnded = std::move(onEnded); }

private:
    ShellSession(boost::asio::io_context &io, SessionSpec spec);
    void startReading();
    void consume(std::string_view bytes);
    void applyMarker(const ShellMarker &marker, std::string_view text, std::size_t &textUsed);
    void appendCommandOutput(std::string_view text);
    void flushInput();
    void onPtyClosed();
    void finish(SessionEnd why, std::optional<int> exitCode);
    void notify();
    // Collects the shell's exit status, now or later; no zombie stays behind.
    std::optional<int> tryReap(bool block);
    void reapInBackground();

    boost::asio::io_context &m_io;
    SessionSpec m_spec;
    pid_t m_pid = -1;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_pty;
    std::unique_ptr<boost::asio::steady_timer> m_nudgeTimer;
    OutputRing m_ring;
    VtTracker m_tracker;
    VtEvents m_events;
    CommandRecord m_command;
    // Plain text since the last prompt marker: the prompt, then the echo of a typed line.
    std::string m_promptText;
    std::string m_typedLine;
    bool m_collectingPrompt = false;
    bool m_ready = false;
    int m_noChangeTimeout = 120;
    int m_clients = 0;
    unsigned short m_cols = 80;
    unsigned short m_rows = 24;
    std::vector<char> m_readBuffer = std::vector<char>(64 * 1024);
    // Input waiting for the PTY, and the piece being written (stable while the write runs).
    std::string m_input;
    std::string m_inFlight;
    bool m_writing = false;
    SessionEnd m_end = SessionEnd::None;
    std::optional<int> m_exitCode;
    bool m_reaped = false;
    SystemClock::time_point m_createdAt = SystemClock::now();
    SystemClock::time_point m_lastUsedAt = m_createdAt;
    std::set<boost::asio::steady_timer *> m_watchers;
    std::function<void(ShellSession &)> m_onEnded;
};

} // namespace sbx
