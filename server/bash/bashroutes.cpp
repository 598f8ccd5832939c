// Route group "bash": AIO's pipe-based command API (/v1/bash/*). Each exec is a bash process of
// its own with stdout and stderr kept apart on disk and read back by byte offset, so a client
// can follow a command of any size and resume after a dropped connection.
#include "server/bash/bashsessions.h"
#include "server/core/activityevents.h"
#include "server/core/bodyfields.h"
#include "server/core/jsontext.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;

constexpr std::size_t kCommandBodyLimit = 1024 * 1024;
// Per stream and response: large enough for full speed, small enough for a client's parser.
constexpr std::uint64_t kOutputChunk = 4 * 1024 * 1024;
// A sync exec with max_output_length 0 ("no limit") still answers in bounded memory.
constexpr std::uint64_t kSyncOutputCap = 64 * 1024 * 1024;
constexpr double kDefaultWaitSeconds = 30;
constexpr double kMaxWaitSeconds = 300;

HttpResponse ok(std::string message, json data) {
    return envelopeResponse(200, true, std::move(message), std::move(data));
}

HttpResponse sessionNotFound(const std::string &id) {
    return errorResponse(404, "Bash session " + id + " not found");
}

// Bytes [from, to) of a file; fewer if it is shorter.
std::string readRange(const std::string &path, std::uint64_t from, std::uint64_t to) {
    std::string text;
    if (to <= from)
        return text;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return text;
    text.resize(to - from);
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n =
            ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(from + got));
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(got);
    return text;
}

