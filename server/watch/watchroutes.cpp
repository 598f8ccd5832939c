// Route group "watch": AIO's file watch API (/v1/file/watch*) on inotify watchers
// (server/watch/watcher.h), listed and limited by server/watch/watchregistry.h. It is AIO's own
// endpoint family, so it declares no extension.
#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/files/fileerror.h"
#include "server/watch/watchregistry.h"
#include "server/watch/watchstream.h"

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <sys/stat.h>
#include <variant>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;

const std::vector<std::string> kDefaultExclude = {".git",      "node_modules", "__pycache__",
                                                  ".venv",     "*.pyc",        "*.pyo",
                                                  ".DS_Store", "*.swp",        "*.swo"};
const std::array<std::string, 5> kEventTypes = {"create", "write", "remove", "rename", "chmod"};

// An error envelope plus AIO's machine-readable `code`.
HttpResponse codedError(int status, std::string message, const char *code) {
    json body = json::object();
    body["success"] = false;
    body["message"] = std::move(message);
    body["data"] = nullptr;
    body["hint"] = nullptr;
    body["code"] = code;
    return jsonResponse(status, body);
}

HttpResponse watcherNotFound(const std::string &id) {
    return codedError(404, "Watcher " + id + " not found", "WATCHER_NOT_FOUND");
}

// Pydantic's ge/le bounds, as FastAPI reports them.
long long bounded(BodyFields &body, const char *name, long long min, long long max,
                  long long fallback) {
    const auto value = body.number(name, true);
    if (!value)
        return fallback;
    const auto n = static_cast<long long>(*value);
    if (n < min) {
        body.fail({"body", name}, "greater_than_equal",
                  "Input should be greater than or equal to " + std::to_string(min));
    } else if (n > max) {
        body.fail({"body", name}, "less_than_equal",
                  "Input should be less than or equal to " + std::to_string(max));
    }
    return n;
}

std::optional<std::vector<std::string>> stringList(BodyFields &body, const char *name) {
    const json *value = body.value(name);
    if (!value)
        return std::nullopt;
    if (!value->is_array()) {
        body.fail({"body", name}, "list_type", "Input should be a valid list");
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value->size(); ++i) {
        if ((*value)[i].is_string())
            out.push_back((*value)[i].get<std::string>());
        else
            body.fail({"body", name, i}, "string_type", "Input should be a valid string");
    }
    return out;
}

// Absolute and lexically normal, so that equal folders give equal configurations.
std::optional<std::string> normalPath(const std::string &workspace, const std::string &path) {
    const auto resolved = resolvePath(workspace, path);
    if (!resolved)
        return std::nullopt;
    std::string normal = std::filesystem::path(*resolved).lexically_normal().string();
    while (normal.size() > 1 && normal.back() == '/')
        normal.pop_back();
    return normal;
}

std::variant<WatchConfig, HttpResponse>
parseCreate(HttpRequest &request, const std::string &workspace, const std::string &stateDir) {
    BodyFields body(request);
    WatchConfig config;
    const auto path = body.string("path");
    config.recursive = body.boolean("recursive").value_or(true);
    config.exclude = stringList(body, "exclude").value_or(kDefaultExclude);
    config.include = stringList(body, "include_patterns").value_or(std::vector<std::string>{});
    config.debounceMs = static_cast<int>(bounded(body, "debounce", 50, 5000, 300));
    if (!body.ok())
        return body.refusal();
    if (!path)
        return errorResponse(400, "path is required: the file or folder to watch");
    const auto normal = normalPath(workspace, *path);
    if (!normal)
        return errorResponse(400, "Invalid path: it must be a non-empty path without NUL "
                                  "characters");
    struct stat info {};
    if (stat(normal->c_str(), &info) != 0)
        return errorResponse(400, "Path does not exist: " + *normal);
    config.path = *normal;
    if (const auto state = normalPath(workspace, stateDir))
        config.hidden.push_back(*state);
    if (S_ISDIR(info.st_mode)) {
        config.root = *normal;
    } else {
        // A file is watched through its folder, so that an editor's replace-by-rename is seen.
        const std::filesystem::path file(*normal);
        config.root = file.parent_path().string();
        config.onlyName = file.filename().string();
        config.recursive = false;
    }
    return config;
}

json watcherInfo(const Watcher &watcher) {
    json info = json::object();
    info["watcher_id"] = watcher.id();
    info["path"] = watcher.config().path;
    info["status"] = watcher.running() ? "running" : "stopped";
    info["subscriber_count"] = watcher.subscribers();
    info["created_at"] = watcher.createdAt();
    return info;
}

json pollJson(const PollBatch &batch, const std::string &id) {
    json events = json::array();
    for (const FileEvent &event : batch.events)
        events.push_back(toJson(event, id));
    json out = json::object();
    out["events"] = std::move(events);
    out["cursor"] = batch.cursor;
    out["overflow"] = batch.overflow;
    return out;
}

