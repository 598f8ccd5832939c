// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/httpserver.h"

#include "server/auth/authenticator.h"
#include "server/core/httpcompress.h"
#include "server/core/log.h"
#include "server/core/router.h"
#include "server/core/streamedbody.h"
#include "server/core/streamroute.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <limits>
#include <list>
#include <set>
#include <sys/resource.h>

namespace sbx {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
template <typename T> using Awaitable = asio::awaitable<T>;

namespace {

// After a response that closes the connection, unread request bytes are drained this long
// (or up to kLingerBytes) so that the close does not reset the connection under the response.
constexpr auto kLingerTime = std::chrono::seconds(2);
constexpr std::size_t kLingerBytes = 1024 * 1024;
// Failed accepts (out of descriptors, memory) are retried after a pause that doubles each time.
constexpr auto kAcceptBackoffMin = std::chrono::milliseconds(10);
constexpr auto kAcceptBackoffMax = std::chrono::milliseconds(1000);
// Descriptors kept from the connection cap: up to 100 PTYs of shell sessions, files of
// transfers, pipes of hooks and of the work pool, plus a sixteenth of the rest for slack.
constexpr std::size_t kReservedDescriptors = 128;
constexpr std::size_t kMinConnections = 8;
// Newcomers refused with a 503 at a time (each lingers up to kLingerTime); past it they are
// closed without an answer.
constexpr int kMaxRefusals = 16;
constexpr auto kCapWarningInterval = std::chrono::seconds(10);

auto withError(beast::error_code &ec) {
    return asio::redirect_error(asio::use_awaitable, ec);
}

bool isHttpParseError(const beast::error_code &ec) {
    return ec.category() == http::make_error_code(http::error::bad_method).category() &&
           ec != http::error::end_of_stream;
}

bool isPeerGone(const beast::error_code &ec) {
    return ec == http::error::end_of_stream || ec == asio::error::eof ||
           ec == beast::error::timeout || ec == asio::error::operation_aborted ||
           ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
           ec == asio::error::not_connected || ec == asio::error::bad_descriptor;
}

std::string describeRemote(const tcp::socket &socket) {
    beast::error_code ec;
    const auto endpoint = socket.remote_endpoint(ec);
    if (ec)
        return "?";
    return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

HttpRequest toRequest(const http::request<http::empty_body> &header, std::string remote,
                      bool &validTarget) {
    HttpRequest request;
    request.method = std::string(header.method_string());
    request.target = std::string(header.target());
    std::string_view query;
    validTarget = splitTarget(request.target, request.path, query);
    request.query = parseQuery(query);
    for (const auto &field : header)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    request.version = header.version();
    request.keepAlive = header.keep_alive();
    request.upgrade = beast::websocket::is_upgrade(header);
    request.remote = std::move(remote);
    return request;
}

struct ConnectionCap {
    std::size_t connections = 0;
    std::size_t descriptorLimit = 0;
};

std::size_t openDescriptors() {
    std::error_code ec;
    std::size_t count = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end;
         it.increment(ec))
        ++count;
    // The iterator's own descriptor is listed too.
    return ec || count == 0 ? 16 : count - 1;
}

// Connections that fit in RLIMIT_NOFILE beside what is open now and the reserve.
ConnectionCap derivedConnectionCap() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return {65536, 0};
    const std::size_t soft = static_cast<std::size_t>(limit.rlim_cur);
    const std::size_t open = openDescriptors();
    const std::size_t available = soft > open ? soft - open : 0;
    const std::size_t reserve = std::min(available / 2, kReservedDescriptors + available / 16);
    return {std::max(kMinConnections, available - reserve), soft};
}

bool outOfDescriptors(const beast::error_code &ec) {
    return ec == asio::error::no_descriptors ||
           ec == boost::system::errc::too_many_files_open_in_system;
}

std::string allowedList(const std::vector<std::string> &methods) {
    std::string text;
    for (const std::string &method : methods) {
        if (!text.empty())
            text += ", ";
        text += method;
    }
    return text;
}

// Bodies of this size and more are parsed on the parse thread: parsing megabytes on the I/O
// thread would hold every other connection for as long.
constexpr std::size_t kInlineParseBytes = 64 * 1024;
// Request bodies held in memory at once, over all connections; past it a request gets 503.
constexpr std::size_t kBodyBudget = 256 * 1024 * 1024;

// What writing a response needs of its request, without the body.
HttpRequest headOf(const HttpRequest &request) {
    HttpRequest head;
    head.method = request.method;
    head.path = request.path;
    head.version = request.version;
    head.keepAlive = request.keepAlive;
    head.remote = request.remote;
    // The answer's coding depends on it; no other header (none with a secret) is kept.
    if (const auto accepted = request.header("Accept-Encoding"))
        head.headers.emplace_back("Accept-Encoding", std::string(*accepted));
    return head;
}

// No exception from reading a client's body may end its connection without an answer.
std::optional<HttpResponse> checkedBodyPolicy(HttpRequest &request, BodyPolicy policy) {
    try {
        return applyBodyPolicy(request, policy);
    } catch (const std::exception &) {
        return errorResponse(400, "The request body cannot be read");
    }
}

// A share of the server's body budget, held while one request is handled (I/O thread only).
class BodyReservation final {
public:
    explicit BodyReservation(std::size_t &held)
        : m_held(held) {}
    ~BodyReservation() { m_held -= m_taken; }
    BodyReservation(const BodyReservation &) = delete;
    BodyReservation &operator=(const BodyReservation &) = delete;

