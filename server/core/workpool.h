#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sbx {

// A few threads for blocking work (processes, disk) so the I/O thread never waits on it.
class WorkPool final {
public:
    explicit WorkPool(unsigned threads);
    ~WorkPool();
    WorkPool(const WorkPool &) = delete;
    WorkPool &operator=(const WorkPool &) = delete;

    // Ignored after stop().
    void post(std::function<void()> job);
    // Runs what is queued, then joins the threads.
    void stop();

private:
    void loop();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace sbx
