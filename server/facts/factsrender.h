#pragma once

#include "server/core/router.h"
#include "server/facts/facts.h"

#include <string>
#include <vector>

// Turns facts into the two documents served from them: the GET /v1/sandbox body and /llms.txt.
namespace sbx {

// What the documents say about the server itself; fixed once the routes are installed.
struct ServerDescription {
    std::string version;
    std::vector<RouteInfo> endpoints;
    std::vector<std::string> extensions;
    std::string authMechanisms;
};

// The "System Environment / Development Environment / Available Tools" text (AIO's `data`).
std::string renderSummary(const Facts &facts, const ServerDescription &server);
// AIO's flat SandboxResponse plus "extensions", serialised.
std::string renderSandboxJson(const Facts &facts, const ServerDescription &server);
std::string renderLlmsText(const Facts &facts, const ServerDescription &server);

} // namespace sbx
