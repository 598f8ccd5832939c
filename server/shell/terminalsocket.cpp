#include "server/shell/terminalsocket.h"

#include "server/shell/sessionregistry.h"
#include "server/shell/terminalframes.h"
#include "server/shell/textutil.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <nlohmann/json.hpp>

#include <deque>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using nlohmann::json;
using WebSocket = websocket::stream<beast::tcp_stream>;

// A bigger frame closes the connection with 1009 (Beast does it while reading the header).
constexpr std::size_t kMaxMessage = 1024 * 1024;
// Output is coalesced into frames of up to this many bytes of PTY output.
constexpr std::size_t kFrameBytes = 64 * 1024;
// Error frames waiting for a client that does not read are dropped past this.
constexpr std::size_t kControlLimit = 64;
constexpr std::string_view kEnterAltScreen = "\x1b[?1049h";
constexpr std::string_view kLeaveAltScreen = "\x1b[?1049l";
// Close codes: 1000 the session ended or was deleted, 1001 the server stops, 1009 a frame
// over kMaxMessage, 1011 no shell could start, 4404 ?session_id= names no session.
constexpr auto kCloseNotFound = static_cast<websocket::close_code>(4404);

auto withError(beast::error_code &ec) {
    return asio::redirect_error(asio::use_awaitable, ec);
}

std::int64_t epochMilliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               SystemClock::now().time_since_epoch())
        .count();
}

// One WebSocket client of a session: its position in the session's output ring and what it
// still has to be told. The reader (handle) and the writer (writeLoop) share it.
struct Client {
    Client(WebSocket &socket, const asio::any_io_executor &executor, std::chrono::seconds ping)
        : ws(socket)
        , wake(executor)
        , writerDone(executor)
        , pingInterval(ping)
        , nextPing(SteadyClock::now() + ping) {}

    void push(std::string frame) {
        if (control.size() < kControlLimit)
            control.push_back(std::move(frame));
        wake.cancel();
    }
    void error(std::string_view text) { push(typedFrame("error", std::string(text))); }

    WebSocket &ws;
    std::shared_ptr<ShellSession> session;
    asio::steady_timer wake;
    asio::steady_timer writerDone;
    std::chrono::seconds pingInterval;
    SteadyClock::time_point nextPing;
    std::deque<std::string> control;
    // Escape sequences to send before the next output (replay and lag start).
    std::string prefix;
    std::uint64_t position = 0;
    // What this client's terminal has seen, so that a skip can fix the alternate screen.
    VtTracker tracker;
    VtEvents scratch;
    std::optional<websocket::close_reason> closeWith;
    bool writing = false;
    bool readerDone = false;
    bool writerExited = false;
};

// Skips a client that fell out of the ring to its newest safe point; the lagged frame.
std::string skipAhead(Client &client) {
    const ShellSession &session = *client.session;
    const OutputRing &ring = session.ring();
    const auto point = ring.newestSafePoint();
    const std::uint64_t target = point ? point->offset : ring.end();
    const bool alt = point ? point->altScreen : session.altScreen();
    const std::uint64_t dropped = target - client.position;
    client.position = target;
    if (alt != client.tracker.altScreen())
        client.prefix += alt ? kEnterAltScreen : kLeaveAltScreen;
    client.tracker.resetTo(alt);
    if (alt)
        client.session->nudge();
    json data = json::object();
    data["dropped_bytes"] = dropped;
    return typedFrame("lagged", std::move(data));
}

// The next output frame for the client, if there is output it has not had.
bool takeOutput(Client &client, std::string &frame) {
    const OutputRing &ring = client.session->ring();
    if (client.position < ring.begin()) {
        frame = skipAhead(client);
        return true;
    }
    if (client.position >= ring.end() && client.prefix.empty())
        return false;
    std::string bytes = std::move(client.prefix);
    client.prefix.clear();
    std::size_t taken = ring.copy(client.position, kFrameBytes, bytes);
    if (client.session->ended() == SessionEnd::None) {
        // Never split a UTF-8 character: its tail comes with the next read.
        const std::size_t held = bytes.size() - completeUtf8Prefix(bytes);
        bytes.resize(bytes.size() - held);
        taken -= std::min(taken, held);
    }
    if (bytes.empty())
        return false;
    client.position += taken;
    client.scratch.clear();
    client.tracker.feed(bytes, client.scratch);
    frame = typedFrame("output", std::move(bytes));
    return true;
}

// The frames that end a client of a session that ended, and the close that follows.
void queueEnd(Client &client) {
    const ShellSession &session = *client.session;
    switch (session.ended()) {
    case SessionEnd::Exited: {
        json data = json::object();
        data["exit_code"] = session.exitCode() ? json(*session.exitCode()) : json(nullptr);
        client.push(typedFrame("exit", std::move(data)));
        client.closeWith = websocket::close_reason(websocket::close_code::normal, "session ended");
        break;
    }
    case SessionEnd::Deleted:
        client.error("Session " + session.id() + " was deleted");
        client.closeWith =
            websocket::close_reason(websocket::close_code::normal, "session deleted");
        break;
    case SessionEnd::Stopping:
    case SessionEnd::None:
        client.closeWith =
            websocket::close_reason(websocket::close_code::going_away, "server stopping");
        break;
    }
}

