#pragma once

#include "server/core/http.h"
#include "server/jupyter/kernelhub.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// The JSON of the jupyter and code groups' answers, built from the KernelHub's plain results.
namespace sbx {

class BodyFields;

inline constexpr int kDefaultExecuteTimeout = 30;
inline constexpr int kMaxExecuteTimeout = 300;

// AIO's `timeout` field: an integer of seconds, 1 to 300, 30 when absent or null.
int boundedTimeout(BodyFields &body, const char *name);

// AIO's JupyterExecuteResponse in its envelope; a refusal as an error envelope.
HttpResponse jupyterExecuteResponse(JupyterExecuteResult result, const std::string &code);
nlohmann::json jupyterInfoJson(const JupyterHubInfo &info);
// AIO's ActiveSessionsResult.sessions: id -> {kernel_name, last_used, age_seconds, ...}.
nlohmann::json jupyterSessionsJson(const std::vector<JupyterSessionRow> &rows);

} // namespace sbx
