#include "server/core/bodystream.h"

#include <utility>

namespace sbx {

void BodyStream::write(std::string piece) {
    if (piece.empty())
        return;
    std::unique_lock lock(m_mutex);
    if (m_finished || m_failed)
        return;
    if (m_pending.empty())
        m_pending = std::move(piece);
    else
        m_pending += piece;
    wake(lock);
}

void BodyStream::finish() {
    std::unique_lock lock(m_mutex);
    if (m_finished || m_failed)
        return;
    m_finished = true;
    wake(lock);
}

void BodyStream::fail() {
    std::unique_lock lock(m_mutex);
    if (m_finished || m_failed)
        return;
    m_failed = true;
    wake(lock);
}

BodyStream::Taken BodyStream::take() {
    std::scoped_lock lock(m_mutex);
    Taken taken{std::exchange(m_pending, {}), m_finished, m_failed};
    m_waiting = taken.bytes.empty() && !m_finished && !m_failed;
    return taken;
}

void BodyStream::setWakeup(std::function<void()> wakeup) {
    std::scoped_lock lock(m_mutex);
    m_wakeup = std::move(wakeup);
}

void BodyStream::abandon() {
    m_abandoned.store(true, std::memory_order_relaxed);
    setWakeup({});
}

void BodyStream::wake(std::unique_lock<std::mutex> &lock) {
    if (!m_waiting || !m_wakeup)
        return;
    m_waiting = false;
    // Called outside the lock: it posts to the connection's thread, which may take() at once.
    const std::function<void()> wakeup = m_wakeup;
    lock.unlock();
    wakeup();
}

} // namespace sbx
