#pragma once

#include "server/core/options.h"

namespace sbx {

// Startup and shutdown order of sandbox-server: hooks, routes, facts, listener, listening line,
// background work, then the reverse.
class ServerApp final {
public:
    explicit ServerApp(ServerOptions options);
    // The process exit code: 0 after a graceful stop, 1 when the server could not start, 2 for
    // an invalid configuration (ConfigurationError).
    int run();

private:
    ServerOptions m_options;
};

} // namespace sbx
