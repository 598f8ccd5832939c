#pragma once

#include <optional>
#include <string>
#include <vector>

// The machine facts behind GET /v1/sandbox and /llms.txt (AIO's SandboxDetail, plus what the
// text manual shows).
namespace sbx {

struct ToolSpec {
    std::optional<std::string> ver;
    std::optional<std::string> bin;
    std::vector<std::string> alias;
};

// A runtime tool with the label the manual shows ("Python", "npm", "Git").
struct LabelledTool {
    std::string label;
    ToolSpec spec;
};

struct AvailableTool {
    std::string name;
    std::string description;
};

struct ToolCategory {
    std::string category;
    std::vector<AvailableTool> tools;
};

struct SystemFacts {
    std::string os;
    std::string osVersion;
    std::string osPrettyName;
    std::string arch;
    std::string kernel;
    std::string hostname;
    std::string user;
    unsigned uid = 0;
    std::string homeDir;
    std::string workspace;
    std::string timezone;
    // Listening TCP ports (IPv4 and IPv6), ascending, as strings as AIO sends them.
    std::vector<std::string> occupiedPorts;
};

struct RuntimeFacts {
    std::vector<LabelledTool> python;
    std::vector<LabelledTool> nodejs;
    // Shown in the manual's Development Environment only (git, gh).
    std::vector<LabelledTool> other;
};

struct Facts {
    SystemFacts system;
    RuntimeFacts runtime;
    std::vector<ToolCategory> utils;
};

} // namespace sbx
