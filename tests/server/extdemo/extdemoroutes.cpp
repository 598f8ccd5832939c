// Route group "extdemo", built only into the test binary sandbox-server-extdemo: a streaming
// route and a WebSocket route written against the extension points later groups use
// (Router::addStream / Router::addUpgrade, server/core/streamroute.h), so the suites can show
// that they work behind auth and with shutdown.
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/streamroute.h"
#include "server/core/workpool.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

// Reads the body in 64 KiB pieces (constant memory, no 8 MiB limit) and answers its size and
// byte sum.
class SumStream final : public StreamHandler {
public:
    asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) override {
        http::request_parser<http::buffer_body> parser{std::move(exchange.parser)};
        parser.body_limit(std::numeric_limits<std::uint64_t>::max());
        exchange.stream.expires_after(std::chrono::seconds(60));
        std::vector<char> chunk(64 * 1024);
        std::uint64_t bytes = 0;
        std::uint32_t sum = 0;
        while (!parser.is_done()) {
            parser.get().body().data = chunk.data();
            parser.get().body().size = chunk.size();
            beast::error_code ec;
            co_await http::async_read_some(exchange.stream, exchange.buffer, parser,
                                           asio::redirect_error(asio::use_awaitable, ec));
            if (ec == http::error::need_buffer)
                ec = {};
            if (ec)
                co_return StreamOutcome::Close;
            const std::size_t n = chunk.size() - parser.get().body().size;
            for (std::size_t i = 0; i < n; ++i)
                sum += static_cast<unsigned char>(chunk[i]);
            bytes += n;
        }
        // Built before the co_await: GCC 12 rejects an initializer list inside one.
        nlohmann::json result = nlohmann::json::object();
        result["bytes"] = bytes;
        result["sum"] = sum;
        HttpResponse response = jsonResponse(200, result);
        const bool keepAlive =
            co_await writeHttpResponse(exchange.stream, exchange.request, std::move(response));
        co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
    }
};

// Echoes WebSocket messages; closes with "going away" when the server stops.
class EchoSocket final : public UpgradeHandler {
public:
    asio::awaitable<void> handle(UpgradeExchange &exchange) override {
        websocket::stream<beast::tcp_stream> ws(std::move(exchange.stream));
        beast::get_lowest_layer(ws).expires_never();
        ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        bool writing = false;
        exchange.connection.setCloser([&ws, &writing] {
            if (writing) {
                beast::get_lowest_layer(ws).close();
                return;
            }
            ws.async_close(websocket::close_code::going_away, [](beast::error_code) {});
        });
        beast::error_code ec;
        co_await ws.async_accept(exchange.parser.release(),
                                 asio::redirect_error(asio::use_awaitable, ec));
        beast::flat_buffer data;
        while (!ec && !exchange.connection.stopping()) {
            co_await ws.async_read(data, asio::redirect_error(asio::use_awaitable, ec));
            if (ec)
                break;
            ws.text(ws.got_text());
            writing = true;
            co_await ws.async_write(data.data(), asio::redirect_error(asio::use_awaitable, ec));
            writing = false;
            data.consume(data.size());
        }
        exchange.connection.setCloser({});
    }
};

void install(Router &router, ServerContext &context) {
    WorkPool &pool = context.pool;
    // Answers from a pool thread, as blocking work (processes, disk) will.
    router.addAsync("GET", "/test/async/{n}",
                    [&pool](HttpRequest request, Responder reply) {
                        pool.post([request = std::move(request), reply = std::move(reply)] {
                            const std::string n(request.param("n").value_or(""));
                            reply(jsonResponse(200, {{"n", n}}));
                        });
                    },
                    {.summary = "test: answered from a worker thread"});
    // Forgets to answer: the server must still reply (500), not hang.
    router.addAsync("GET", "/test/async-dropped", [](HttpRequest, Responder) {});
    router.addStream("POST", "/test/stream-sum", std::make_shared<SumStream>(),
                     {.summary = "test: streamed body size and byte sum"});
    router.addUpgrade("/test/echo", std::make_shared<EchoSocket>(),
                      {.summary = "test: WebSocket echo"});
}

const RouteGroupRegistration registration(
    {.name = "extdemo", .order = 900, .extensions = {"demo-extension"}, .install = install});

} // namespace

} // namespace sbx
