#pragma once

#include <memory>
#include <optional>
#include <string>

namespace sbx {

class KernelHub;
struct ServerContext;

// The server's one KernelHub, shared by the jupyter and code groups (stateful Python in
// /v1/code/execute runs in the same sessions): made by the first group that asks, stopped by a
// shutdown step, its completions posted to the I/O thread.
std::shared_ptr<KernelHub> sharedKernelHub(ServerContext &context);

// A request's cwd as an absolute existing directory (a relative one is taken from the
// workspace); nullopt with error set otherwise.
std::optional<std::string> workingDirectory(const std::string &workspace, const std::string &cwd,
                                            std::string &error);

} // namespace sbx
