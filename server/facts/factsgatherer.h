#pragma once

#include "server/facts/facts.h"

#include <chrono>
#include <string>
#include <vector>

// Reads facts from this machine: /etc/os-release, uname, the user database, the time zone,
// /proc/net/tcp{,6}, PATH, and version probes run in parallel with a time limit.
namespace sbx::facts {

SystemFacts gatherSystem(const std::string &workspace);
std::vector<std::string> occupiedPorts();
std::string timezone();
// Runs `tool --version` for the known runtimes found on PATH, all at once, each bounded.
// allAnswered (optional) becomes false when a probe ran out of time.
RuntimeFacts gatherRuntimes(std::chrono::milliseconds probeTimeout, bool *allAnswered = nullptr);
// The same runtimes as found on PATH, every version unknown: starts no process.
RuntimeFacts locateRuntimes();
std::vector<ToolCategory> gatherTools();
// The first dotted version number in text ("Python 3.11.2" -> "3.11.2").
std::optional<std::string> versionIn(std::string_view text);

} // namespace sbx::facts
