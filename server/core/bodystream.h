#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace sbx {

// A response body written by a worker as it is produced and sent by the connection as it
// arrives (chunked), so that a client reads the first part of a long answer while the rest is
// still being made. Thread-safe; no Asio here: the connection gives a wakeup to be called.
class BodyStream final {
public:
    struct Taken {
        std::string bytes;
        bool finished = false; // the body is whole: bytes are its last
        bool failed = false;   // the body was cut: the connection must close without ending it
    };

    // The producer's side. Pieces of some KiB each: every wakeup costs a turn of the I/O thread.
    void write(std::string piece);
    void finish();
    void fail();
    // The reader has gone (the connection closed): the producer may stop early.
    bool abandoned() const { return m_abandoned.load(std::memory_order_relaxed); }

    // The connection's side. Everything written so far; the wakeup runs (on the producer's
    // thread) when something arrives after a take that found nothing.
    Taken take();
    void setWakeup(std::function<void()> wakeup);
    void abandon();

private:
    void wake(std::unique_lock<std::mutex> &lock);

    std::mutex m_mutex;
    std::string m_pending;
    bool m_finished = false;
    bool m_failed = false;
    bool m_waiting = false; // the last take found nothing
    std::function<void()> m_wakeup;
    std::atomic<bool> m_abandoned{false};
};

// Fails the stream if the producer leaves without finishing it (an exception, an early return),
// so that the connection never waits for an end that will not come.
class BodyStreamGuard final {
public:
    explicit BodyStreamGuard(BodyStream &stream)
        : m_stream(stream) {}
    ~BodyStreamGuard() {
        if (!m_done)
            m_stream.fail();
    }
    BodyStreamGuard(const BodyStreamGuard &) = delete;
    BodyStreamGuard &operator=(const BodyStreamGuard &) = delete;
    void finish() {
        m_done = true;
        m_stream.finish();
    }

private:
    BodyStream &m_stream;
    bool m_done = false;
};

} // namespace sbx
