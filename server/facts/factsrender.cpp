#include "server/facts/factsrender.h"

#include <nlohmann/json.hpp>

namespace sbx {

namespace {

nlohmann::json toolSpecJson(const ToolSpec &spec) {
    nlohmann::json json = nlohmann::json::object();
    json["ver"] = spec.ver ? nlohmann::json(*spec.ver) : nlohmann::json(nullptr);
    json["bin"] = spec.bin ? nlohmann::json(*spec.bin) : nlohmann::json(nullptr);
    json["alias"] = spec.alias;
    return json;
}

nlohmann::json toolSpecsJson(const std::vector<LabelledTool> &tools) {
    nlohmann::json array = nlohmann::json::array();
    for (const LabelledTool &tool : tools)
        array.push_back(toolSpecJson(tool.spec));
    return array;
}

std::string joined(const std::vector<std::string> &items, const char *separator) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            text += separator;
        text += items[i];
    }
    return text;
}

void appendTool(std::string &text, const LabelledTool &tool) {
    text += "- " + tool.label;
    if (tool.spec.ver)
        text += " " + *tool.spec.ver;
    if (!tool.spec.alias.empty()) {
        text += ": `" + tool.spec.alias.front() + "`";
        if (tool.spec.alias.size() > 1) {
            std::vector<std::string> others(tool.spec.alias.begin() + 1, tool.spec.alias.end());
            text += " (also `" + joined(others, "`, `") + "`)";
        }
    }
    if (tool.spec.bin)
        text += " at " + *tool.spec.bin;
    text += "\n";
}

} // namespace

std::string renderSummary(const Facts &facts, const ServerDescription &server) {
    const SystemFacts &system = facts.system;
    std::string text;
    text += "## System Environment (v" + server.version + ")\n";
    text += "- OS: " + system.osPrettyName + " (" + system.arch + "), Linux kernel " +
            system.kernel + "\n";
    text += "- User: " + system.user + " (uid " + std::to_string(system.uid) + ")" +
            (system.uid == 0 ? ", administrator" : "") + "\n";
    text += "- Hostname: " + system.hostname + "\n";
    text += "- Home directory: " + system.homeDir + "\n";
    text += "- Workspace: " + system.workspace + " (hooks and commands start here)\n";
    text += "- Timezone: " + system.timezone + "\n";
    text +=
        "- Occupied ports: " +
        (system.occupiedPorts.empty() ? std::string("none") : joined(system.occupiedPorts, ", ")) +
        " (listening already: pick another port for your own servers)\n";
    text += "- Isolation: none. This is a development sandbox: commands run as the user above "
            "on this machine.\n";

    text += "\n## Development Environment\n";
    const auto &runtime = facts.runtime;
    if (runtime.python.empty() && runtime.nodejs.empty() && runtime.other.empty())
        text += "- No Python, Node.js or Git found on PATH.\n";
    for (const auto *group : {&runtime.python, &runtime.nodejs, &runtime.other}) {
        for (const LabelledTool &tool : *group)
            appendTool(text, tool);
    }

    text += "\n## Available Tools\n";
    if (facts.utils.empty())
        text += "- None of the well-known tools found on PATH.\n";
    for (const ToolCategory &category : facts.utils) {
        text += "### " + category.category + "\n";
        for (const AvailableTool &tool : category.tools)
            text += "- " + tool.name + ": " + tool.description + "\n";
    }
    return text;
}

std::string renderSandboxJson(const Facts &facts, const ServerDescription &server) {
    const SystemFacts &system = facts.system;
    nlohmann::json utils = nlohmann::json::array();
    for (const ToolCategory &category : facts.utils) {
        nlohmann::json tools = nlohmann::json::array();
        for (const AvailableTool &tool : category.tools)
            tools.push_back({{"name", tool.name}, {"description", tool.description}});
        utils.push_back({{"category", category.category}, {"tools", std::move(tools)}});
    }
    nlohmann::json body = {
        {"success", true},
        {"message", "Sandbox context retrieved"},
        {"data", renderSummary(facts, server)},
        {"hint", nullptr},
        {"home_dir", system.homeDir},
        {"workspace", system.workspace},
        {"version", server.version},
        {"detail",
         {{"system",
           {{"os", system.os},
            {"os_version", system.osVersion},
            {"arch", system.arch},
            {"user", system.user},
            {"home_dir", system.homeDir},
            {"workspace", system.workspace},
            {"timezone", system.timezone},
            {"occupied_ports", system.occupiedPorts}}},
          {"runtime",
           {{"python", toolSpecsJson(facts.runtime.python)},
            {"nodejs", toolSpecsJson(facts.runtime.nodejs)}}},
          {"utils", std::move(utils)}}},
        {"extensions", server.extensions},
    };
    return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string renderLlmsText(const Facts &facts, const ServerDescription &server) {
    std::string text;
    text += "# Sandbox manual for agents (sandbox-server " + server.version + ")\n\n";
    text += "This sandbox speaks a subset of the AIO sandbox API over HTTP. It is a local "
            "development sandbox, not an isolated container.\n\n";
    text += renderSummary(facts, server);

    text += "\n## API Endpoints\n";
    text += "Paths are relative to the address this manual was read from.\n";
    text += "Authentication: " + server.authMechanisms + ".\n";
    for (const RouteInfo &route : server.endpoints) {
        if (route.summary.empty())
            continue;
        const char *kind = route.kind == RouteKind::Upgrade ? " (WebSocket)" : "";
        text += "- " + route.method + " " + route.pattern + kind + ": " + route.summary + "\n";
    }
    text += "Errors come back in the envelope {\"success\": false, \"message\": ..., \"data\": "
            "null, \"hint\": null} with a 4xx or 5xx status.\n";
    text += "Extensions beyond AIO: " +
            (server.extensions.empty() ? std::string("none") : joined(server.extensions, ", ")) +
            ".\n";
    return text;
}

} // namespace sbx