// A request waiting on a watcher: a timer for its bound, woken early by the watcher.
struct PendingWait {
    explicit PendingWait(asio::io_context &io)
        : timer(io) {}
    asio::steady_timer timer;
    Responder reply;
    std::uint64_t token = 0;
    std::uint64_t cursor = 0;
    bool done = false;
};

void startPoll(asio::io_context &io, std::shared_ptr<Watcher> watcher, std::uint64_t cursor,
               std::size_t limit, int timeout, Responder reply) {
    auto answer = [watcher, cursor, limit] {
        const PollBatch batch = watcher->eventsAfter(cursor, limit);
        if (batch.overflow)
            watcher->reportOverflow("a poll's cursor fell behind the event buffer");
        return jsonResponse(200, pollJson(batch, watcher->id()));
    };
    const PollBatch now = watcher->eventsAfter(cursor, 1);
    if (timeout == 0 || !now.events.empty() || now.overflow || !watcher->running()) {
        reply(answer());
        return;
    }
    auto wait = std::make_shared<PendingWait>(io);
    wait->reply = std::move(reply);
    // Woken by any change: only one past the cursor (or the end) answers the poll.
    std::weak_ptr<PendingWait> weak = wait;
    wait->token = watcher->listen([weak, watcher = std::weak_ptr<Watcher>(watcher), cursor] {
        const auto w = weak.lock();
        const auto watched = watcher.lock();
        if (!w || !watched)
            return;
        const PollBatch next = watched->eventsAfter(cursor, 1);
        if (!next.events.empty() || next.overflow || !watched->running())
            w->timer.cancel();
    });
    wait->timer.expires_after(std::chrono::seconds(timeout));
    wait->timer.async_wait([wait, watcher, answer](const boost::system::error_code &) {
        watcher->unlisten(wait->token);
        wait->reply(answer());
    });
}

struct WaitRequest {
    std::string path;
    int timeout = 30;
    std::vector<std::string> types;
};

std::variant<WaitRequest, HttpResponse> parseWait(HttpRequest &request,
                                                  const std::string &workspace) {
    BodyFields body(request);
    WaitRequest wait;
    const auto path = body.string("path", true);
    wait.timeout = static_cast<int>(bounded(body, "timeout", 1, 300, 30));
    if (const auto types = stringList(body, "event_types")) {
        for (std::size_t i = 0; i < types->size(); ++i) {
            if (std::find(kEventTypes.begin(), kEventTypes.end(), (*types)[i]) == kEventTypes.end())
                body.fail({"body", "event_types", i}, "enum",
                          "Input should be 'create', 'write', 'remove', 'rename' or 'chmod'");
        }
        wait.types = *types;
    } else {
        wait.types.assign(kEventTypes.begin(), kEventTypes.end());
    }
    if (!body.ok())
        return body.refusal();
    const auto normal = normalPath(workspace, *path);
    if (!normal || *normal == "/")
        return errorResponse(400, "Invalid path: name a file, not a folder root");
    wait.path = *normal;
    return wait;
}

void startWait(asio::io_context &io, const std::shared_ptr<WatchRegistry> &registry,
               WaitRequest request, Responder reply) {
    const std::filesystem::path file(request.path);
    WatchConfig config;
    config.root = file.parent_path().string();
    config.onlyName = file.filename().string();
    config.path = request.path;
    config.recursive = false;
    config.debounceMs = 50;
    int status = 0;
    std::string message;
    // The watch comes before the look at the file, so no change can fall between the two.
    const auto watcher = registry->openTemporary(config, status, message);
    if (!watcher) {
        if (status == 400)
            message = "Cannot wait for " + request.path + ": its folder cannot be watched (" +
                      message + ")";
        reply(errorResponse(status, message));
        return;
    }
    auto wanted = [types = request.types](const std::string &type) {
        return std::find(types.begin(), types.end(), type) != types.end();
    };
    FileEvent existing;
    existing.path = request.path;
    if (wanted("create") && describe(existing)) {
        existing.seq = watcher->lastSeq() + 1;
        existing.type = "create";
        existing.relativePath = *config.onlyName;
        existing.timestamp = epochNow();
        json body = json::object();
        body["event"] = toJson(existing, watcher->id());
        registry->closeTemporary(watcher);
        reply(jsonResponse(200, body));
        return;
    }
    auto wait = std::make_shared<PendingWait>(io);
    wait->reply = std::move(reply);
    std::weak_ptr<WatchRegistry> weakRegistry = registry;
    const std::string target = request.path;
    auto finish = [wait, watcher, weakRegistry](HttpResponse response) {
        if (wait->done)
            return;
        wait->done = true;
        watcher->unlisten(wait->token);
        wait->timer.cancel();
        if (const auto r = weakRegistry.lock())
            r->closeTemporary(watcher);
        wait->reply(std::move(response));
    };
    auto check = [wait, watcher, target, wanted, finish] {
        const PollBatch batch = watcher->eventsAfter(wait->cursor, 1000);
        wait->cursor = batch.cursor;
        for (const FileEvent &event : batch.events) {
            if (wanted(event.type) && (event.path == target || event.oldPath == target)) {
                json body = json::object();
                body["event"] = toJson(event, watcher->id());
                finish(jsonResponse(200, body));
                return;
            }
        }
        if (!watcher->running())
            finish(errorResponse(503, "The watch ended before a matching event (its folder "
                                      "went away, or the server is stopping)"));
    };
    wait->token = watcher->listen(check);
    wait->timer.expires_after(std::chrono::seconds(request.timeout));
    const int seconds = request.timeout;
    wait->timer.async_wait([wait, finish, seconds, target](const boost::system::error_code &ec) {
        if (!ec)
            finish(codedError(408,
                              "No matching event for " + target + " within " +
                                  std::to_string(seconds) + " s",
                              "WATCH_TIMEOUT"));
    });
}