    bool take(std::size_t bytes) {
        if (bytes > kBodyBudget - m_held)
            return false;
        m_held += bytes;
        m_taken += bytes;
        return true;
    }
    void shrinkTo(std::size_t bytes) {
        if (bytes < m_taken) {
            m_held -= m_taken - bytes;
            m_taken = bytes;
        }
    }

private:
    std::size_t &m_held;
    std::size_t m_taken = 0;
};

// Plain data only: a pool thread may drop the last reference after the I/O context is gone.
struct AsyncReply {
    asio::steady_timer *timer = nullptr; // null once the session stopped waiting
    std::optional<HttpResponse> response;
};

// Shared by the copies of one Responder; whoever answers first wins.
class ResponderState final {
public:
    ResponderState(asio::io_context &io, std::shared_ptr<AsyncReply> reply)
        : m_io(io)
        , m_reply(std::move(reply)) {}
    ~ResponderState() {
        if (!m_answered.exchange(true))
            deliver(errorResponse(500, "The request handler returned no response"));
    }
    ResponderState(const ResponderState &) = delete;
    ResponderState &operator=(const ResponderState &) = delete;

    void answer(HttpResponse response) {
        if (!m_answered.exchange(true))
            deliver(std::move(response));
    }

private:
    void deliver(HttpResponse response) {
        asio::post(m_io, [reply = m_reply, response = std::move(response)]() mutable {
            if (!reply->timer)
                return;
            reply->response = std::move(response);
            reply->timer->cancel();
        });
    }

    asio::io_context &m_io;
    std::shared_ptr<AsyncReply> m_reply;
    std::atomic<bool> m_answered{false};
};

} // namespace

Awaitable<bool> writeHttpResponse(beast::tcp_stream &stream, const HttpRequest &request,
                                  HttpResponse response) {
    if (response.stream)
        co_return co_await writeStreamedResponse(stream, request, std::move(response));
    // JSON and text over a slow link: a listing of 10 000 files is 2 MB plain, 60 KB gzipped.
    compressResponse(request, response);
    http::response<http::string_body> out{static_cast<http::status>(response.status),
                                          request.version};
    out.set(http::field::server, kServerHeader);
    if (!response.contentType.empty())
        out.set(http::field::content_type, response.contentType);
    for (auto &[name, value] : response.headers)
        out.insert(name, value);
    const bool keepAlive = request.keepAlive && !response.close;
    out.keep_alive(keepAlive);
    if (request.method == "HEAD") {
        out.content_length(response.body.size());
    } else {
        out.body() = std::move(response.body);
        out.prepare_payload();
    }
    beast::error_code ec;
    co_await http::async_write(stream, out, withError(ec));
    co_return !ec && keepAlive;
}