// Bytes at the end that start a UTF-8 sequence not complete yet: the next read gives them whole.
std::size_t incompleteTail(const std::string &text) {
    const std::size_t n = text.size();
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
        const auto byte = static_cast<unsigned char>(text[n - back]);
        if ((byte & 0xC0) == 0x80)
            continue; // continuation: look further back for the lead byte
        const std::size_t need = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

struct StreamSlice {
    std::string text;
    std::uint64_t next = 0;
};

StreamSlice sliceOf(const std::string &path, std::uint64_t from, std::uint64_t size,
                    std::uint64_t cap, bool final) {
    StreamSlice slice;
    from = std::min(from, size);
    const std::uint64_t to = std::min(size, from + cap);
    slice.text = readRange(path, from, to);
    if (!final || to < size)
        slice.text.resize(slice.text.size() - incompleteTail(slice.text));
    slice.next = from + slice.text.size();
    return slice;
}

// The first and last halves of a long output, as AIO's max_output_length keeps them; 0 is "no
// limit", still bounded by kSyncOutputCap.
std::string truncatedOutput(const std::string &path, std::uint64_t size, std::uint64_t limit) {
    if (limit == 0)
        limit = kSyncOutputCap;
    if (size <= limit)
        return readRange(path, 0, size);
    const std::uint64_t half = limit / 2;
    std::string head = readRange(path, 0, half);
    head.resize(head.size() - incompleteTail(head));
    std::string tail = readRange(path, size - half, size);
    std::size_t skip = 0;
    while (skip < tail.size() && (static_cast<unsigned char>(tail[skip]) & 0xC0) == 0x80)
        ++skip; // start the tail on a character
    return head + "\n... [" + std::to_string(size - head.size() - (tail.size() - skip)) +
           " bytes truncated] ...\n" + tail.substr(skip);
}

// What an answer needs of a command, taken on the I/O thread; the reading runs on the pool.
struct CommandSnapshot {
    std::shared_ptr<BashCommand> command; // keeps the output files
    std::string sessionId;
    std::string status;
    std::optional<int> exitCode;
    std::uint64_t outSize = 0;
    std::uint64_t errSize = 0;
    bool finished = false;
};

CommandSnapshot snapshotOf(const std::string &sessionId, std::shared_ptr<BashCommand> command) {
    CommandSnapshot snap;
    snap.sessionId = sessionId;
    snap.status = commandStatusName(command->status());
    snap.exitCode = command->exitCode();
    snap.outSize = command->stdoutSize();
    snap.errSize = command->stderrSize();
    snap.finished = command->finished();
    snap.command = std::move(command);
    return snap;
}

json exitCodeJson(const std::optional<int> &code) {
    return code ? json(*code) : json(nullptr);
}

json commandInfo(const CommandSnapshot &snap) {
    return {{"command_id", snap.command->id()},
            {"command", snap.command->command()},
            {"status", snap.status},
            {"exit_code", exitCodeJson(snap.exitCode)}};
}

json sessionInfo(const BashSession &session) {
    const auto running = session.running();
    return {{"session_id", session.id},
            {"status", "ready"},
            {"working_dir", session.workingDirectory},
            {"created_at", isoTime(session.createdAt)},
            {"last_used_at", isoTime(session.lastUsedAt)},
            {"current_command", running ? json(running->command()) : json(nullptr)},
            // Beyond AIO's model (unknown fields are allowed): which command to follow.
            {"current_command_id", running ? json(running->id()) : json(nullptr)},
            {"command_count", session.commandCount}};
}

// Calls `then` once on the I/O thread: when `ready` holds after a change of the command, or
// when the timeout passes.
class ChangeWait final : public std::enable_shared_from_this<ChangeWait> {
public:
    static void start(asio::io_context &io, std::shared_ptr<BashCommand> command,
                      std::chrono::milliseconds timeout, std::function<bool()> ready,
                      std::function<void()> then) {
        auto wait = std::shared_ptr<ChangeWait>(
            new ChangeWait(io, std::move(command), std::move(ready), std::move(then)));
        wait->m_timer.expires_after(timeout);
        wait->m_timer.async_wait([wait](std::error_code) { wait->finish(); });
        wait->arm();
    }

private:
    ChangeWait(asio::io_context &io, std::shared_ptr<BashCommand> command,
               std::function<bool()> ready, std::function<void()> then)
        : m_timer(io)
        , m_command(std::move(command))
        , m_ready(std::move(ready))
        , m_then(std::move(then)) {}

    void arm() {
        m_command->notifyOnChange([weak = weak_from_this()] {
            auto self = weak.lock();
            if (!self || self->m_done)
                return;
            if (self->m_ready())
                self->m_timer.cancel(); // finish() runs from the timer's handler
            else
                self->arm();
        });
    }
    void finish() {
        if (m_done)
            return;
        m_done = true;
        m_then();
    }

    asio::steady_timer m_timer;
    std::shared_ptr<BashCommand> m_command;
    std::function<bool()> m_ready;
    std::function<void()> m_then;
    bool m_done = false;
};

std::chrono::milliseconds secondsToMs(double seconds) {
    return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

std::optional<int> signalNamed(const std::string &name) {
    const std::string bare = name.rfind("SIG", 0) == 0 ? name.substr(3) : name;
    if (bare == "TERM")
        return SIGTERM;
    if (bare == "KILL")
        return SIGKILL;
    if (bare == "INT")
        return SIGINT;
    if (bare == "HUP")
        return SIGHUP;
    if (bare == "QUIT")
        return SIGQUIT;
    return std::nullopt;
}

void install(Router &router, ServerContext &context) {
    BashConfig config;
    config.workspace = context.options.workspace;
    config.outputDirectory = context.options.stateDir + "/bash";
    config.retention = std::chrono::seconds(context.options.bashRetention);
    auto registry = std::make_shared<BashSessions>(context.io, context.events, std::move(config));
    context.shutdown.add("bash commands", [registry] { registry->shutdown(); });
    BashSessions &sessions = *registry;
    asio::io_context &io = context.io;
    WorkPool &pool = context.pool;

    // Answers an output request from the pool: the reading of up to two chunks is disk work.
    auto answerOutput = [&pool](CommandSnapshot snap, std::uint64_t offset, std::uint64_t errOffset,
                                Responder reply) {
        pool.post([snap = std::move(snap), offset, errOffset, reply = std::move(reply)] {
            const StreamSlice out = sliceOf(snap.command->stdoutPath(), offset, snap.outSize,
                                            kOutputChunk, snap.finished);
            const StreamSlice err = sliceOf(snap.command->stderrPath(), errOffset, snap.errSize,
                                            kOutputChunk, snap.finished);
            json data = {{"session_id", snap.sessionId},
                         {"offset", out.next},
                         {"stderr_offset", err.next},
                         {"command", commandInfo(snap)}};
            // The outputs are most of the answer: escaped by the fast path, not by dump.
            reply(envelopeWithText(200, true, "Command output", std::move(data),
                                   {{"stdout", out.text}, {"stderr", err.text}}));
        });
    };

    // The exec answer: the whole (truncated) output for a sync exec, none for an async one.
    auto answerExec = [&pool](CommandSnapshot snap, bool withOutput, std::uint64_t maxLength,
                              Responder reply) {
        pool.post([snap = std::move(snap), withOutput, maxLength, reply = std::move(reply)] {
            json data = {{"session_id", snap.sessionId},
                         {"command_id", snap.command->id()},
                         {"command", snap.command->command()},
                         {"status", snap.status},
                         {"exit_code", exitCodeJson(snap.exitCode)},
                         {"stdout", ""},
                         {"stderr", ""},
                         {"offset", 0},
                         {"stderr_offset", 0}};
            if (withOutput) {
                data["stdout"] =
                    truncatedOutput(snap.command->stdoutPath(), snap.outSize, maxLength);
                data["stderr"] =
                    truncatedOutput(snap.command->stderrPath(), snap.errSize, maxLength);
                data["offset"] = snap.outSize;
                data["stderr_offset"] = snap.errSize;
            }
            reply(ok(snap.finished ? "Command finished" : "Command running", std::move(data)));
        });
    };

    router.addAsync(
        "POST", "/v1/bash/exec",
        [&sessions, &io, answerExec](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const auto command = body.string("command", true);
            const auto id = body.string("session_id");
            const auto dir = body.string("exec_dir");
            const bool asyncMode = body.boolean("async_mode").value_or(false);
            const auto timeout = body.number("timeout");
            const auto hardTimeout = body.number("hard_timeout");
            const auto maxLength = body.number("max_output_length", true);
            std::vector<std::string> environment;
            if (const json *env = body.value("env")) {
                if (!env->is_object()) {
                    body.fail({"body", "env"}, "dict_type", "env must be an object of strings");
                } else {
                    for (const auto &[name, value] : env->items()) {
                        if (name.empty() || name.find('=') != std::string::npos ||
                            !value.is_string())
                            body.fail({"body", "env", name}, "string_type",
                                      "env values must be strings, names without '='");
                        else
                            environment.push_back(name + "=" + value.get<std::string>());
                    }
                }
            }
            if ((timeout && *timeout < 0) || (hardTimeout && *hardTimeout <= 0))
                body.fail({"body", "hard_timeout"}, "greater_than", "timeouts must be positive");
            if (maxLength && *maxLength < 0)
                body.fail({"body", "max_output_length"}, "greater_than_equal",
                          "max_output_length must be 0 or more");
            if (!body.ok())
                return reply(body.refusal());
            const auto obtained = sessions.obtain(id, std::nullopt);
            if (!obtained.session)
                return reply(errorResponse(obtained.status, obtained.error));
            BashSession &session = *obtained.session;
            if (dir) {
                // exec_dir also becomes the session's default, as in AIO.
                if (auto refused = directoryError(*dir))
                    return reply(errorResponse(400, *refused));
                session.workingDirectory = *dir;
            }
            std::string error;
            auto started = sessions.run(
                session, *command, std::move(environment),
                hardTimeout ? secondsToMs(*hardTimeout) : std::chrono::milliseconds(0), error);
            if (!started)
                return reply(errorResponse(500, error));
            const std::uint64_t limit = maxLength ? static_cast<std::uint64_t>(*maxLength) : 50000;
            if (asyncMode)
                return answerExec(snapshotOf(session.id, started), false, limit, std::move(reply));
            const auto wait = timeout ? secondsToMs(*timeout) : std::chrono::hours(24 * 365);
            ChangeWait::start(
                io, started, wait, [started] { return started->finished(); },
                [answerExec, sessionId = session.id, started, limit,
                 reply = std::move(reply)]() mutable {
                    answerExec(snapshotOf(sessionId, started), true, limit, std::move(reply));
                });
        },
        {.summary = "run a command in a bash session (stdout and stderr apart, async_mode for "
                    "long runs)",
         .body = BodyPolicy::Fields,
         .bodyLimit = kCommandBodyLimit});

    router.addAsync(
        "POST", "/v1/bash/output",
        [&sessions, &io, answerOutput](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const auto id = body.string("session_id", true);
            const auto commandId = body.string("command_id");
            const auto offset = body.number("offset", true);
            const auto errOffset = body.number("stderr_offset", true);
            const bool wait = body.boolean("wait").value_or(false);
            const double waitSeconds = body.number("wait_timeout").value_or(kDefaultWaitSeconds);
            if ((offset && *offset < 0) || (errOffset && *errOffset < 0))
                body.fail({"body", "offset"}, "greater_than_equal", "offsets must be 0 or more");
            if (!body.ok())
                return reply(body.refusal());
            BashSession *session = sessions.find(*id);
            if (!session)
                return reply(sessionNotFound(*id));
            std::shared_ptr<BashCommand> command =
                commandId ? session->find(*commandId)
                          : (session->commands.empty() ? nullptr : session->commands.back());
            if (commandId && !command)
                return reply(
                    errorResponse(404, "Command " + *commandId + " not found in session " + *id +
                                           " (output is kept " +
                                           std::to_string(sessions.config().retention.count()) +
                                           " s after a command ends)"));
            const std::uint64_t from = offset ? static_cast<std::uint64_t>(*offset) : 0;
            const std::uint64_t errFrom = errOffset ? static_cast<std::uint64_t>(*errOffset) : 0;
            if (!command) {
                return reply(ok("No command yet", {{"session_id", *id},
                                                   {"stdout", ""},
                                                   {"stderr", ""},
                                                   {"offset", from},
                                                   {"stderr_offset", errFrom},
                                                   {"command", nullptr}}));
            }
            const auto ready = [command, from, errFrom] {
                return command->finished() || command->stdoutSize() > from ||
                       command->stderrSize() > errFrom;
            };
            if (!wait || ready())
                return answerOutput(snapshotOf(*id, command), from, errFrom, std::move(reply));
            const double bounded = std::clamp(waitSeconds, 0.0, kMaxWaitSeconds);
            ChangeWait::start(io, command, secondsToMs(bounded), ready,
                              [answerOutput, sessionId = *id, command, from, errFrom,
                               reply = std::move(reply)]() mutable {
                                  answerOutput(snapshotOf(sessionId, command), from, errFrom,
                                               std::move(reply));
                              });
        },
        {.summary = "a command's stdout and stderr from byte offsets (wait: long-poll)",
         .body = BodyPolicy::Fields});

    router.add("POST", "/v1/bash/write",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("session_id", true);
                   auto input = body.takeString("input", true);
                   const auto commandId = body.string("command_id");
                   if (!body.ok())
                       return body.refusal();
                   BashSession *session = sessions.find(*id);
                   if (!session)
                       return sessionNotFound(*id);
                   auto command = commandId ? session->find(*commandId) : session->running();
                   if (!command || command->finished())
                       return errorResponse(409,
                                            "No running command to write to in session " + *id);
                   if (!command->write(std::move(*input)))
                       return errorResponse(409, "The command no longer reads its input");
                   session->lastUsedAt = std::chrono::system_clock::now();
                   return ok("Input written", {{"session_id", *id}, {"command_id", command->id()}});
               },
               {.summary = "send input to a running command's stdin (add \\n yourself)",
                .body = BodyPolicy::Fields,
                .bodyLimit = kCommandBodyLimit});

    router.add("POST", "/v1/bash/kill",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("session_id", true);
                   const std::string signalName = body.string("signal").value_or("SIGTERM");
                   const auto commandId = body.string("command_id");
                   const auto signal = signalNamed(signalName);
                   if (!signal)
                       body.fail({"body", "signal"}, "enum",
                                 "signal must be SIGTERM, SIGKILL or SIGINT (or SIGHUP, SIGQUIT)");
                   if (!body.ok())
                       return body.refusal();
                   BashSession *session = sessions.find(*id);
                   if (!session)
                       return sessionNotFound(*id);
                   json killed = json::array();
                   for (const auto &command : session->commands) {
                       if (commandId && command->id() != *commandId)
                           continue;
                       if (command->kill(*signal))
                           killed.push_back(command->id());
                   }
                   if (commandId && killed.empty() && !session->find(*commandId))
                       return errorResponse(404, "Command " + *commandId + " not found");
                   return ok(
                       killed.empty() ? "Nothing was running" : "Signal sent",
                       {{"session_id", *id}, {"signal", signalName}, {"command_ids", killed}});
               },
               {.summary = "signal a session's running commands (SIGTERM, SIGKILL, SIGINT)",
                .body = BodyPolicy::Fields});

    router.add("GET", "/v1/bash/sessions",
               [&sessions](HttpRequest &) {
                   json list = json::array();
                   for (const BashSession *session : sessions.all())
                       list.push_back(sessionInfo(*session));
                   return ok("Bash sessions", std::move(list));
               },
               {.summary = "bash sessions with their current command"});

    router.add("POST", "/v1/bash/sessions/create",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("session_id");
                   const auto dir = body.string("exec_dir");
                   const auto snapshot = body.string("snapshot_path");
                   if (!body.ok())
                       return body.refusal();
                   const auto obtained = sessions.obtain(id, dir, snapshot);
                   if (!obtained.session)
                       return errorResponse(obtained.status, obtained.error);
                   return ok(obtained.created ? "Session created" : "Session exists",
                             sessionInfo(*obtained.session));
               },
               {.summary = "create a bash session ({} or {session_id, exec_dir, snapshot_path})",
                .body = BodyPolicy::Fields});

    router.add("POST", "/v1/bash/sessions/{id}/close",
               [&sessions](HttpRequest &request) {
                   const std::string id(request.param("id").value_or(""));
                   BashSession *session = sessions.find(id);
                   if (!session)
                       return sessionNotFound(id);
                   json info = sessionInfo(*session);
                   info["status"] = "closed";
                   sessions.close(id);
                   return ok("Session closed", std::move(info));
               },
               {.summary = "close a bash session (kills its running commands)"});
}

const RouteGroupRegistration registration({.name = "bash", .order = 35, .install = install});

} // namespace

} // namespace sbx
