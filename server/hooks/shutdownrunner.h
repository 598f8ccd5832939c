#pragma once

#include "server/hooks/hookstore.h"

#include <chrono>
#include <string>
#include <vector>

namespace sbx {

struct ShutdownRunOptions {
    std::string workspace;
    // Between the SIGTERM at a hook's timeout and the SIGKILL to its process group.
    std::chrono::milliseconds killGrace{2000};
    // Output kept per hook (the end of it) for the log.
    std::size_t outputLimit = 64 * 1024;
};

// Runs shutdown hooks when the server stops: lanes by ascending priority, the hooks of a lane
// in parallel, the next lane once the previous one is done. Each hook is /bin/sh -c COMMAND in
// its own process group in the workspace; at its timeout the group gets SIGTERM, then SIGKILL.
// Each hook's result and output go to the log as one block; its command never does.
void runShutdownHooks(std::vector<ShutdownHook> hooks, const ShutdownRunOptions &options);

} // namespace sbx
