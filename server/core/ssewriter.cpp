#include "server/core/ssewriter.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>

namespace sbx {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// While the server stops, a write gets this long: the stop waits for streams to end.
constexpr auto kStoppingWriteTimeout = std::chrono::seconds(2);

auto withError(beast::error_code &ec) {
    return asio::redirect_error(asio::use_awaitable, ec);
}

void closeSocket(beast::tcp_stream &stream) {
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream.close();
}

// Appends "prefix: line\n" for each line of value (CR, LF and CRLF all end a line).
void appendField(std::string &out, std::string_view prefix, std::string_view value) {
    for (;;) {
        const std::size_t end = value.find_first_of("\r\n");
        out.append(prefix);
        out.append(": ");
        out.append(value.substr(0, end));
        out.push_back('\n');
        if (end == std::string_view::npos)
            return;
        const bool crlf = value[end] == '\r' && end + 1 < value.size() && value[end + 1] == '\n';
        value.remove_prefix(end + (crlf ? 2 : 1));
    }
}

} // namespace

struct SseWriter::State {
    explicit State(beast::tcp_stream &s)
        : stream(&s) {}

    beast::tcp_stream *stream; // null once the writer is gone
    std::array<char, 512> sink{};
    bool watching = false; // the socket watch's read is pending
    bool ending = false;   // finish() cancelled the watch: not the reader's doing
    bool peerGone = false;
    // The reader sent bytes mid-stream (a pipelined request?): they are lost, so the
    // connection must not carry another request.
    bool sawBytes = false;
    bool failed = false;
    bool stopping = false;
    bool writing = false;
    asio::steady_timer *wake = nullptr;
    asio::steady_timer *watchDone = nullptr;

    void wakeProducer() const {
        if (wake)
            wake->cancel();
    }
};

SseWriter::SseWriter(EventStreamExchange &exchange, std::chrono::seconds writeTimeout)
    : m_exchange(exchange)
    , m_writeTimeout(writeTimeout)
    , m_state(std::make_shared<State>(exchange.stream))
    , m_chunked(exchange.request.version >= 11) {}

SseWriter::~SseWriter() {
    if (!m_finished && m_started)
        closeSocket(m_exchange.stream);
    if (m_started)
        restoreCloser();
    // The watch may still complete (aborted): it must find nothing to touch.
    m_state->stream = nullptr;
    m_state->wake = nullptr;
    m_state->watchDone = nullptr;
}

bool SseWriter::open() const {
    return !m_state->failed && !m_state->peerGone;
}

bool SseWriter::stopping() const {
    return m_state->stopping;
}

void SseWriter::wakeOnClose(asio::steady_timer *timer) {
    m_state->wake = timer;
}

asio::awaitable<bool> SseWriter::start() {
    http::response<http::empty_body> header{http::status::ok, m_exchange.request.version};
    header.set(http::field::server, kServerHeader);
    header.set(http::field::content_type, "text/event-stream");
    header.set(http::field::cache_control, "no-cache");
    header.set("X-Accel-Buffering", "no");
    if (m_chunked) {
        header.keep_alive(m_exchange.request.keepAlive);
        header.chunked(true);
    } else {
        // No length and no chunks: the body ends with the connection.
        header.keep_alive(false);
    }
    m_started = true;
    // A stop closes the stream the way the writer knows: the producer ends it if it is not
    // writing, the socket is cut if it is (a reader that does not read must not hold the stop).
    m_exchange.connection.setCloser([state = m_state] {
        state->stopping = true;
        if (state->writing && state->stream)
            closeSocket(*state->stream);
        state->wakeProducer();
    });
    if (m_exchange.connection.stopping())
        m_state->stopping = true;
    http::response_serializer<http::empty_body> serializer{header};
    m_state->writing = true;
    m_exchange.stream.expires_after(m_writeTimeout);
    beast::error_code ec;
    co_await http::async_write_header(m_exchange.stream, serializer, withError(ec));
    m_state->writing = false;
    m_exchange.stream.expires_never();
    if (ec) {
        m_state->failed = true;
        co_return false;
    }
    watchPeer(m_state);
    co_return true;
}

asio::awaitable<bool> SseWriter::writeEvent(std::string_view data, std::string_view event,
                                            std::string_view id) {
    std::string text;
    text.reserve(data.size() + event.size() + id.size() + 32);
    if (!event.empty())
        appendField(text, "event", event);
    if (!id.empty())
        appendField(text, "id", id);
    appendField(text, "data", data);
    text.push_back('\n');
    co_return co_await writeChunk(std::move(text));
}

asio::awaitable<bool> SseWriter::writeComment(std::string_view text) {
    std::string line;
    appendField(line, "", text);
    line.push_back('\n');
    co_return co_await writeChunk(std::move(line));
}

asio::awaitable<bool> SseWriter::writeChunk(std::string text) {
    if (!m_started || !open())
        co_return false;
    m_state->writing = true;
    m_exchange.stream.expires_after(m_state->stopping ? kStoppingWriteTimeout : m_writeTimeout);
    beast::error_code ec;
    if (m_chunked)
        co_await asio::async_write(m_exchange.stream, http::make_chunk(asio::buffer(text)),
                                   withError(ec));
    else
        co_await asio::async_write(m_exchange.stream, asio::buffer(text), withError(ec));
    m_state->writing = false;
    m_exchange.stream.expires_never();
    if (ec)
        m_state->failed = true;
    co_return !ec;
}

asio::awaitable<StreamOutcome> SseWriter::finish() {
    if (m_finished)
        co_return StreamOutcome::Close;
    if (m_started && open() && m_chunked) {
        m_state->writing = true;
        m_exchange.stream.expires_after(m_state->stopping ? kStoppingWriteTimeout : m_writeTimeout);
        beast::error_code ec;
        co_await asio::async_write(m_exchange.stream, http::make_chunk_last(), withError(ec));
        m_state->writing = false;
        m_exchange.stream.expires_never();
        if (ec)
            m_state->failed = true;
    }
    // The session reads the next request itself: the watch's read must be over first.
    m_state->ending = true;
    if (m_state->watching) {
        asio::steady_timer done(m_exchange.stream.get_executor(),
                                asio::steady_timer::time_point::max());
        m_state->watchDone = &done;
        beast::error_code ec;
        m_exchange.stream.socket().cancel(ec);
        while (m_state->watching)
            co_await done.async_wait(withError(ec));
        m_state->watchDone = nullptr;
    }
    m_finished = true;
    if (m_started)
        restoreCloser();
    m_started = false;
    const bool reusable = m_chunked && open() && !m_state->sawBytes && !m_state->stopping &&
                          m_exchange.request.keepAlive;
    co_return reusable ? StreamOutcome::KeepAlive : StreamOutcome::Close;
}

void SseWriter::restoreCloser() {
    // What the server does for a connection between requests: shut the socket.
    m_exchange.connection.setCloser([&stream = m_exchange.stream] { closeSocket(stream); });
}

void SseWriter::watchPeer(const std::shared_ptr<State> &state) {
    state->watching = true;
    state->stream->socket().async_read_some(
        asio::buffer(state->sink), [state](const beast::error_code &ec, std::size_t) {
            state->watching = false;
            if (state->watchDone)
                state->watchDone->cancel();
            if (!state->stream)
                return;
            if (!ec) {
                state->sawBytes = true;
                if (!state->ending)
                    watchPeer(state);
                return;
            }
            if (state->ending && ec == asio::error::operation_aborted)
                return;
            state->peerGone = true;
            state->wakeProducer();
        });
}

} // namespace sbx
