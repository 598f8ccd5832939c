#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

// Route groups install themselves from their own files (server/api/sandboxroutes.cpp,
// server/auth/ticketroutes.cpp, ...), so a new group adds a file, not a line in a central list:
//
//     namespace {
//     const sbx::RouteGroupRegistration registration({
//         .name = "shell", .order = 30, .extensions = {"terminal-replay"},
//         .install = [](sbx::Router &router, sbx::ServerContext &context) { ... }});
//     }
//
// List the file in sbx_server_app (server/CMakeLists.txt), an OBJECT library: in a static
// library the linker would drop the unreferenced object together with its registration.
namespace sbx {

class Router;
struct ServerContext;

struct RouteGroup {
    std::string name;
    // Groups install, and so list their endpoints, in ascending order.
    int order = 100;
    // Names of the extensions beyond AIO this group implements; GET /v1/sandbox lists them.
    std::vector<std::string> extensions = {};
    std::function<void(Router &, ServerContext &)> install = {};
};

// Thrown by an install function for a configuration the server must not run with (an invalid
// SANDBOX_SHUTDOWN_HOOKS): the server logs what() and exits with code 2.
class ConfigurationError final : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class RouteGroupRegistration final {
public:
    explicit RouteGroupRegistration(RouteGroup group);
};

// Every registered group, sorted by order then name.
std::vector<RouteGroup> registeredRouteGroups();

} // namespace sbx
