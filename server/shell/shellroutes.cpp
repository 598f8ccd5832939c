// Route group "shell": the AIO shell API (/v1/shell/*) and the WebSocket terminal on one
// namespace of PTY sessions (server/shell/sessionregistry.h).
#include "server/core/activityevents.h"
#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/process.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/shell/execengine.h"
#include "server/shell/sessionregistry.h"
#include "server/shell/shellstream.h"
#include "server/shell/terminalsocket.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace sbx {

namespace {

// A command or typed input pasted by an agent can be long; far past this it is a file.
constexpr std::size_t kCommandBodyLimit = 1024 * 1024;

using nlohmann::json;

HttpResponse notFound(std::string_view id) {
    return errorResponse(404, "Session " + std::string(id) + " not found");
}

HttpResponse ok(std::string message, json data) {
    return envelopeResponse(200, true, std::move(message), std::move(data));
}

bool recentlyUsed(const ShellSession &session) {
    return session.clients() > 0 || !session.command().finished ||
           SystemClock::now() - session.lastUsedAt() < std::chrono::minutes(5);
}

json sessionInfo(const ShellSession &session) {
    const auto now = SystemClock::now();
    json info = json::object();
    info["working_dir"] = session.workingDirectory();
    info["created_at"] = isoTime(session.createdAt());
    info["last_used_at"] = isoTime(session.lastUsedAt());
    info["age_seconds"] =
        std::chrono::duration_cast<std::chrono::seconds>(now - session.createdAt()).count();
    info["status"] = recentlyUsed(session) ? "active" : "idle";
    const CommandRecord &record = session.command();
    info["current_command"] =
        !record.finished && !record.command.empty() ? json(record.command) : json(nullptr);
    // Beyond AIO's model (unknown fields are allowed): attached terminal clients.
    info["clients"] = session.clients();
    return info;
}

std::string pickShell() {
    // exec relies on bash's PS0 and PROMPT_COMMAND, so the shell is a bash.
    if (const char *shell = std::getenv("SHELL")) {
        const std::string path(shell);
        if (std::filesystem::path(path).filename() == "bash" && access(path.c_str(), X_OK) == 0)
            return path;
    }
    if (auto bash = findExecutable("bash"))
        return *bash;
    return "/bin/bash";
}

// SBX_SSE_KEEPALIVE_MS shortens the view stream's keepalive interval (tests).
std::chrono::milliseconds sseKeepalive() {
    if (const char *text = std::getenv("SBX_SSE_KEEPALIVE_MS")) {
        char *end = nullptr;
        const long value = std::strtol(text, &end, 10);
        if (end != text && *end == '\0' && value > 0)
            return std::chrono::milliseconds(value);
    }
    return kDefaultSseKeepalive;
}

void install(Router &router, ServerContext &context) {
    ShellConfig config;
    config.workspace = context.options.workspace;
    config.rcFile = context.options.stateDir + "/shell/bashrc";
    config.shell = pickShell();
    config.idleTimeout = std::chrono::seconds(context.options.sessionIdleTimeout);
    config.pingInterval = std::chrono::seconds(context.options.wsPingInterval);
    auto registry = std::make_shared<SessionRegistry>(context.io, std::move(config));
    context.shutdown.add("shell sessions", [registry] { registry->shutdown(); });
    SessionRegistry &sessions = *registry;

    router.addUpgrade("/v1/shell/ws", std::make_shared<TerminalSocket>(registry),
                      {.summary = "interactive terminal (WebSocket, JSON frames; "
                                  "?session_id= attaches with replay)"});

    router.add("GET", "/v1/shell/sessions",
               [&sessions](HttpRequest &) {
                   json map = json::object();
                   for (const auto &session : sessions.sessions())
                       map[session->id()] = sessionInfo(*session);
                   json data = json::object();
                   data["sessions"] = std::move(map);
                   return ok("Active shell sessions", std::move(data));
               },
               {.summary = "shell sessions, a map keyed by session id"});

    router.add("GET", "/v1/shell/sessions/stats",
               [&sessions](HttpRequest &) {
                   const auto all = sessions.sessions();
                   const auto active = static_cast<std::size_t>(
                       std::count_if(all.begin(), all.end(),
                                     [](const auto &session) { return recentlyUsed(*session); }));
                   const std::size_t max = sessions.config().maxSessions;
                   json data = json::object();
                   data["total_sessions"] = all.size();
                   data["active_sessions"] = active;
                   data["idle_sessions"] = all.size() - active;
                   data["max_sessions"] = max;
                   data["session_timeout"] = sessions.config().idleTimeout.count();
                   data["usage_ratio"] = static_cast<double>(all.size()) / static_cast<double>(max);
                   return ok("Shell session statistics", std::move(data));
               },
               {.summary = "shell session counts and limits"});

    router.add(
        "POST", "/v1/shell/sessions/create",
        [&sessions](HttpRequest &request) {
            BodyFields body(request);
            const auto id = body.string("id");
            const auto dir = body.string("exec_dir");
            const auto noChange = body.number("no_change_timeout", true);
            body.boolean("preserve_symlinks");
            if (dir && !std::filesystem::path(*dir).is_absolute())
                body.fail({"body", "exec_dir"}, "value_error", "exec_dir must be an absolute path");
            if (!body.ok())
                return body.refusal();
            CreateResult created = sessions.create(id, dir);
            if (!created.session)
                return errorResponse(created.status, created.error);
            if (noChange && created.created)
                created.session->setNoChangeTimeout(static_cast<int>(*noChange));
            json data = json::object();
            data["session_id"] = created.session->id();
            data["working_dir"] = created.session->workingDirectory();
            return ok(created.created ? "Session created" : "Session exists", std::move(data));
        },
        {.summary = "create a shell session ({} or {id, exec_dir})", .body = BodyPolicy::Fields});

    router.add("POST", "/v1/shell/sessions/update",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("id", true);
                   const auto noChange = body.number("no_change_timeout", true);
                   if (!body.ok())
                       return body.refusal();
                   auto session = sessions.find(*id);
                   if (!session)
                       return notFound(*id);
                   if (noChange)
                       session->setNoChangeTimeout(static_cast<int>(*noChange));
                   return ok("Session updated", nullptr);
               },
               {.summary = "change a session's no_change_timeout", .body = BodyPolicy::Fields});

