// Route group "jupyter": AIO's Jupyter API (/v1/jupyter/*) on real IPython kernels, one per
// session, driven by the KernelHub's thread (server/jupyter/kernelhub.h). Fields beyond AIO's
// models (kernel_restarted, a session's state) are allowed by them. One extension: AIO has no
// way to stop a running cell but its timeout, so "jupyter-interrupt" adds
// POST /v1/jupyter/sessions/{session_id}/interrupt (left out with --no-extensions).
#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/jupyter/jupyterresponses.h"
#include "server/jupyter/kernelhub.h"
#include "server/jupyter/sharedhub.h"

namespace sbx {

namespace {

using nlohmann::json;

constexpr std::size_t kCodeBodyLimit = 1024 * 1024;

void install(Router &router, ServerContext &context) {
    std::shared_ptr<KernelHub> hub = sharedKernelHub(context);
    const std::string workspace = context.options.workspace;

    router.addAsync(
        "POST", "/v1/jupyter/execute",
        [hub, workspace](HttpRequest request, Responder reply) {
            BodyFields body(request);
            JupyterExecuteCall call;
            auto code = body.takeString("code", true);
            call.timeout = std::chrono::seconds(boundedTimeout(body, "timeout"));
            call.kernelName = body.string("kernel_name").value_or("");
            call.sessionId = body.string("session_id").value_or("");
            const auto cwd = body.string("cwd");
            if (!body.ok())
                return reply(body.refusal());
            if (cwd && !cwd->empty()) {
                std::string error;
                const auto dir = workingDirectory(workspace, *cwd, error);
                if (!dir)
                    return reply(errorResponse(400, error));
                call.cwd = *dir;
            }
            call.code = std::move(*code);
            std::string echo = call.code;
            hub->execute(std::move(call), [reply = std::move(reply),
                                           echo = std::move(echo)](JupyterExecuteResult result) {
                reply(jupyterExecuteResponse(std::move(result), echo));
            });
        },
        {.summary = "run Python in a session's IPython kernel ({code, session_id, timeout: 30, "
                    "kernel_name, cwd}); state is kept per session_id, a new session without one",
         .body = BodyPolicy::Fields,
         .bodyLimit = kCodeBodyLimit});

    router.addAsync("GET", "/v1/jupyter/info",
                    [hub](HttpRequest, Responder reply) {
                        hub->info([reply = std::move(reply)](JupyterHubInfo info) {
                            reply(
                                envelopeResponse(200, true, "Jupyter info", jupyterInfoJson(info)));
                        });
                    },
                    {.summary = "kernels available, sessions, their idle timeout and limit"});

    router.addAsync("GET", "/v1/jupyter/sessions",
                    [hub](HttpRequest, Responder reply) {
                        hub->sessions(
                            [reply = std::move(reply)](std::vector<JupyterSessionRow> rows) {
                                reply(envelopeResponse(200, true, "Jupyter sessions",
                                                       {{"sessions", jupyterSessionsJson(rows)}}));
                            });
                    },
                    {.summary = "Jupyter sessions: kernel_name, last_used, age_seconds, state"});

    router.addAsync(
        "POST", "/v1/jupyter/sessions/create",
        [hub, workspace](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const std::string id = body.string("session_id").value_or("");
            const std::string kernelName = body.string("kernel_name").value_or("");
            const auto cwd = body.string("cwd");
            if (!body.ok())
                return reply(body.refusal());
            std::string dir;
            if (cwd && !cwd->empty()) {
                std::string error;
                const auto resolved = workingDirectory(workspace, *cwd, error);
                if (!resolved)
                    return reply(errorResponse(400, error));
                dir = *resolved;
            }
            hub->createSession(id, kernelName, dir,
                               [reply = std::move(reply)](JupyterSessionResult result) {
                                   if (result.refusal > 0)
                                       return reply(errorResponse(result.refusal, result.message));
                                   reply(envelopeResponse(200, true, result.message,
                                                          {{"session_id", result.sessionId},
                                                           {"kernel_name", result.kernelName},
                                                           {"message", result.message}}));
                               });
        },
        {.summary = "start a session's kernel ({session_id, kernel_name, cwd}, all optional); "
                    "answers once it is ready",
         .body = BodyPolicy::Fields});

    router.addAsync("DELETE", "/v1/jupyter/sessions",
                    [hub](HttpRequest, Responder reply) {
                        hub->deleteAll([reply = std::move(reply)](std::size_t count) {
                            reply(envelopeResponse(
                                200, true, "Deleted " + std::to_string(count) + " Jupyter sessions",
                                {{"deleted", count}}));
                        });
                    },
                    {.summary = "shut down every Jupyter session"});

    router.addAsync("DELETE", "/v1/jupyter/sessions/{session_id}",
                    [hub](HttpRequest request, Responder reply) {
                        const std::string id(request.param("session_id").value_or(""));
                        hub->deleteSession(id, [reply = std::move(reply), id](bool found) {
                            if (!found)
                                return reply(
                                    errorResponse(404, "Jupyter session " + id + " not found"));
                            reply(envelopeResponse(200, true, "Session " + id + " deleted",
                                                   {{"session_id", id}}));
                        });
                    },
                    {.summary = "shut down one Jupyter session"});

    if (context.options.noExtensions)
        return;
    router.addAsync(
        "POST", "/v1/jupyter/sessions/{session_id}/interrupt",
        [hub](HttpRequest request, Responder reply) {
            const std::string id(request.param("session_id").value_or(""));
            hub->interrupt(id, [reply = std::move(reply), id](JupyterInterruptResult result) {
                if (!result.found)
                    return reply(errorResponse(404, "Jupyter session " + id + " not found"));
                reply(envelopeResponse(200, true,
                                       result.interrupted
                                           ? "Session " + id +
                                                 " interrupted: the running code stops with "
                                                 "KeyboardInterrupt, the kernel keeps its state"
                                           : "Nothing was running in session " + id,
                                       {{"session_id", id}, {"interrupted", result.interrupted}}));
            });
        },
        {.summary = "extension jupyter-interrupt: interrupt the code a session runs (its "
                    "execute answers with KeyboardInterrupt; state is kept)",
         .body = BodyPolicy::Ignore});
}

const RouteGroupRegistration registration(
    {.name = "jupyter", .order = 40, .extensions = {"jupyter-interrupt"}, .install = install});

} // namespace

} // namespace sbx
