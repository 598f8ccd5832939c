#include "server/mcp/mcpconfig.h"

#include "server/core/jsonparse.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace sbx {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A configuration is a few kilobytes; anything near this is not one.
constexpr std::uintmax_t kMaxConfigBytes = 4 * 1024 * 1024;
constexpr double kMaxTimeoutSeconds = 24 * 60 * 60;

std::string describeEntry(const McpServerSpec &spec) {
    return "MCP server '" + spec.name + "' in " + spec.source + ": ";
}

// Fills spec from one entry of mcpServers; a field that does not fit sets spec.problem.
void readEntry(const json &entry, const std::string &workspace, McpServerSpec &spec) {
    const auto refuse = [&spec](std::string why, int status = 500) {
        if (spec.problem.empty()) {
            spec.problem = describeEntry(spec) + std::move(why);
            spec.problemStatus = status;
        }
    };
    if (!entry.is_object())
        return refuse("the entry must be an object with \"command\"");
    if (const auto hidden = entry.find("hidden"); hidden != entry.end() && !hidden->is_null()) {
        if (!hidden->is_boolean())
            refuse("\"hidden\" must be true or false");
        else
            spec.hidden = hidden->get<bool>();
    }
    const auto type = entry.find("type");
    const std::string typeName =
        type != entry.end() && type->is_string() ? type->get<std::string>() : std::string();
    if (entry.contains("url") || (!typeName.empty() && typeName != "stdio"))
        return refuse("only stdio servers (\"command\") are supported here, not remote ones "
                      "(\"url\" or \"type\": \"" +
                          (typeName.empty() ? std::string("http") : typeName) + "\")",
                      501);
    const auto command = entry.find("command");
    if (command == entry.end() || !command->is_string() || command->get<std::string>().empty())
        return refuse("\"command\" must be a non-empty string");
    spec.command = command->get<std::string>();
    if (const auto args = entry.find("args"); args != entry.end() && !args->is_null()) {
        if (!args->is_array())
            return refuse("\"args\" must be an array of strings");
        for (const json &arg : *args) {
            if (!arg.is_string())
                return refuse("\"args\" must be an array of strings");
            spec.args.push_back(arg.get<std::string>());
        }
    }
    if (const auto env = entry.find("env"); env != entry.end() && !env->is_null()) {
        if (!env->is_object())
            return refuse("\"env\" must be an object of strings");
        for (const auto &[name, value] : env->items()) {
            if (name.empty() || name.find('=') != std::string::npos ||
                name.find('\0') != std::string::npos || !value.is_string())
                return refuse("\"env\" must map names without '=' to strings");
            spec.environment.push_back(name + "=" + value.get<std::string>());
        }
    }
    spec.workingDirectory = workspace;
    if (const auto cwd = entry.find("cwd"); cwd != entry.end() && !cwd->is_null()) {
        if (!cwd->is_string() || cwd->get<std::string>().empty())
            return refuse("\"cwd\" must be a non-empty string");
        const fs::path path(cwd->get<std::string>());
        spec.workingDirectory = (path.is_absolute() ? path : fs::path(workspace) / path).string();
    }
    if (const auto timeout = entry.find("timeout"); timeout != entry.end() && !timeout->is_null()) {
        const double seconds = timeout->is_number() ? timeout->get<double>() : -1;
        if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxTimeoutSeconds)
            return refuse("\"timeout\" must be a number of seconds above 0");
        spec.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
    }
}

std::optional<std::string> readSmallFile(const std::string &path, std::string &error) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        error = ec.message();
        return std::nullopt;
    }
    if (size > kMaxConfigBytes) {
        error = "it is larger than 4 MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

void parseMcpConfigText(const std::string &text, const std::string &source,
                        const std::string &workspace, McpConfig &config) {
    config.configured = true;
    // The text may hold tokens for the servers (env values): errors never quote it.
    const JsonParse parsed = parseJson(text);
    if (!parsed.ok()) {
        config.errors.push_back(source + " is not valid JSON (" + parsed.error + " at byte " +
                                std::to_string(parsed.byte) + ")");
        return;
    }
    const json &document = parsed.value;
    const auto servers = document.is_object() ? document.find("mcpServers") : document.end();
    if (!document.is_object() || servers == document.end() || !servers->is_object()) {
        config.errors.push_back(source + " must be an object {\"mcpServers\": {\"NAME\": "
                                         "{\"command\": ..., \"args\": [...], \"env\": {...}}}}");
        return;
    }
    std::map<std::string, McpServerSpec> byName;
    for (McpServerSpec &spec : config.servers)
        byName[spec.name] = std::move(spec);
    for (const auto &[name, entry] : servers->items()) {
        McpServerSpec spec;
        spec.name = name;
        spec.source = source;
        if (name.empty() || name.find('/') != std::string::npos) {
            spec.problem = "MCP server names must be non-empty and without '/' (" + source + ")";
        } else {
            const auto disabled = entry.is_object() ? entry.find("disabled") : entry.end();
            if (disabled != entry.end() && disabled->is_boolean() && disabled->get<bool>())
                continue; // Cline's switch: configured, not offered
            readEntry(entry, workspace, spec);
        }
        byName[name] = std::move(spec);
    }
    config.servers.clear();
    for (auto &[name, spec] : byName)
        config.servers.push_back(std::move(spec));
}

McpConfig loadMcpConfig(const std::string &filePath, const std::optional<std::string> &variable,
                        const std::string &workspace) {
    McpConfig config;
    std::error_code ec;
    if (fs::exists(filePath, ec)) {
        std::string error;
        if (const auto text = readSmallFile(filePath, error)) {
            parseMcpConfigText(*text, filePath, workspace, config);
        } else {
            config.configured = true;
            config.errors.push_back("cannot read " + filePath + ": " + error);
        }
    }
    if (!variable)
        return config;
    const std::size_t start = variable->find_first_not_of(" \t\r\n");
    if (start == std::string::npos)
        return config; // set but empty: as unset
    if ((*variable)[start] == '{') {
        parseMcpConfigText(*variable, kMcpServersVariable, workspace, config);
        return config;
    }
    const fs::path path =
        fs::path(*variable).is_absolute() ? fs::path(*variable) : fs::path(workspace) / *variable;
    std::string error;
    if (const auto text = readSmallFile(path.string(), error)) {
        parseMcpConfigText(*text, path.string() + " (from " + kMcpServersVariable + ")", workspace,
                           config);
    } else {
        config.configured = true;
        std::string why = kMcpServersVariable;
        why += " names " + path.string() + ", which cannot be read: " + error;
        config.errors.push_back(std::move(why));
    }
    return config;
}

} // namespace sbx
