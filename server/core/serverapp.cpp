#include "server/core/serverapp.h"

#include "server/auth/authenticator.h"
#include "server/auth/ticketstore.h"
#include "server/core/activityevents.h"
#include "server/core/httpserver.h"
#include "server/core/log.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"
#include "server/facts/factsservice.h"
#include "server/hooks/startuphooks.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <unistd.h>

namespace sbx {

namespace {

const std::string kVersion = SBX_VERSION;
// Left to a console starting this server: its first probe and window come first.
constexpr std::chrono::milliseconds kFirstProbeDelay(500);

std::string urlFor(const std::string &host, std::uint16_t port) {
    const bool ipv6 = host.find(':') != std::string::npos;
    return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

} // namespace

ServerApp::ServerApp(ServerOptions options)
    : m_options(std::move(options)) {}

int ServerApp::run() {
    // A peer closing early must not kill the process through a write on a dead pipe.
    std::signal(SIGPIPE, SIG_IGN);

    AuthConfigResult authConfig = authConfigFromEnvironment();
    for (const std::string &warning : authConfig.warnings)
        log::warning(warning);
    if (authConfig.error) {
        log::error(*authConfig.error);
        return 2;
    }
    TicketStore tickets(authConfig.config.ticketTtl);
    Authenticator auth(std::move(authConfig.config), tickets);
    ShutdownSteps shutdown;
    FactsService facts(m_options.workspace);
    StartupHooks hooks(m_options.workspace);
    Router router;
    // Constructed before the hooks so a SIGTERM during them is caught, not fatal.
    HttpLimits limits;
    limits.maxConnections = m_options.maxConnections;
    limits.headerTimeout = std::chrono::seconds(m_options.headerTimeout);
    HttpServer http(router, auth, limits);
    // Declared after http: its threads are joined before the I/O context they post to is gone.
    WorkPool pool(2);
    ActivityEvents events;
    ServerContext context{m_options, kVersion,         auth,  tickets, facts, pool,
                          shutdown,  http.ioContext(), events};

    ServerDescription description;
    description.version = kVersion;
    try {
        for (const RouteGroup &group : registeredRouteGroups()) {
            const auto &without = m_options.withoutGroups;
            if (std::find(without.begin(), without.end(), group.name) != without.end())
                continue;
            group.install(router, context);
            if (!m_options.noExtensions)
                description.extensions.insert(description.extensions.end(),
                                              group.extensions.begin(), group.extensions.end());
        }
    } catch (const ConfigurationError &e) {
        log::error(e.what());
        return 2;
    } catch (const std::exception &e) {
        log::error(std::string("installing the routes failed: ") + e.what());
        return 1;
    }
    std::sort(description.extensions.begin(), description.extensions.end());
    description.endpoints = router.routes();
    description.authMechanisms = auth.mechanisms();
    facts.setServerDescription(std::move(description));

    hooks.runBeforeListen();
    // The version probes (`pip --version` alone took over 1 s on a busy machine) come after the
    // listening line, on the refresher: a console waiting for that line and then probing
    // GET /v1/sandbox gets the facts without them at once, and their versions soon after.
    facts.gatherWithoutProbes();
    if (auto error = http.listen(m_options.host, m_options.port)) {
        log::error(*error);
        return 1;
    }
    // Our own port is listening now; the gathered list predates it.
    facts.refreshPorts();

    const std::string url = urlFor(m_options.host, http.port());
    log::info("workspace " + m_options.workspace + ", state " + m_options.stateDir +
              ", authentication: " + auth.mechanisms());
    std::printf("sandbox-server listening on %s\n", url.c_str());
    std::fflush(stdout);
    // stdout carries exactly one line: anything printed later by mistake lands in the log.
    dup2(STDERR_FILENO, STDOUT_FILENO);

    hooks.startPostReady(url);
    facts.startRefresher(std::chrono::seconds(30), 10, kFirstProbeDelay);

    http.run();

    shutdown.runAll();
    hooks.stop();
    facts.stop();
    pool.stop();
    log::info("stopped");
    return 0;
}

} // namespace sbx