    router.add("DELETE", "/v1/shell/sessions/{id}",
               [&sessions](HttpRequest &request) {
                   const std::string id(request.param("id").value_or(""));
                   if (!sessions.remove(id))
                       return notFound(id);
                   return ok("Session " + id + " deleted", nullptr);
               },
               {.summary = "end a shell session (kills its processes, closes its terminals)"});

    router.add("DELETE", "/v1/shell/sessions",
               [&sessions](HttpRequest &) {
                   json data = json::object();
                   data["deleted"] = sessions.removeAll();
                   return ok("All shell sessions deleted", std::move(data));
               },
               {.summary = "end every shell session"});

    router.addAsync("POST", "/v1/shell/exec",
                    [&sessions](HttpRequest request, Responder reply) {
                        ExecTarget target = resolveExec(request, sessions);
                        if (target.refusal)
                            return reply(std::move(*target.refusal));
                        startExec(std::move(target.session), std::move(target.request),
                                  std::move(reply));
                    },
                    {.summary = "run a command in a shell session (AIO ShellExecRequest; "
                                "SSE of its output with Accept: text/event-stream)",
                     .body = BodyPolicy::Fields,
                     .bodyLimit = kCommandBodyLimit,
                     .eventStream = makeExecEventStream(registry)});

    router.add("POST", "/v1/shell/view",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("id", true);
                   if (!body.ok())
                       return body.refusal();
                   auto session = sessions.find(*id);
                   if (!session)
                       return notFound(*id);
                   return ok("Session output", viewResult(*session));
               },
               {.summary = "output and status of a session's current or last command "
                           "(SSE with Accept: text/event-stream)",
                .body = BodyPolicy::Fields,
                .eventStream = makeViewEventStream(registry, sseKeepalive())});

    router.addAsync(
        "POST", "/v1/shell/wait",
        [&sessions](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const auto id = body.string("id", true);
            WaitRequest wait;
            wait.seconds = body.number("seconds", true);
            wait.maxWaitSeconds = body.number("max_wait_seconds", true);
            if (!body.ok())
                return reply(body.refusal());
            auto session = sessions.find(*id);
            if (!session)
                return reply(notFound(*id));
            startWait(std::move(session), wait, std::move(reply));
        },
        {.summary = "wait for a session's command to finish", .body = BodyPolicy::Fields});

    router.add("POST", "/v1/shell/write",
               [&sessions](HttpRequest &request) {
                   BodyFields body(request);
                   const auto id = body.string("id", true);
                   const auto input = body.string("input", true);
                   const auto enter = body.boolean("press_enter", true);
                   if (!body.ok())
                       return body.refusal();
                   auto session = sessions.find(*id);
                   if (!session)
                       return notFound(*id);
                   session->touch();
                   if (!session->write(*input + (*enter ? "\r" : "")))
                       return errorResponse(409, "Input not written: the program has not read the "
                                                 "input sent before");
                   json data = json::object();
                   data["status"] = session->command().status;
                   return ok("Input written", std::move(data));
               },
               {.summary = "type input into a session's terminal",
                .body = BodyPolicy::Fields,
                .bodyLimit = kCommandBodyLimit});

    router.addAsync(
        "POST", "/v1/shell/kill",
        [&sessions](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const auto id = body.string("id", true);
            if (!body.ok())
                return reply(body.refusal());
            auto session = sessions.find(*id);
            if (!session)
                return reply(notFound(*id));
            startKill(std::move(session), std::move(reply));
        },
        {.summary = "stop the program running in a session", .body = BodyPolicy::Fields});
}

const RouteGroupRegistration registration({.name = "shell",
                                           .order = 30,
                                           .extensions = {"terminal-replay", "terminal-lagged"},
                                           .install = install});

} // namespace

} // namespace sbx