class HttpServer::Impl final {
public:
    Impl(const Router &router, const Authenticator &auth, HttpLimits limits)
        : m_router(router)
        , m_auth(auth)
        , m_limits(limits)
        , m_signals(m_io, SIGTERM, SIGINT) {}
    ~Impl() {
        // Sessions cut short by a forced stop are destroyed with m_io: they must not touch
        // members that are already gone.
        m_destroying = true;
    }
    Impl(const Impl &) = delete;
    Impl &operator=(const Impl &) = delete;

    std::optional<std::string> listen(const std::string &host, std::uint16_t port);
    void run();
    void requestStop() {
        asio::post(m_io, [this] { beginStop("stop requested"); });
    }
    std::uint16_t port() const { return m_port; }
    asio::io_context &ioContext() { return m_io; }

private:
    // One per connection: how the server closes it at shutdown.
    class Connection final : public ConnectionControl {
    public:
        Connection(Impl &server, beast::tcp_stream &stream)
            : m_server(server) {
            m_closer = [&stream] {
                beast::error_code ec;
                stream.socket().shutdown(tcp::socket::shutdown_both, ec);
                stream.close();
            };
            m_server.m_connections.insert(this);
        }
        ~Connection() override {
            if (m_server.m_destroying)
                return;
            setIdle(false);
            m_server.m_connections.erase(this);
            if (m_server.m_stopping && m_server.m_connections.empty())
                m_server.m_forceStop.cancel();
        }
        Connection(const Connection &) = delete;
        Connection &operator=(const Connection &) = delete;

        void setCloser(std::function<void()> closer) override { m_closer = std::move(closer); }
        bool stopping() const override { return m_server.m_stopping; }
        void close() {
            if (m_closer)
                m_closer();
            if (waiting)
                waiting->cancel();
        }
        // Idle: waiting for a request header, which the connection cap may cut short. Never
        // set during a request, a stream or a WebSocket.
        void setIdle(bool idle) {
            if (idle == m_idlePosition.has_value())
                return;
            if (idle) {
                m_idlePosition = m_server.m_idle.insert(m_server.m_idle.end(), this);
            } else {
                m_server.m_idle.erase(*m_idlePosition);
                m_idlePosition.reset();
            }
        }
        // Closed to make room for a newcomer: it stops counting at once, its descriptor is
        // free, and its session ends quietly at its next resumption.
        void evict() {
            setIdle(false);
            m_server.m_connections.erase(this);
            m_evicted = true;
            close();
        }
        bool evicted() const { return m_evicted; }

        asio::steady_timer *waiting = nullptr;

    private:
        Impl &m_server;
        std::function<void()> m_closer;
        // In m_server.m_idle, oldest first, while idle.
        std::optional<std::list<Connection *>::iterator> m_idlePosition;
        bool m_evicted = false;
    };

