#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace boost::asio {
class io_context;
} // namespace boost::asio

namespace sbx {

class Authenticator;
class Router;

struct HttpLimits {
    std::size_t headerLimit = 64 * 1024;
    // A new connection that has not sent its first request header within this is closed:
    // idle connections cost descriptors, which are few.
    std::chrono::seconds headerTimeout{15};
    // A keep-alive connection with no request for this long after its last one is closed.
    std::chrono::seconds idleTimeout{120};
    // Open connections at most; 0: derived from RLIMIT_NOFILE when the server starts
    // accepting, less a reserve for PTYs, files and the work pool. At the cap the connection
    // idle the longest waiting for a request header gives way; when none waits, the newcomer
    // gets a 503.
    std::size_t maxConnections = 0;
    // Reading one body or writing one response.
    std::chrono::seconds transferTimeout{300};
};

// The HTTP side: listener, keep-alive sessions, auth before routing, signal handling. All
// Beast and Asio code lives in its .cpp (one heavy translation unit).
class HttpServer final {
public:
    HttpServer(const Router &router, const Authenticator &auth, HttpLimits limits = {});
    ~HttpServer();
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    // Binds and listens (SIGTERM/SIGINT are caught from construction on). Error text on failure.
    std::optional<std::string> listen(const std::string &host, std::uint16_t port);
    std::uint16_t port() const;
    // The I/O context run() runs; route groups get it through ServerContext.
    boost::asio::io_context &ioContext();
    // Serves on the calling thread until SIGTERM, SIGINT or requestStop(); then stops
    // accepting, closes the connections and returns.
    void run();
    // From any thread.
    void requestStop();

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace sbx
