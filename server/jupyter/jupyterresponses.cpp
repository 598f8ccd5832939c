#include "server/jupyter/jupyterresponses.h"

#include "server/core/bodyfields.h"

#include <chrono>

namespace sbx {

using nlohmann::json;

namespace {

double epochSeconds(std::chrono::system_clock::time_point when) {
    return std::chrono::duration<double>(when.time_since_epoch()).count();
}

} // namespace

int boundedTimeout(BodyFields &body, const char *name) {
    const auto value = body.number(name, true);
    if (!value)
        return kDefaultExecuteTimeout;
    if (*value < 1) {
        body.fail({"body", name}, "greater_than_equal",
                  "Input should be greater than or equal to 1");
    } else if (*value > kMaxExecuteTimeout) {
        body.fail({"body", name}, "less_than_equal",
                  "Input should be less than or equal to " + std::to_string(kMaxExecuteTimeout));
    }
    return static_cast<int>(*value);
}

HttpResponse jupyterExecuteResponse(JupyterExecuteResult result, const std::string &code) {
    if (result.refusal > 0)
        return errorResponse(result.refusal, result.message);
    json data = {
        {"kernel_name", result.kernelName},
        {"session_id", result.sessionId},
        {"status", result.status},
        {"execution_count", result.executionCount ? json(*result.executionCount) : json(nullptr)},
        {"outputs", std::move(result.outputs)},
        {"code", code},
        {"msg_id", result.msgId.empty() ? json(nullptr) : json(result.msgId)},
        {"kernel_restarted", result.kernelRestarted}};
    return envelopeResponse(200, result.success, result.message, std::move(data));
}

json jupyterInfoJson(const JupyterHubInfo &info) {
    const KernelCatalog &catalog = info.catalog;
    json kernels = json::array();
    for (const KernelSpec &kernel : catalog.kernels) {
        kernels.push_back({{"name", kernel.name},
                           {"display_name", kernel.displayName},
                           {"interpreter", kernel.interpreter},
                           {"python_version", kernel.pythonVersion},
                           {"source", kernel.source}});
    }
    std::string description =
        "IPython kernels spoken to over ZeroMQ (Jupyter protocol 5.3), one per session; state is "
        "kept per session_id";
    if (catalog.kernels.empty())
        description += ". No kernel is available: " + catalog.problem;
    json data = {{"default_kernel", catalog.defaultKernel},
                 {"available_kernels", catalog.names()},
                 {"active_sessions", info.sessions},
                 {"session_timeout_seconds", info.idleTimeout.count()},
                 {"max_sessions", info.maxSessions},
                 {"description", description},
                 {"kernel_detection", catalog.detection},
                 {"kernels", std::move(kernels)}};
    if (catalog.kernels.empty())
        data["problem"] = catalog.problem;
    return data;
}

json jupyterSessionsJson(const std::vector<JupyterSessionRow> &rows) {
    json sessions = json::object();
    const auto now = std::chrono::system_clock::now();
    for (const JupyterSessionRow &row : rows) {
        json entry = {
            {"kernel_name", row.kernelName},
            {"last_used", epochSeconds(row.lastUsed)},
            {"age_seconds",
             std::chrono::duration_cast<std::chrono::seconds>(now - row.createdAt).count()},
            {"state", row.state},
            {"cwd", row.cwd},
            {"pid", row.pid > 0 ? json(row.pid) : json(nullptr)},
            {"executions", row.executions}};
        if (!row.died.empty())
            entry["died"] = row.died;
        sessions[row.id] = std::move(entry);
    }
    return sessions;
}

} // namespace sbx
