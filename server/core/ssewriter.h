#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/streamroute.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>
#include <string_view>

namespace sbx {

// Writes one text/event-stream response (server-sent events) for an EventStreamHandler: the
// header, then events and comments as the producer makes them, then the end. HTTP/1.1 gets a
// chunked body (QNetworkReply, curl and browsers hand each chunk over as it arrives) and keeps
// the connection; HTTP/1.0 gets a body that ends with the connection.
//
// While the stream is open the writer watches the socket, so a reader that closes its end is
// noticed without waiting for the next write; a write that a stalled reader does not take
// within writeTimeout closes the connection. A server stop marks the writer stopping (and cuts
// a write in flight, so a stalled reader cannot hold the stop): the producer then sends a last
// event if it likes and calls finish(). All on the I/O thread; writes are awaited one at a
// time, so a producer that falls behind sends fewer, larger events rather than queueing them.
class SseWriter final {
public:
    static constexpr std::chrono::seconds kDefaultWriteTimeout{60};

    explicit SseWriter(EventStreamExchange &exchange,
                       std::chrono::seconds writeTimeout = kDefaultWriteTimeout);
    // Without finish() the connection is closed: a half-written stream cannot be reused.
    ~SseWriter();
    SseWriter(const SseWriter &) = delete;
    SseWriter &operator=(const SseWriter &) = delete;

    // 200 with Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: no
    // (so nginx does not buffer the stream). False when the reader is gone.
    boost::asio::awaitable<bool> start();
    // One event: an `event:` and an `id:` line when given, data as `data:` lines (one per line
    // of data), then the blank line that dispatches it.
    boost::asio::awaitable<bool> writeEvent(std::string_view data, std::string_view event = {},
                                            std::string_view id = {});
    // A comment line (`: text`) and a blank line; readers ignore it.
    boost::asio::awaitable<bool> writeComment(std::string_view text);
    // Ends the body and hands the connection back to the server.
    boost::asio::awaitable<StreamOutcome> finish();

    // False once a write failed or the reader went away: nothing more can be sent.
    bool open() const;
    // The server is stopping: send a last event if wanted, then finish().
    bool stopping() const;
    // The timer the producer sleeps on between events: its wait is cancelled when the reader
    // goes away or the server stops, so the producer notices at once. Null: none.
    void wakeOnClose(boost::asio::steady_timer *timer);

private:
    struct State;
    boost::asio::awaitable<bool> writeChunk(std::string text);
    // A read on the socket that completes when the reader closes its end (or resets it): the
    // only sign of a vanished reader between two writes.
    static void watchPeer(const std::shared_ptr<State> &state);
    void restoreCloser();

    EventStreamExchange &m_exchange;
    const std::chrono::seconds m_writeTimeout;
    // Shared with the pending socket watch, which may complete after the writer is gone.
    std::shared_ptr<State> m_state;
    bool m_started = false;
    bool m_finished = false;
    bool m_chunked = true;
};

} // namespace sbx
