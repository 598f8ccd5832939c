#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sbx {

struct McpLaunch {
    // For log lines: the configured server name.
    std::string name;
    // The executable's path; argv[0] is what the configuration wrote.
    std::string program;
    std::vector<std::string> argv;
    // The whole environment of the child, "NAME=value".
    std::vector<std::string> environment;
    std::string workingDirectory;
};

// What one JSON-RPC request came to.
struct RpcOutcome {
    enum class Kind { Result, Error, Timeout, Ended };
    Kind kind = Kind::Result;
    // The result, or the error object {code, message, data}.
    nlohmann::json value;
    // For Timeout and Ended: what happened, for a person.
    std::string message;
};

// One stdio MCP server process and the JSON-RPC 2.0 conversation with it: newline-delimited
// messages on its stdin and stdout, any number of requests in flight matched by id, each with
// its own timeout; stderr goes to the log (bounded) and a short tail kept for error messages.
// Lives on the I/O thread; nothing in it blocks (posix stream descriptors, pidfd).
class McpProcess final : public std::enable_shared_from_this<McpProcess> {
public:
    using Reply = std::function<void(RpcOutcome)>;
    using NotificationHandler = std::function<void(const std::string &, const nlohmann::json &)>;
    using ExitHandler = std::function<void(const std::string &)>;

    // In a process group of its own; null with error set when it cannot start.
    static std::shared_ptr<McpProcess> start(boost::asio::io_context &io, McpLaunch launch,
                                             std::string &error);
    ~McpProcess();
    McpProcess(const McpProcess &) = delete;
    McpProcess &operator=(const McpProcess &) = delete;

    // The reply comes once, on the I/O thread, never from within this call.
    void request(const std::string &method, nlohmann::json params,
                 std::chrono::milliseconds timeout, Reply reply);
    void notify(const std::string &method, nlohmann::json params);
    void setNotificationHandler(NotificationHandler handler);
    // Called once, after the process ended and every pending request was answered Ended.
    void setExitHandler(ExitHandler handler);

    // Closes its stdin and sends SIGTERM to the group, SIGKILL after grace.
    void stop(std::chrono::milliseconds grace);
    // For a server that stops: answers what is pending, closes every descriptor and sends
    // `signal` to the group, without waiting; the exit handler does not run.
    void abandon(int signal, const std::string &why);
    // Blocking, for after the I/O loop ended: reaps the process, sending SIGKILL to the group
    // once the deadline passed. True when it is reaped.
    bool reap(std::chrono::steady_clock::time_point deadline);

    pid_t pid() const { return m_pid; }
    bool ended() const { return m_finished; }
    // The last few kilobytes of its stderr, on one line.
    std::string stderrTail() const;

private:
    struct Pending {
        std::string method;
        Reply reply;
        std::unique_ptr<boost::asio::steady_timer> timer;
    };

    McpProcess(boost::asio::io_context &io, McpLaunch launch);
    bool spawn(std::string &error);
    void readStdout();
    void readStderr();
    void consumeStdout(const char *data, std::size_t size);
    void consumeStderr(const char *data, std::size_t size);
    void handleLine(std::string_view line);
    void handleMessage(nlohmann::json message);
    void answerServerRequest(const nlohmann::json &id, const std::string &method);
    void send(const nlohmann::json &message);
    void writeNext();
    void watchExit();
    void exited(int status);
    void drainAfterExit();
    void finish(const std::string &why);
    void closeDescriptors();
    void failAll(const std::string &why);
    void protocolFailure(const std::string &why);

    boost::asio::io_context &m_io;
    McpLaunch m_launch;
    pid_t m_pid = -1;
    bool m_reaped = false;
    bool m_finished = false;
    // A message over the bound arrived: the rest of its output is dropped until it ends.
    bool m_broken = false;
    std::string m_exitText;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_stdin;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_stdout;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_stderr;
    std::unique_ptr<boost::asio::posix::stream_descriptor> m_pidfd;
    // Owned through pointers so that closeDescriptors() can drop every Asio object while the
    // I/O context exists; queued handlers may keep this object longer.
    std::unique_ptr<boost::asio::steady_timer> m_exitPoll;
    std::unique_ptr<boost::asio::steady_timer> m_killTimer;
    std::vector<char> m_outChunk;
    std::vector<char> m_errChunk;
    std::string m_line;
    std::size_t m_scanned = 0;
    std::string m_errLine;
    std::string m_errTail;
    std::size_t m_errLinesLogged = 0;
    std::size_t m_noiseLogged = 0;
    std::deque<std::string> m_output;
    bool m_writing = false;
    std::int64_t m_nextId = 1;
    std::map<std::int64_t, Pending> m_pending;
    NotificationHandler m_onNotification;
    ExitHandler m_onExit;
};

// "exit code 1", "signal 9 (Killed)".
std::string describeWaitStatus(int status);

} // namespace sbx
