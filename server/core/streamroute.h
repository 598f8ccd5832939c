#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/http.h"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>

#include <functional>

// Routes that own the connection for a while: streaming bodies (uploads, downloads) and
// WebSocket upgrades. Register them with Router::addStream / Router::addUpgrade. Auth and
// routing have passed when they run; the header is parsed and the body is not read yet.
namespace sbx {

using HeaderParser = boost::beast::http::request_parser<boost::beast::http::empty_body>;

// The server's handle on a connection a route has taken over.
class ConnectionControl {
public:
    virtual ~ConnectionControl() = default;
    // Replaces how the server ends this connection when it stops (a WebSocket close frame,
    // a cancelled transfer). It runs on the I/O thread.
    virtual void setCloser(std::function<void()> closer) = 0;
    virtual bool stopping() const = 0;
};

struct StreamExchange {
    // Header fields, params and auth; the body is empty.
    HttpRequest &request;
    boost::beast::tcp_stream &stream;
    // May already hold the first bytes of the body.
    boost::beast::flat_buffer &buffer;
    // Header done: convert it with `request_parser<SomeBody> body{std::move(parser)}`.
    HeaderParser &parser;
    ConnectionControl &connection;
};

enum class StreamOutcome { KeepAlive, Close };

// A route that reads its own body and writes its own response: uploads and downloads in
// constant memory, past the 8 MiB limit of buffered routes.
class StreamHandler {
public:
    virtual ~StreamHandler() = default;
    // Writes exactly one response. KeepAlive only if the whole request body was consumed.
    virtual boost::asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) = 0;
};

struct UpgradeExchange {
    HttpRequest &request;
    // Move it into a websocket::stream, then setCloser() on connection so that a server stop
    // closes the WebSocket (tests/server/extdemo/extdemoroutes.cpp shows the pattern).
    boost::beast::tcp_stream &stream;
    // Bytes read past the upgrade request; empty unless the client sent frames before the 101.
    boost::beast::flat_buffer &buffer;
    // parser.release() is the request websocket::stream::async_accept expects.
    HeaderParser &parser;
    ConnectionControl &connection;
};

// A WebSocket endpoint (the shell terminal): it owns the connection after the upgrade.
class UpgradeHandler {
public:
    virtual ~UpgradeHandler() = default;
    // Owns the connection until it returns; the server closes it afterwards.
    virtual boost::asio::awaitable<void> handle(UpgradeExchange &exchange) = 0;
};

struct EventStreamExchange {
    // The request's head (the handler gets the parsed request itself as its argument).
    const HttpRequest &request;
    boost::beast::tcp_stream &stream;
    ConnectionControl &connection;
};

// The text/event-stream answer of a buffered or async route (RouteOptions::eventStream), picked
// when the request's Accept names text/event-stream. It runs once the body has been read and
// checked by the route's BodyPolicy, so it reads fields as the plain handler does; it writes
// exactly one response itself: a plain refusal through writeHttpResponse, or a stream through
// SseWriter (server/core/ssewriter.h).
class EventStreamHandler {
public:
    virtual ~EventStreamHandler() = default;
    // KeepAlive only if the response was written whole and the connection may carry another.
    virtual boost::asio::awaitable<StreamOutcome> handle(HttpRequest &request,
                                                         EventStreamExchange &exchange) = 0;
};

// Writes response as the session would (Server header, keep-alive, HEAD without a body).
// False when the connection must be closed (write failed or the response asked for it).
boost::asio::awaitable<bool> writeHttpResponse(boost::beast::tcp_stream &stream,
                                               const HttpRequest &request, HttpResponse response);

} // namespace sbx