// Bodies whose every field has a default may be empty.
BodyFields fieldsOrDefaults(HttpRequest &request) {
    if (!request.jsonParsed && request.body.empty())
        return BodyFields(json::object());
    return BodyFields(request);
}

void install(Router &router, ServerContext &context) {
    const std::string workspace = context.options.workspace;
    const std::string stateDir = context.options.stateDir;
    asio::io_context &io = context.io;
    auto registry = std::make_shared<WatchRegistry>(context.io, context.pool, context.events,
                                                    WatchSettings::fromEnvironment());
    registry->start();
    context.shutdown.add("file watchers", [registry] { registry->shutdown(); });

    router.addAsync(
        "POST", "/v1/file/watch",
        [registry, workspace, stateDir](HttpRequest request, Responder reply) {
            auto parsed = parseCreate(request, workspace, stateDir);
            if (auto *refusal = std::get_if<HttpResponse>(&parsed))
                return reply(std::move(*refusal));
            registry->create(std::get<WatchConfig>(std::move(parsed)), [reply = std::move(reply)](
                                                                           WatchCreated created) {
                if (!created.watcher) {
                    reply(created.code.empty()
                              ? errorResponse(created.status, created.message)
                              : codedError(created.status, created.message, created.code.c_str()));
                    return;
                }
                json data = watcherInfo(*created.watcher);
                data.erase("subscriber_count");
                data["reused"] = created.reused;
                reply(envelopeResponse(200, true,
                                       created.reused ? "Watcher reused" : "Watcher created",
                                       std::move(data)));
            });
        },
        {.summary = "watch a file or folder (path, recursive, exclude, debounce ms, "
                    "include_patterns); the same configuration reuses its watcher",
         .body = BodyPolicy::Fields});

    router.add("GET", "/v1/file/watch",
               [registry](HttpRequest &) {
                   json data = json::array();
                   for (const auto &watcher : registry->list())
                       data.push_back(watcherInfo(*watcher));
                   return envelopeResponse(200, true, "File watchers", std::move(data));
               },
               {.summary = "file watchers with status and subscriber_count"});

    router.addAsync(
        "POST", "/v1/file/watch/{id}/poll",
        [registry, &io](HttpRequest request, Responder reply) {
            BodyFields body = fieldsOrDefaults(request);
            const long long cursor =
                bounded(body, "cursor", 0, std::numeric_limits<long long>::max(), 0);
            const long long limit = bounded(body, "limit", 1, 1000, 100);
            const long long timeout = bounded(body, "timeout", 0, 60, 0);
            if (!body.ok())
                return reply(body.refusal());
            const std::string id(request.param("id").value_or(""));
            auto watcher = registry->find(id);
            if (!watcher)
                return reply(watcherNotFound(id));
            startPoll(io, std::move(watcher), static_cast<std::uint64_t>(cursor),
                      static_cast<std::size_t>(limit), static_cast<int>(timeout), std::move(reply));
        },
        {.summary = "events after cursor (limit, timeout s: long-poll); {events, cursor, "
                    "overflow}",
         .body = BodyPolicy::Fields});

    installWatchStream(router, registry);

    router.addAsync("POST", "/v1/file/watch/wait",
                    [registry, workspace, &io](HttpRequest request, Responder reply) {
                        auto parsed = parseWait(request, workspace);
                        if (auto *refusal = std::get_if<HttpResponse>(&parsed))
                            return reply(std::move(*refusal));
                        startWait(io, registry, std::get<WaitRequest>(std::move(parsed)),
                                  std::move(reply));
                    },
                    {.summary = "wait for one file's next event (path, timeout s, event_types); "
                                "{event}, 408 on timeout",
                     .body = BodyPolicy::Fields});

    router.add("DELETE", "/v1/file/watch/{id}",
               [registry](HttpRequest &request) {
                   const std::string id(request.param("id").value_or(""));
                   if (!registry->remove(id))
                       return watcherNotFound(id);
                   json data = json::object();
                   data["watcher_id"] = id;
                   data["status"] = "stopped";
                   return envelopeResponse(200, true, "Watcher stopped", std::move(data));
               },
               {.summary = "stop a file watcher (its SSE streams end)"});
}

const RouteGroupRegistration registration({.name = "watch", .order = 45, .install = install});

} // namespace

} // namespace sbx
