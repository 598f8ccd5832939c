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

// Runs blocking work (a cross-device copy) on the pool and resumes the coroutine on the I/O
// thread with its result. The state is shared so that a coroutine destroyed meanwhile (server
// stop) leaves the job nothing dangling to touch.
template <typename Result>
boost::asio::awaitable<Result> onPool(boost::asio::io_context &io, WorkPool &pool,
                                      std::function<Result()> job) {
    struct State {
        explicit State(boost::asio::io_context &context)
            : timer(context, boost::asio::steady_timer::time_point::max()) {}
        boost::asio::steady_timer timer;
        std::optional<Result> result;
    };
    auto state = std::make_shared<State>(io);
    pool.post([state, job = std::move(job), &io] {
        Result result = job();
        boost::asio::post(io, [state, result = std::move(result)]() mutable {
            state->result = std::move(result);
            state->timer.cancel();
        });
    });
    while (!state->result) {
        boost::system::error_code ec;
        co_await state->timer.async_wait(
            boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
    co_return std::move(*state->result);
}

} // namespace sbx