    Awaitable<void> acceptLoop();
    // Closes the connection idle the longest; false when none is idle.
    bool evictLongestIdle();
    // A newcomer at the cap with every connection busy: 503, then close.
    Awaitable<void> refuse(tcp::socket socket);
    Awaitable<void> session(tcp::socket socket);
    // Handles one request whose header is read; false ends the connection.
    Awaitable<bool> serve(beast::tcp_stream &stream, beast::flat_buffer &buffer,
                          HeaderParser &parser, HttpRequest &request, Connection &connection);
    Awaitable<bool> respond(beast::tcp_stream &stream, const HttpRequest &request,
                            HttpResponse response, bool forceClose = false);
    Awaitable<void> lingeringClose(beast::tcp_stream &stream);
    // Waits on a timer that another thread's result cancels until ready() holds; false when the
    // server stopped first. The connection's close cancels it too.
    template <typename Ready>
    Awaitable<bool> waitOn(asio::steady_timer &timer, Connection &connection, Ready ready) {
        connection.waiting = &timer;
        while (!ready() && !m_stopping) {
            beast::error_code ec;
            co_await timer.async_wait(withError(ec));
        }
        connection.waiting = nullptr;
        co_return ready();
    }
    // A buffered or async route's text/event-stream answer (RouteOptions::eventStream).
    Awaitable<bool> serveEventStream(EventStreamHandler &handler, beast::tcp_stream &stream,
                                     HttpRequest &request, Connection &connection);
    // Applies a JSON body policy on the parse thread; false when the server stopped meanwhile.
    Awaitable<bool> parseOffThread(HttpRequest &request, BodyPolicy policy,
                                   std::optional<HttpResponse> &refusal, Connection &connection);
    void beginStop(const char *why);
    void logRequest(const HttpRequest &request, int status) const;

    const Router &m_router;
    const Authenticator &m_auth;
    const HttpLimits m_limits;
    // Declared before m_io so that they outlive it (see ~Impl).
    bool m_destroying = false;
    bool m_stopping = false;
    std::set<Connection *> m_connections;
    // The idle ones among m_connections, longest idle first.
    std::list<Connection *> m_idle;
    std::size_t m_maxConnections = 0;
    int m_refusals = 0;
    std::chrono::steady_clock::time_point m_lastCapWarning;
    std::uint16_t m_port = 0;
    asio::io_context m_io{1};
    tcp::acceptor m_acceptor{m_io};
    asio::signal_set m_signals;
    asio::steady_timer m_forceStop{m_io};
    std::size_t m_bodyBytesHeld = 0;
    // After m_io: joined before the context its jobs post back to is gone.
    asio::thread_pool m_parseThread{1};
};

std::optional<std::string> HttpServer::Impl::listen(const std::string &host, std::uint16_t port) {
    beast::error_code ec;
    tcp::endpoint endpoint;
    const auto address = asio::ip::make_address(host, ec);
    if (!ec) {
        endpoint = tcp::endpoint(address, port);
    } else {
        tcp::resolver resolver(m_io);
        const auto results = resolver.resolve(host, std::to_string(port), ec);
        if (ec || results.empty())
            return "cannot resolve host '" + host + "'" + (ec ? ": " + ec.message() : "");
        endpoint = results.begin()->endpoint();
    }
    m_acceptor.open(endpoint.protocol(), ec);
    if (!ec)
        m_acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec)
        m_acceptor.bind(endpoint, ec);
    if (!ec)
        m_acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        return "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message();
    m_port = m_acceptor.local_endpoint().port();
    return std::nullopt;
}

void HttpServer::Impl::run() {
    m_signals.async_wait([this](const beast::error_code &ec, int signal) {
        if (!ec)
            beginStop(signal == SIGTERM ? "SIGTERM received" : "SIGINT received");
    });
    asio::co_spawn(m_io, acceptLoop(), asio::detached);
    m_io.run();
}

void HttpServer::Impl::beginStop(const char *why) {
    if (m_stopping)
        return;
    m_stopping = true;
    log::info(std::string(why) + ": stopping; closing " + std::to_string(m_connections.size()) +
              " connection(s)");
    beast::error_code ec;
    m_acceptor.close(ec);
    m_signals.cancel(ec);
    // Closing may destroy nothing yet (sessions end on their next resumption), so iterate a copy.
    const std::set<Connection *> open = m_connections;
    for (Connection *connection : open)
        connection->close();
    if (!m_connections.empty()) {
        // A handler that ignores the close must not hold the process forever.
        m_forceStop.expires_after(std::chrono::seconds(5));
        m_forceStop.async_wait([this](const beast::error_code &error) {
            if (!error) {
                log::warning("connections still open after 5 s: stopping anyway");
                m_io.stop();
            }
        });
    }
}

