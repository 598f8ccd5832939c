#include "server/core/workpool.h"

#include "server/core/log.h"

#include <exception>
#include <string>

namespace sbx {

WorkPool::WorkPool(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i)
        m_threads.emplace_back([this] { loop(); });
}

WorkPool::~WorkPool() {
    stop();
}

void WorkPool::post(std::function<void()> job) {
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void WorkPool::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (std::thread &thread : m_threads) {
        if (thread.joinable())
            thread.join();
    }
    m_threads.clear();
}

void WorkPool::loop() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
            if (m_jobs.empty())
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        try {
            job();
        } catch (const std::exception &e) {
            log::error(std::string("background job failed: ") + e.what());
        } catch (...) {
            log::error("background job failed");
        }
    }
}

} // namespace sbx
