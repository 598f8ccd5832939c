// Route group "observe": AIO's /v1/sandbox/observe/* served for real, from cgroup v2 or the
// server's process tree (server/observe/cgroupstats.h says which and why).
#include "server/core/bodyfields.h"
#include "server/core/log.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"
#include "server/observe/capture.h"
#include "server/observe/reportdownload.h"
#include "server/observe/sampler.h"

#include <charconv>
#include <memory>
#include <unistd.h>

namespace sbx {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxTopRows = 1000;
constexpr std::size_t kMaxKeyLength = 128;
constexpr double kMinInterval = 0.2;
constexpr double kMaxInterval = 3600;
constexpr double kMaxDuration = 7 * 24 * 3600;

HttpResponse ok(std::string message, json data) {
    return envelopeResponse(200, true, std::move(message), std::move(data));
}

HttpResponse fromOutcome(CaptureOutcome outcome) {
    if (outcome.status != 200)
        return errorResponse(outcome.status, std::move(outcome.message));
    return ok(std::move(outcome.message), std::move(outcome.data));
}

// Everything the group shares; the routes hold it by shared_ptr so that work still on the pool
// at shutdown finds it alive.
struct Observe {
    Observe(SamplerConfig config, ActivityEvents &events, const std::string &dir)
        : sampler(std::move(config), events)
        , capture(std::make_shared<Capture>(dir, sampler, events)) {}
    Sampler sampler;
    std::shared_ptr<Capture> capture;
};

std::optional<std::string> keyField(BodyFields &body) {
    auto key = body.string("idempotency_key");
    if (key && key->size() > kMaxKeyLength) {
        body.fail({"body", "idempotency_key"}, "string_too_long",
                  "String should have at most 128 characters");
        return std::nullopt;
    }
    return key;
}

// AIO clients send {} for "no fields"; an empty body means the same here.
BodyFields fieldsOf(HttpRequest &request) {
    if (request.body.find_first_not_of(" \t\r\n") == std::string::npos)
        return BodyFields(json::object());
    return BodyFields(request);
}

// Runs job on the pool and answers with its response.
void onPool(ServerContext &context, Responder reply, std::function<HttpResponse()> job) {
    context.pool.post([reply = std::move(reply), job = std::move(job)] { reply(job()); });
}

void install(Router &router, ServerContext &context) {
    const auto requested = parseObserveSource(context.options.observeSource);
    SamplerConfig config;
    config.source = chooseSource(requested.value_or(ObserveSource::Auto));
    config.workspace = context.options.workspace;
    config.rootPid = static_cast<int>(::getpid());
    log::info("observe: " + config.source.reason);
    auto observe = std::make_shared<Observe>(std::move(config), context.events,
                                             context.options.stateDir + "/observe");
    context.shutdown.add("observe sessions", [observe] { observe->capture->shutdown(); });

    router.addAsync(
        "GET", "/v1/sandbox/observe/live",
        [&context, observe](HttpRequest request, Responder reply) {
            SnapshotRequest snapshot;
            if (const auto rows = request.queryValue("top_rows")) {
                std::size_t value = 0;
                const auto [end, ec] =
                    std::from_chars(rows->data(), rows->data() + rows->size(), value);
                if (ec != std::errc() || end != rows->data() + rows->size() || value > kMaxTopRows)
                    return reply(validationRefusal(json::array({"query", "top_rows"}),
                                                   "int_parsing",
                                                   "Input should be an integer from 0 to 1000"));
                snapshot.topRows = value;
            }
            const std::string sort(request.queryValue("sort").value_or("rss"));
            if (sort != "rss" && sort != "cpu")
                return reply(validationRefusal(json::array({"query", "sort"}), "enum",
                                               "Input should be 'rss' or 'cpu'"));
            snapshot.sort = sort == "cpu" ? ProcessSort::Cpu : ProcessSort::Rss;
            onPool(context, std::move(reply), [observe, snapshot] {
                return ok("Live observation snapshot",
                          observe->sampler.snapshot(snapshot, observe->capture->mode()));
            });
        },
        {.summary = "resource snapshot: cgroup or process-tree figures, disk, top processes "
                    "(top_rows, sort=rss|cpu), recent events"});

    router.add(
        "GET", "/v1/sandbox/observe/status",
        [observe](HttpRequest &) { return ok("Observation status", observe->capture->status()); },
        {.summary = "observation mode, the running session, report count"});

    router.addAsync(
        "POST", "/v1/sandbox/observe/start",
        [&context, observe](HttpRequest request, Responder reply) {
            BodyFields body = fieldsOf(request);
            StartRequest start;
            start.mode = body.string("mode").value_or("capture");
            if (start.mode != "capture" && start.mode != "guardrail")
                body.fail({"body", "mode"}, "enum", "Input should be 'guardrail' or 'capture'");
            start.idempotencyKey = keyField(body);
            start.durationSeconds = body.number("duration_seconds");
            if (start.durationSeconds &&
                (*start.durationSeconds <= 0 || *start.durationSeconds > kMaxDuration))
                body.fail({"body", "duration_seconds"}, "value_error",
                          "duration_seconds must be above 0 and at most 604800");
            start.intervalSeconds = body.number("interval_seconds").value_or(1.0);
            if (start.intervalSeconds < kMinInterval || start.intervalSeconds > kMaxInterval)
                body.fail({"body", "interval_seconds"}, "value_error",
                          "interval_seconds must be from 0.2 to 3600");
            start.processes = body.boolean("include_processes").value_or(true);
            start.disk = body.boolean("include_disk").value_or(true);
            if (!body.ok())
                return reply(body.refusal());
            onPool(context, std::move(reply),
                   [observe, start] { return fromOutcome(observe->capture->start(start)); });
        },
        {.summary = "start an observation session (capture|guardrail, interval_seconds, "
                    "duration_seconds, idempotency_key)",
         .body = BodyPolicy::Raw});

    router.addAsync(
        "POST", "/v1/sandbox/observe/stop",
        [&context, observe](HttpRequest request, Responder reply) {
            BodyFields body = fieldsOf(request);
            const auto id = body.string("session_id");
            if (!body.ok())
                return reply(body.refusal());
            onPool(context, std::move(reply),
                   [observe, id] { return fromOutcome(observe->capture->stop(id)); });
        },
        {.summary = "stop the observation session ({} or {session_id})", .body = BodyPolicy::Raw});

    router.addAsync("POST", "/v1/sandbox/observe/export",
                    [&context, observe](HttpRequest request, Responder reply) {
                        BodyFields body = fieldsOf(request);
                        ExportRequest exportRequest;
                        exportRequest.idempotencyKey = keyField(body);
                        exportRequest.sessionId = body.string("session_id");
                        exportRequest.reason = body.string("reason").value_or("manual");
                        if (exportRequest.reason != "manual")
                            body.fail({"body", "reason"}, "enum", "Input should be 'manual'");
                        if (!body.ok())
                            return reply(body.refusal());
                        onPool(context, std::move(reply), [observe, exportRequest] {
                            return fromOutcome(observe->capture->exportReport(exportRequest));
                        });
                    },
                    {.summary = "write a gzip report of a session's samples and events (or of now)",
                     .body = BodyPolicy::Raw});

    router.add(
        "GET", "/v1/sandbox/observe/reports",
        [observe](HttpRequest &) { return ok("Observation reports", observe->capture->reports()); },
        {.summary = "exported observation reports"});

    router.addStream("GET", "/v1/sandbox/observe/reports/{report_id}",
                     makeReportDownload(observe->capture),
                     {.summary = "download a report (application/gzip, JSON lines)"});

    router.addAsync("DELETE", "/v1/sandbox/observe/reports/{report_id}",
                    [&context, observe](HttpRequest request, Responder reply) {
                        const std::string id(request.param("report_id").value_or(""));
                        onPool(context, std::move(reply), [observe, id] {
                            const auto info =
                                isSafeId(id) ? observe->capture->removeReport(id) : std::nullopt;
                            if (!info)
                                return errorResponse(404, "Report " + id + " not found");
                            return ok("Report deleted", info->toJson());
                        });
                    },
                    {.summary = "delete a report"});
}

const RouteGroupRegistration registration({.name = "observe", .order = 35, .install = install});

} // namespace
} // namespace sbx
