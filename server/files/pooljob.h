#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/workpool.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <functional>
#include <memory>
#include <optional>

namespace sbx {

// Blocking work started on the pool now and awaited later on the I/O thread, so that the
// coroutine can go on meanwhile (an upload reads its next block while the last one is written).
// The state is shared so that a coroutine destroyed meanwhile (server stop) leaves the job
// nothing dangling to touch; what the job captures is released on the pool thread.
template <typename Result> class PoolTask final {
public:
    PoolTask(boost::asio::io_context &io, WorkPool &pool, std::function<Result()> job)
        : m_state(std::make_shared<State>(io)) {
        pool.post([state = m_state, job = std::move(job), &io]() mutable {
            Result result = job();
            job = nullptr;
            boost::asio::post(io, [state, result = std::move(result)]() mutable {
                state->result = std::move(result);
                state->timer.cancel();
            });
        });
    }

    // Once: the job's result, when it has run.
    boost::asio::awaitable<Result> wait() {
        while (!m_state->result) {
            boost::system::error_code ec;
            co_await m_state->timer.async_wait(
                boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        }
        co_return std::move(*m_state->result);
    }

private:
    struct State {
        explicit State(boost::asio::io_context &context)
            : timer(context, boost::asio::steady_timer::time_point::max()) {}
        boost::asio::steady_timer timer;
        std::optional<Result> result;
    };
    std::shared_ptr<State> m_state;
};

// Runs blocking work (a cross-device copy) on the pool and resumes the coroutine on the I/O
// thread with its result.
template <typename Result>
boost::asio::awaitable<Result> onPool(boost::asio::io_context &io, WorkPool &pool,
                                      std::function<Result()> job) {
    PoolTask<Result> task(io, pool, std::move(job));
    co_return co_await task.wait();
}

} // namespace sbx