Awaitable<void> HttpServer::Impl::acceptLoop() {
    if (m_limits.maxConnections > 0) {
        m_maxConnections = m_limits.maxConnections;
        log::info("accepting up to " + std::to_string(m_maxConnections) + " connections");
    } else {
        const ConnectionCap cap = derivedConnectionCap();
        m_maxConnections = cap.connections;
        log::info("accepting up to " + std::to_string(m_maxConnections) +
                  " connections (descriptor limit " + std::to_string(cap.descriptorLimit) + ")");
    }
    asio::steady_timer backoff(m_io);
    auto delay = kAcceptBackoffMin;
    unsigned failures = 0;
    while (!m_stopping) {
        beast::error_code ec;
        tcp::socket socket(m_io);
        co_await m_acceptor.async_accept(socket, withError(ec));
        if (m_stopping || ec == asio::error::operation_aborted)
            co_return;
        if (ec) {
            // Out of descriptors: the longest idle connection gives up its own. Otherwise
            // wait, longer each time, instead of spinning on the same error.
            if (outOfDescriptors(ec) && evictLongestIdle())
                continue;
            if (failures++ == 0)
                log::warning("accept failed: " + ec.message() + "; retrying with a back-off");
            backoff.expires_after(delay);
            co_await backoff.async_wait(withError(ec));
            delay = std::min<std::chrono::milliseconds>(delay * 2, kAcceptBackoffMax);
            continue;
        }
        if (failures > 0) {
            log::info("accepting again after " + std::to_string(failures) + " failed attempt(s)");
            failures = 0;
        }
        delay = kAcceptBackoffMin;
        if (m_connections.size() >= m_maxConnections && !evictLongestIdle()) {
            if (m_refusals < kMaxRefusals) {
                asio::co_spawn(m_io, refuse(std::move(socket)), asio::detached);
            } else {
                socket.close(ec);
            }
            continue;
        }
        socket.set_option(tcp::no_delay(true), ec);
        asio::co_spawn(m_io, session(std::move(socket)), asio::detached);
    }
}

bool HttpServer::Impl::evictLongestIdle() {
    if (m_idle.empty())
        return false;
    Connection *longest = m_idle.front();
    longest->evict();
    return true;
}

Awaitable<void> HttpServer::Impl::refuse(tcp::socket socket) {
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastCapWarning >= kCapWarningInterval) {
        m_lastCapWarning = now;
        log::warning("connection cap of " + std::to_string(m_maxConnections) +
                     " reached with every connection busy: refusing newcomers with 503");
    }
    ++m_refusals;
    try {
        HttpRequest bare;
        bare.keepAlive = false;
        bare.remote = describeRemote(socket);
        beast::tcp_stream stream(std::move(socket));
        HttpResponse response =
            errorResponse(503, "Too many connections (limit " + std::to_string(m_maxConnections) +
                                   ", all busy): try again shortly");
        response.headers.emplace_back("Retry-After", "1");
        co_await respond(stream, bare, std::move(response), true);
    } catch (const std::exception &e) {
        log::error(std::string("refusing a connection failed: ") + e.what());
    }
    --m_refusals;
}