asio::awaitable<void> writeLoop(Client &client) {
    beast::error_code ec;
    std::string frame;
    while (!client.readerDone) {
        frame.clear();
        if (!client.control.empty()) {
            frame = std::move(client.control.front());
            client.control.pop_front();
        } else if (client.closeWith) {
            break;
        } else if (takeOutput(client, frame)) {
        } else if (client.session->ended() != SessionEnd::None) {
            queueEnd(client);
            continue;
        } else if (SteadyClock::now() >= client.nextPing) {
            json ping = json::object();
            ping["type"] = "ping";
            ping["timestamp"] = epochMilliseconds();
            frame = frameText(ping);
            client.nextPing = SteadyClock::now() + client.pingInterval;
        } else {
            client.wake.expires_at(client.nextPing);
            co_await client.wake.async_wait(withError(ec));
            ec = {};
            continue;
        }
        client.writing = true;
        co_await client.ws.async_write(asio::buffer(frame), withError(ec));
        client.writing = false;
        if (ec)
            break;
    }
    if (!ec && client.closeWith && !client.readerDone)
        co_await client.ws.async_close(*client.closeWith, withError(ec));
    if (ec) {
        // The reader must not wait forever on a connection the writer gave up on.
        beast::error_code ignored;
        beast::get_lowest_layer(client.ws).socket().close(ignored);
    }
}

void handleMessage(Client &client, std::string_view text) {
    ShellSession &session = *client.session;
    const TerminalCommand command = parseTerminalFrame(text);
    switch (command.kind) {
    case TerminalCommand::Kind::Invalid:
        client.error(command.text);
        break;
    case TerminalCommand::Kind::Input:
        session.touch();
        // After the session ended the writer is already closing the socket with the reason.
        if (session.ended() == SessionEnd::None && !session.write(command.text))
            client.error("Input dropped: the terminal has not read the input sent before");
        break;
    case TerminalCommand::Kind::Resize:
        session.resize(command.cols, command.rows);
        break;
    case TerminalCommand::Kind::Pong:
        break;
    case TerminalCommand::Kind::Ping:
        client.push(pongFrame(command));
        break;
    }
}

} // namespace

TerminalSocket::TerminalSocket(std::shared_ptr<SessionRegistry> registry)
    : m_registry(std::move(registry)) {}

asio::awaitable<void> TerminalSocket::handle(UpgradeExchange &exchange) {
    WebSocket ws(std::move(exchange.stream));
    beast::get_lowest_layer(ws).expires_never();
    ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws.read_message_max(kMaxMessage);
    ws.auto_fragment(false);
    beast::error_code ec;
    co_await ws.async_accept(exchange.parser.release(), withError(ec));
    if (ec)
        co_return;
    ws.text(true);

    const auto executor = co_await asio::this_coro::executor;
    Client client(ws, executor, m_registry->config().pingInterval);
    exchange.connection.setCloser([&client] {
        client.closeWith =
            websocket::close_reason(websocket::close_code::going_away, "server stopping");
        if (client.writing) {
            // A client that does not read would hold the stop for good.
            beast::error_code ignored;
            beast::get_lowest_layer(client.ws).socket().close(ignored);
        }
        client.wake.cancel();
    });

    auto refuse = [&](std::string message,
                      websocket::close_reason reason) -> asio::awaitable<void> {
        beast::error_code error;
        const std::string frame = typedFrame("error", std::move(message));
        co_await ws.async_write(asio::buffer(frame), withError(error));
        if (!error)
            co_await ws.async_close(reason, withError(error));
    };
    const std::optional<std::string_view> requested = exchange.request.queryValue("session_id");
    if (m_registry->stopping() || exchange.connection.stopping()) {
        co_await ws.async_close(
            websocket::close_reason(websocket::close_code::going_away, "server stopping"),
            withError(ec));
        exchange.connection.setCloser({});
        co_return;
    }
    if (requested && !requested->empty()) {
        client.session = m_registry->find(*requested);
        if (!client.session) {
            co_await refuse("Session " + truncateUtf8(*requested, 128) +
                                " not found: it ended or never existed; connect without "
                                "session_id for a new session",
                            websocket::close_reason(kCloseNotFound, "session not found"));
            exchange.connection.setCloser({});
            co_return;
        }
        // terminal-replay: the recent output from a safe point, in the right screen.
        const OutputRing &ring = client.session->ring();
        const auto start = ring.oldestSafePoint();
        client.position = start ? start->offset : ring.end();
        if (start ? start->altScreen : client.session->altScreen())
            client.prefix = kEnterAltScreen;
        if (client.session->altScreen() || !client.session->foregroundHolder().empty())
            client.session->nudge();
    } else {
        CreateResult created = m_registry->create(std::nullopt, std::nullopt);
        if (!created.session) {
            co_await refuse(created.error,
                            websocket::close_reason(websocket::close_code::internal_error,
                                                    "cannot start a shell"));
            exchange.connection.setCloser({});
            co_return;
        }
        client.session = std::move(created.session);
    }
    ShellSession &session = *client.session;
    session.attach();
    session.watch(&client.wake);
    client.push(typedFrame("session_id", session.id()));
    client.push(typedFrame("ready", "Terminal ready"));

    asio::co_spawn(executor, writeLoop(client), [&client](std::exception_ptr) {
        client.writerExited = true;
        client.writerDone.cancel();
    });

    beast::flat_buffer buffer;
    while (true) {
        co_await ws.async_read(buffer, withError(ec));
        if (ec)
            break;
        client.nextPing = SteadyClock::now() + client.pingInterval;
        if (!ws.got_text())
            client.error("Binary frames are not supported: send JSON text frames");
        else
            handleMessage(client, beast::buffers_to_string(buffer.data()));
        buffer.consume(buffer.size());
    }
    client.readerDone = true;
    client.wake.cancel();
    if (client.writing) {
        beast::error_code ignored;
        beast::get_lowest_layer(ws).socket().cancel(ignored);
    }
    while (!client.writerExited) {
        client.writerDone.expires_at(SteadyClock::time_point::max());
        co_await client.writerDone.async_wait(withError(ec));
    }
    session.unwatch(&client.wake);
    session.detach();
    exchange.connection.setCloser({});
}

} // namespace sbx
