#pragma once

#include <functional>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
} // namespace boost::asio

namespace sbx {

class ActivityEvents;
class Authenticator;
class FactsService;
class TicketStore;
class WorkPool;
struct ServerOptions;

// Work done once the server has stopped accepting, before the process exits, in the order
// added. Shutdown hooks (SANDBOX_SHUTDOWN_HOOKS, /v1/sandbox/hooks) register here.
class ShutdownSteps final {
public:
    void add(std::string name, std::function<void()> step);
    // Runs every step; a step that throws is logged and the next one runs.
    void runAll();

private:
    std::vector<std::pair<std::string, std::function<void()>>> m_steps;
};

// What route groups may use while installing and serving; owned by ServerApp and alive as long
// as the server runs.
struct ServerContext {
    const ServerOptions &options;
    const std::string &version;
    Authenticator &auth;
    TicketStore &tickets;
    FactsService &facts;
    // Blocking work (processes, disk) goes here, never on the I/O thread.
    WorkPool &pool;
    ShutdownSteps &shutdown;
    // The server's single I/O thread, for groups that own sockets or descriptors of their own
    // (PTYs, file watches). Handlers running in a coroutine can use co_await this_coro::executor.
    boost::asio::io_context &io;
    // Notable moments for /v1/sandbox/observe's recent_events; post from any thread.
    ActivityEvents &events;
};

} // namespace sbx