Awaitable<void> HttpServer::Impl::session(tcp::socket socket) {
    const std::string remote = describeRemote(socket);
    beast::tcp_stream stream(std::move(socket));
    Connection connection(*this, stream);
    beast::flat_buffer buffer;
    bool firstRequest = true;
    try {
        while (!m_stopping) {
            HeaderParser parser;
            parser.header_limit(static_cast<std::uint32_t>(m_limits.headerLimit));
            // The body limit is the route's business; the header parser must not judge it.
            // (Not boost::none: Beast 1.74 compares a length with an empty limit as "greater".)
            parser.body_limit(std::numeric_limits<std::uint64_t>::max());
            // Idle connections hold descriptors: a new one must make its point quickly.
            stream.expires_after(firstRequest ? m_limits.headerTimeout : m_limits.idleTimeout);
            beast::error_code ec;
            connection.setIdle(true);
            co_await http::async_read_header(stream, buffer, parser, withError(ec));
            connection.setIdle(false);
            if (connection.evicted())
                co_return;
            firstRequest = false;
            if (ec) {
                if (m_stopping || isPeerGone(ec) || ec == http::error::partial_message)
                    co_return;
                HttpRequest bare;
                bare.keepAlive = false;
                bare.remote = remote;
                if (ec == http::error::header_limit) {
                    co_await respond(stream, bare,
                                     errorResponse(431, "Request header too large (limit " +
                                                            std::to_string(m_limits.headerLimit) +
                                                            " bytes)"),
                                     true);
                } else if (isHttpParseError(ec)) {
                    co_await respond(stream, bare,
                                     errorResponse(400, "Malformed HTTP request: " + ec.message()),
                                     true);
                }
                co_return;
            }
            bool validTarget = true;
            HttpRequest request = toRequest(parser.get(), remote, validTarget);
            if (!validTarget) {
                co_await respond(stream, request, errorResponse(400, "Malformed request target"),
                                 true);
                co_return;
            }
            if (!co_await serve(stream, buffer, parser, request, connection))
                co_return;
        }
    } catch (const std::exception &e) {
        log::error(std::string("connection from ") + remote + " ended by an error: " + e.what());
    }
}

