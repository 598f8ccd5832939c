#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

// The MCP servers the sandbox offers, read from the `mcpServers` form agents use:
//     {"mcpServers": {"name": {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "v"}}}}
// from STATE/mcp-servers.json and from SANDBOX_MCP_SERVERS (that JSON, or the path of a file
// holding it). Beast-free, so it builds into sbx_server_base.
namespace sbx {

inline constexpr const char *kMcpServersVariable = "SANDBOX_MCP_SERVERS";
inline constexpr const char *kMcpServersFile = "mcp-servers.json";

// An npm package the server installs before the first start (the default filesystem server).
struct McpInstall {
    // "name@version", as given to npm install.
    std::string package;
    std::string packageName;
    std::string version;
    // npm install --prefix this folder.
    std::string prefix;
};

struct McpServerSpec {
    std::string name;
    std::string command;
    std::vector<std::string> args;
    // "NAME=value" entries added to the sandbox's (secret-free) environment.
    std::vector<std::string> environment;
    // Absolute; the workspace unless the entry sets "cwd".
    std::string workingDirectory;
    // Per JSON-RPC request ("timeout", in seconds, as Cline writes it); initialize gets at
    // least 30 s.
    std::chrono::milliseconds timeout{60000};
    // Left out of GET /v1/mcp/servers unless include_hidden=true.
    bool hidden = false;
    // Where the entry came from: a file's path or the variable's name.
    std::string source;
    // Non-empty: the entry cannot be used and every request for it answers problemStatus with
    // this text (a field of the wrong type, a remote transport this server does not speak).
    std::string problem;
    int problemStatus = 500;
    // Set for a server that must be installed before its first start.
    std::optional<McpInstall> install;
};

struct McpConfig {
    // Sorted by name; a name in SANDBOX_MCP_SERVERS replaces the same name in the file.
    std::vector<McpServerSpec> servers;
    // Sources that could not be read or are not of the mcpServers form: while any is here the
    // server list is incomplete, so it is answered as an error.
    std::vector<std::string> errors;
    // Some source exists (even an empty {"mcpServers": {}}): no default server is offered.
    bool configured = false;
};

// Reads the file (absent: not configured) and the variable's value (nullopt: unset).
McpConfig loadMcpConfig(const std::string &filePath, const std::optional<std::string> &variable,
                        const std::string &workspace);
// Parses one source's text; what it finds is added to config.
void parseMcpConfigText(const std::string &text, const std::string &source,
                        const std::string &workspace, McpConfig &config);

} // namespace sbx
