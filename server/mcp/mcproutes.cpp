// Route group "mcp": AIO's /v1/mcp/* in front of stdio MCP servers. The servers come from
// STATE/mcp-servers.json and SANDBOX_MCP_SERVERS (the mcpServers form agents use); with neither
// and Node.js present, the filesystem server on the workspace is offered, installed with npm on
// first use. Each server starts on first use and speaks JSON-RPC 2.0 over its stdin/stdout
// (server/mcp/mcpprocess), asynchronously on the I/O thread.
#include "server/core/bodyfields.h"
#include "server/core/log.h"
#include "server/core/options.h"
#include "server/core/process.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/secretenv.h"
#include "server/core/servercontext.h"
#include "server/mcp/mcpconfig.h"
#include "server/mcp/mcphub.h"

#include <algorithm>
#include <cctype>

namespace sbx {

namespace {

using nlohmann::json;

// Arguments carry file contents (write_file): more than a field-sized body.
constexpr std::size_t kArgumentsLimit = 16 * 1024 * 1024;

const McpInstall kFilesystemPackage{
    .package = "@modelcontextprotocol/server-filesystem@2026.8.31",
    .packageName = "@modelcontextprotocol/server-filesystem",
    .version = "2026.8.31",
    .prefix = {},
};

// pydantic's reading of a boolean query value.
std::optional<bool> queryBoolean(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char *yes : {"1", "true", "t", "yes", "y", "on"}) {
        if (lower == yes)
            return true;
    }
    for (const char *no : {"0", "false", "f", "no", "n", "off"}) {
        if (lower == no)
            return false;
    }
    return std::nullopt;
}

// The filesystem server on the workspace, when nothing is configured and Node.js is present.
std::optional<McpServerSpec> defaultServer(const ServerOptions &options, std::string &npm) {
    const auto node = findExecutable("node");
    const auto npmPath = findExecutable("npm");
    if (!node || !npmPath)
        return std::nullopt;
    npm = *npmPath;
    McpServerSpec spec;
    spec.name = "filesystem";
    spec.source = "the default (no MCP configuration, Node.js present)";
    spec.install = kFilesystemPackage;
    spec.install->prefix = options.stateDir + "/mcp/npm";
    spec.command = *node;
    spec.args = {spec.install->prefix + "/node_modules/" + spec.install->packageName +
                     "/dist/index.js",
                 options.workspace};
    spec.workingDirectory = options.workspace;
    return spec;
}

void install(Router &router, ServerContext &context) {
    const ServerOptions &options = context.options;
    // Its entries may carry tokens for the servers (env): no command of the sandbox sees it.
    const auto variable = takeEnvironmentSecret(kMcpServersVariable);
    const std::string file = options.stateDir + "/" + kMcpServersFile;
    McpConfig config = loadMcpConfig(file, variable, options.workspace);
    for (const std::string &error : config.errors)
        log::error("mcp: " + error + "; /v1/mcp/* answers with this until it is fixed and the " +
                   "server restarted");
    for (const McpServerSpec &spec : config.servers) {
        if (!spec.problem.empty())
            log::warning("mcp: " + spec.problem);
    }
    const bool configured = config.configured;
    std::string names;
    for (const McpServerSpec &spec : config.servers)
        names += (names.empty() ? "" : ", ") + spec.name;

    auto hub =
        std::make_shared<McpHub>(context.io, context.events, std::move(config), context.version);
    std::string serversSummary =
        "names of the MCP servers (stdio, from " + file + " or " + kMcpServersVariable +
        " in the {\"mcpServers\": {NAME: {command, args, env}}} form; ?include_hidden=true)";
    if (!configured) {
        std::string npm;
        if (auto spec = defaultServer(options, npm)) {
            serversSummary = "names of the MCP servers: with no MCP configuration, 'filesystem' "
                             "(npm " +
                             spec->install->package + " on the workspace, installed into " +
                             spec->install->prefix + " on first use; configure others in " + file +
                             " or " + kMcpServersVariable + ")";
            log::info("mcp: no configuration; offering 'filesystem' on the workspace (" +
                      spec->install->package + ", installed on first use)");
            hub->addInstalled(std::move(*spec), std::move(npm));
        } else {
            log::info("mcp: no configuration and no Node.js/npm on PATH: no MCP server");
        }
    } else if (!names.empty()) {
        log::info("mcp: servers " + names);
    }
    hub->start();
    context.shutdown.add("mcp servers", [hub] { hub->shutdown(); });

    router.add("GET", "/v1/mcp/servers",
               [hub](HttpRequest &request) {
                   bool includeHidden = false;
                   if (const auto value = request.queryValue("include_hidden")) {
                       const auto parsed = queryBoolean(*value);
                       if (!parsed)
                           return validationRefusal({"query", "include_hidden"}, "bool_parsing",
                                                    "Input should be a valid boolean, unable to "
                                                    "interpret input");
                       includeHidden = *parsed;
                   }
                   return hub->servers(includeHidden);
               },
               {.summary = std::move(serversSummary)});

    router.addAsync(
        "GET", "/v1/mcp/{server}/tools",
        [hub](HttpRequest request, Responder reply) {
            hub->listTools(std::string(request.param("server").value_or("")), std::move(reply));
        },
        {.summary = "a server's tools as MCP's ListToolsResult ({tools: [{name, inputSchema, "
                    "...}], nextCursor}; every page gathered, nextCursor null); the server starts "
                    "on first use"});

    router.addAsync(
        "POST", "/v1/mcp/{server}/tools/{tool}",
        [hub](HttpRequest request, Responder reply) {
            json arguments = json::object();
            if (request.jsonError)
                return reply(validationRefusal({"body", 0}, "json_invalid", "JSON decode error"));
            if (request.jsonParsed && !request.json.is_null()) {
                if (!request.json.is_object())
                    return reply(validationRefusal({"body"}, "dict_type",
                                                   "Input should be a valid dictionary of the "
                                                   "tool's arguments"));
                arguments = std::move(request.json);
            }
            hub->callTool(std::string(request.param("server").value_or("")),
                          std::string(request.param("tool").value_or("")), std::move(arguments),
                          std::move(reply));
        },
        {.summary = "call a tool; the body is its arguments object; answers MCP's CallToolResult "
                    "({content: [text|image|audio|resource_link|resource], structuredContent, "
                    "isError}); a tool's own error is a 200 with isError true",
         .body = BodyPolicy::Fields,
         .bodyLimit = kArgumentsLimit});
}

const RouteGroupRegistration registration({.name = "mcp", .order = 60, .install = install});

} // namespace

} // namespace sbx