Awaitable<bool> HttpServer::Impl::serve(beast::tcp_stream &stream, beast::flat_buffer &buffer,
                                        HeaderParser &parser, HttpRequest &request,
                                        Connection &connection) {
    // A response sent before the body is read must close the connection: the unread body
    // would otherwise be taken for the next request.
    const bool bodyPending = !parser.is_done();

    const AuthDecision decision = m_auth.check(request);
    if (!decision.allowed) {
        log::info("refused " + request.method + " " + request.path + " from " + request.remote +
                  ": " + decision.reason);
        co_return co_await respond(stream, request, m_auth.refusal(),
                                   bodyPending || request.upgrade);
    }
    request.auth = decision.method;

    RouteMatch match = m_router.match(request.method, request.path);
    if (match.result == RouteMatch::Result::NotFound) {
        co_return co_await respond(stream, request,
                                   errorResponse(404, "No such endpoint: " + request.method + " " +
                                                          request.path + " (see GET /llms.txt)"),
                                   bodyPending || request.upgrade);
    }
    if (match.result == RouteMatch::Result::MethodNotAllowed) {
        const std::string allowed = allowedList(match.allowed);
        HttpResponse response =
            errorResponse(405, "Method " + request.method + " not allowed on " + request.path +
                                   " (allowed: " + allowed + ")");
        response.headers.emplace_back("Allow", allowed);
        co_return co_await respond(stream, request, std::move(response), bodyPending);
    }
    const Route &route = *match.route;
    request.params = std::move(match.params);

    if (route.kind == RouteKind::Upgrade) {
        if (!request.upgrade) {
            HttpResponse response =
                errorResponse(426, "This endpoint is a WebSocket: send an Upgrade request");
            response.headers.emplace_back("Upgrade", "websocket");
            co_return co_await respond(stream, request, std::move(response), bodyPending);
        }
        UpgradeExchange exchange{request, stream, buffer, parser, connection};
        co_await route.upgrade->handle(exchange);
        co_return false;
    }
    if (route.kind == RouteKind::Stream) {
        StreamExchange exchange{request, stream, buffer, parser, connection};
        const StreamOutcome outcome = co_await route.stream->handle(exchange);
        co_return outcome == StreamOutcome::KeepAlive && !m_stopping;
    }

    // Buffered and async routes: read the whole body first, within the route's limit and the
    // server's budget for bodies held at once.
    BodyReservation reservation(m_bodyBytesHeld);
    if (bodyPending) {
        const auto length = parser.content_length();
        if (length && *length > route.options.bodyLimit) {
            co_return co_await respond(
                stream, request,
                errorResponse(413, "Request body too large (limit " +
                                       std::to_string(route.options.bodyLimit) + " bytes)"),
                true);
        }
        // A chunked body may grow to the route's limit: that much is set aside.
        if (!reservation.take(length ? static_cast<std::size_t>(*length)
                                     : route.options.bodyLimit)) {
            HttpResponse busy = errorResponse(
                503, "Server busy: other requests' bodies fill its memory budget (" +
                         std::to_string(kBodyBudget / (1024 * 1024)) + " MiB); retry shortly");
            busy.headers.emplace_back("Retry-After", "1");
            co_return co_await respond(stream, request, std::move(busy), true);
        }
        const auto expect = request.header("Expect");
        if (expect && iequals(*expect, "100-continue")) {
            http::response<http::empty_body> proceed{http::status::continue_, request.version};
            beast::error_code ec;
            co_await http::async_write(stream, proceed, withError(ec));
            if (ec)
                co_return false;
        }
        http::request_parser<http::string_body> bodyParser{std::move(parser)};
        bodyParser.body_limit(route.options.bodyLimit);
        stream.expires_after(m_limits.transferTimeout);
        beast::error_code ec;
        co_await http::async_read(stream, buffer, bodyParser, withError(ec));
        if (ec == http::error::body_limit) {
            co_return co_await respond(
                stream, request,
                errorResponse(413, "Request body too large (limit " +
                                       std::to_string(route.options.bodyLimit) + " bytes)"),
                true);
        }
        if (ec) {
            if (isHttpParseError(ec))
                co_await respond(stream, request,
                                 errorResponse(400, "Malformed request body: " + ec.message()),
                                 true);
            co_return false;
        }
        request.body = std::move(bodyParser.get().body());
        reservation.shrinkTo(request.body.size());
    }
    std::optional<HttpResponse> refusal;
    if (parsesJson(route.options.body) && request.body.size() > kInlineParseBytes) {
        if (!co_await parseOffThread(request, route.options.body, refusal, connection))
            co_return false;
    } else {
        refusal = checkedBodyPolicy(request, route.options.body);
    }
    if (refusal)
        co_return co_await respond(stream, request, std::move(*refusal));
    if (route.options.eventStream && request.method != "HEAD" && acceptsEventStream(request)) {
        // A stream may last hours: only the body it still holds counts against the budget.
        reservation.shrinkTo(request.body.size());
        co_return co_await serveEventStream(*route.options.eventStream, stream, request,
                                            connection);
    }

    HttpResponse response;
    try {
        if (route.kind == RouteKind::Buffered) {
            response = route.buffered(request);
        } else {
            asio::steady_timer timer(m_io, asio::steady_timer::time_point::max());
            auto reply = std::make_shared<AsyncReply>();
            reply->timer = &timer;
            auto state = std::make_shared<ResponderState>(m_io, reply);
            // The handler takes the body; the response needs only the head.
            HttpRequest head = headOf(request);
            route.async(std::move(request),
                        [state](HttpResponse r) { state->answer(std::move(r)); });
            request = std::move(head);
            state.reset();
            const bool answered = co_await waitOn(timer, connection,
                                                  [&reply] { return reply->response.has_value(); });
            reply->timer = nullptr;
            if (!answered)
                co_return false;
            response = std::move(*reply->response);
        }
    } catch (const std::exception &e) {
        log::error("handler for " + request.method + " " + route.pattern + " failed: " + e.what());
        response = errorResponse(500, "Internal error while handling the request");
    }
    co_return co_await respond(stream, request, std::move(response));
}

