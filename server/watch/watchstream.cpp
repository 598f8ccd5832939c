#include "server/watch/watchstream.h"

#include "server/core/router.h"
#include "server/core/streamroute.h"
#include "server/watch/watchregistry.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <charconv>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using nlohmann::json;

// A reader that takes nothing for this long is gone; the heartbeat keeps honest ones busy.
constexpr std::chrono::seconds kWriteTimeout(60);
// Events per write: a reader far behind catches up in pieces, others' turns come between.
constexpr std::size_t kEventsPerWrite = 256;

std::string dumped(const json &value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// "WATCHER:SEQ" as sent in `id:`; a bare number is taken too. Anything else (another
// watcher's id) counts as no Last-Event-ID.
std::optional<std::uint64_t> lastEventSeq(std::string_view value, const std::string &watcherId) {
    const std::size_t colon = value.rfind(':');
    if (colon != std::string_view::npos) {
        if (value.substr(0, colon) != watcherId)
            return std::nullopt;
        value = value.substr(colon + 1);
    }
    std::uint64_t seq = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seq);
    if (error != std::errc() || end != value.data() + value.size())
        return std::nullopt;
    return seq;
}

// What a stream shares with the callbacks that wake it: the listener, the closer, the read
// that notices a peer gone. Shared, since they may run after the coroutine ended.
struct StreamState {
    explicit StreamState(const asio::any_io_executor &executor)
        : timer(executor) {}
    asio::steady_timer timer;
    bool closing = false;
    bool peerGone = false;
    std::array<char, 256> sink{};
};

class WatchEventStream final : public StreamHandler {
public:
    explicit WatchEventStream(std::shared_ptr<WatchRegistry> registry)
        : m_registry(std::move(registry)) {}

    asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) override {
        const HttpRequest &request = exchange.request;
        const bool bodyUnread = !exchange.parser.is_done();
        const std::string id(request.param("id").value_or(""));
        const auto watcher = m_registry->find(id);
        if (!watcher) {
            json body = json::object();
            body["success"] = false;
            body["message"] = "Watcher " + id + " not found";
            body["data"] = nullptr;
            body["hint"] = nullptr;
            body["code"] = "WATCHER_NOT_FOUND";
            HttpResponse response = jsonResponse(404, body);
            response.close = bodyUnread;
            const bool keepAlive =
                co_await writeHttpResponse(exchange.stream, request, std::move(response));
            co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
        }
        std::uint64_t cursor = watcher->replayStart();
        if (const auto last = request.header("Last-Event-ID"))
            cursor = lastEventSeq(*last, id).value_or(cursor);

        const bool chunked = request.version >= 11;
        http::response<http::empty_body> header{http::status::ok, request.version};
        header.set(http::field::server, "sandbox-server/" SBX_VERSION);
        header.set(http::field::content_type, "text/event-stream");
        header.set(http::field::cache_control, "no-cache");
        header.set("X-Accel-Buffering", "no");
        header.keep_alive(false);
        if (chunked)
            header.chunked(true);
        http::response_serializer<http::empty_body> serializer{header};
        beast::error_code ec;
        exchange.stream.expires_after(kWriteTimeout);
        co_await http::async_write_header(exchange.stream, serializer,
                                          asio::redirect_error(asio::use_awaitable, ec));
        if (ec)
            co_return StreamOutcome::Close;

        asio::ip::tcp::socket &socket = exchange.stream.socket();
        auto state = std::make_shared<StreamState>(socket.get_executor());
        exchange.connection.setCloser([state, &stream = exchange.stream] {
            state->closing = true;
            state->timer.cancel();
            beast::error_code ignored;
            stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
            stream.close();
        });
        // The client sends nothing more: a read ending means it went away (a cut connection
        // is noticed at once, not at the next heartbeat).
        socket.async_read_some(asio::buffer(state->sink),
                               [state](const beast::error_code &error, std::size_t) {
                                   if (error) {
                                       state->peerGone = true;
                                       state->timer.cancel();
                                   }
                               });
        std::weak_ptr<StreamState> weak = state;
        const std::uint64_t token = watcher->listen([weak] {
            if (const auto s = weak.lock())
                s->timer.cancel();
        });
        watcher->addSubscriber(1);

        json started = json::object();
        started["watcher_id"] = id;
        started["path"] = watcher->config().path;
        bool ok = co_await send(exchange.stream, chunked,
                                "event: watch_started\ndata: " + dumped(started) + "\n\n");
        const std::chrono::milliseconds heartbeat = m_registry->settings().heartbeat;
        while (ok && !state->closing && !state->peerGone) {
            const PollBatch batch = watcher->eventsAfter(cursor, kEventsPerWrite);
            if (batch.overflow) {
                watcher->reportOverflow("an SSE reader fell behind the event buffer");
                json lost = json::object();
                lost["message"] = "Events were dropped: reload the tree, then reconnect";
                lost["watcher_id"] = id;
                ok = co_await send(exchange.stream, chunked,
                                   "event: overflow\ndata: " + dumped(lost) + "\n\n");
                break;
            }
            cursor = batch.cursor;
            if (!batch.events.empty()) {
                std::string text;
                for (const FileEvent &event : batch.events) {
                    text += "id: " + id + ":" + std::to_string(event.seq) +
                            "\nevent: file_change\ndata: " + dumped(toJson(event, id)) + "\n\n";
                }
                ok = co_await send(exchange.stream, chunked, text);
                continue;
            }
            // Deleted, or its folder went away: everything it had is sent.
            if (!watcher->running())
                break;
            state->timer.expires_after(heartbeat);
            beast::error_code waited;
            co_await state->timer.async_wait(asio::redirect_error(asio::use_awaitable, waited));
            if (!waited && !state->closing && !state->peerGone)
                ok = co_await send(exchange.stream, chunked, ": heartbeat\n\n");
        }
        if (ok && chunked && !state->closing && !state->peerGone) {
            exchange.stream.expires_after(kWriteTimeout);
            co_await asio::async_write(exchange.stream, http::make_chunk_last(),
                                       asio::redirect_error(asio::use_awaitable, ec));
        }
        watcher->addSubscriber(-1);
        watcher->unlisten(token);
        exchange.connection.setCloser({});
        beast::error_code ignored;
        socket.cancel(ignored);
        co_return StreamOutcome::Close;
    }

private:
    static asio::awaitable<bool> send(beast::tcp_stream &stream, bool chunked,
                                      const std::string &text) {
        beast::error_code ec;
        stream.expires_after(kWriteTimeout);
        if (chunked)
            co_await asio::async_write(stream, http::make_chunk(asio::buffer(text)),
                                       asio::redirect_error(asio::use_awaitable, ec));
        else
            co_await asio::async_write(stream, asio::buffer(text),
                                       asio::redirect_error(asio::use_awaitable, ec));
        stream.expires_never();
        co_return !ec;
    }

    std::shared_ptr<WatchRegistry> m_registry;
};

} // namespace

void installWatchStream(Router &router, std::shared_ptr<WatchRegistry> registry) {
    router.addStream("GET", "/v1/file/watch/{id}/events",
                     std::make_shared<WatchEventStream>(std::move(registry)),
                     {.summary = "a watcher's events as SSE (watch_started, file_change, "
                                 "overflow; Last-Event-ID replays)"});
}

} // namespace sbx