Awaitable<bool> HttpServer::Impl::serveEventStream(EventStreamHandler &handler,
                                                   beast::tcp_stream &stream, HttpRequest &request,
                                                   Connection &connection) {
    logRequest(request, 200);
    const HttpRequest head = headOf(request);
    EventStreamExchange exchange{head, stream, connection};
    StreamOutcome outcome = StreamOutcome::Close;
    try {
        outcome = co_await handler.handle(request, exchange);
    } catch (const std::exception &e) {
        // The response may be half written: the connection cannot carry another.
        log::error("event stream of " + head.method + " " + head.path + " failed: " + e.what());
    }
    co_return outcome == StreamOutcome::KeepAlive && !m_stopping;
}

Awaitable<bool> HttpServer::Impl::parseOffThread(HttpRequest &request, BodyPolicy policy,
                                                 std::optional<HttpResponse> &refusal,
                                                 Connection &connection) {
    struct Job {
        HttpRequest request;
        std::optional<HttpResponse> refusal;
        bool done = false;
        asio::steady_timer *timer = nullptr; // null once the session stopped waiting
    };
    asio::steady_timer timer(m_io, asio::steady_timer::time_point::max());
    auto job = std::make_shared<Job>();
    job->request = std::move(request);
    job->timer = &timer;
    asio::post(m_parseThread, [job, policy, &io = m_io] {
        job->refusal = checkedBodyPolicy(job->request, policy);
        asio::post(io, [job] {
            job->done = true;
            if (job->timer)
                job->timer->cancel();
        });
    });
    const bool done = co_await waitOn(timer, connection, [&job] { return job->done; });
    job->timer = nullptr;
    if (!done)
        co_return false;
    request = std::move(job->request);
    refusal = std::move(job->refusal);
    co_return true;
}

Awaitable<bool> HttpServer::Impl::respond(beast::tcp_stream &stream, const HttpRequest &request,
                                          HttpResponse response, bool forceClose) {
    logRequest(request, response.status);
    if (forceClose)
        response.close = true;
    const bool mustClose = response.close || !request.keepAlive;
    stream.expires_after(m_limits.transferTimeout);
    const bool keepAlive = co_await writeHttpResponse(stream, request, std::move(response));
    if (!keepAlive && mustClose && !m_stopping)
        co_await lingeringClose(stream);
    co_return keepAlive && !m_stopping;
}

Awaitable<void> HttpServer::Impl::lingeringClose(beast::tcp_stream &stream) {
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream.expires_after(kLingerTime);
    std::size_t drained = 0;
    char sink[16 * 1024];
    while (!ec && drained < kLingerBytes) {
        drained += co_await stream.async_read_some(asio::buffer(sink), withError(ec));
    }
    stream.close();
}

void HttpServer::Impl::logRequest(const HttpRequest &request, int status) const {
    // Method and path only: the query may hold ?api_key= or ?ticket=.
    if (!log::verbose())
        return;
    const std::string what = request.method.empty() ? std::string("malformed request")
                                                    : request.method + " " + request.path;
    log::debug(what + " -> " + std::to_string(status) + " (" + request.remote + ")");
}

HttpServer::HttpServer(const Router &router, const Authenticator &auth, HttpLimits limits)
    : m_impl(std::make_unique<Impl>(router, auth, limits)) {}

HttpServer::~HttpServer() = default;

std::optional<std::string> HttpServer::listen(const std::string &host, std::uint16_t port) {
    return m_impl->listen(host, port);
}

std::uint16_t HttpServer::port() const {
    return m_impl->port();
}

asio::io_context &HttpServer::ioContext() {
    return m_impl->ioContext();
}

void HttpServer::run() {
    m_impl->run();
}

void HttpServer::requestStop() {
    m_impl->requestStop();
}

} // namespace sbx
