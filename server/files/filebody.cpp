#include "server/files/filebody.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <sys/sendfile.h>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;

// Bytes per sendfile call; stillValid looks at the file between calls.
constexpr std::size_t kChunk = 1024 * 1024;
constexpr std::chrono::seconds kWriteTimeout(60);

// Waits until the socket takes more bytes: false when it failed, was closed, or took nothing for
// kWriteTimeout (a client that stopped reading).
asio::awaitable<bool> waitWritable(asio::ip::tcp::socket &socket) {
    // Shared with the timer's handler, which may run after this frame is gone.
    auto waiting = std::make_shared<bool>(true);
    asio::steady_timer timer(socket.get_executor(), kWriteTimeout);
    timer.async_wait([waiting, &socket](const beast::error_code &ec) {
        if (!ec && *waiting)
            socket.cancel();
    });
    beast::error_code ec;
    co_await socket.async_wait(asio::ip::tcp::socket::wait_write,
                               asio::redirect_error(asio::use_awaitable, ec));
    *waiting = false;
    co_return !ec;
}

} // namespace

FileHandle::~FileHandle() {
    if (m_fd >= 0)
        ::close(m_fd);
}

asio::awaitable<bool> sendFileBody(beast::tcp_stream &stream, int fd, off_t offset,
                                   std::uint64_t length, const std::function<bool()> &stillValid) {
    asio::ip::tcp::socket &socket = stream.socket();
    beast::error_code ec;
    // The socket is already non-blocking for Asio; sendfile must not block either.
    socket.native_non_blocking(true, ec);
    if (ec)
        co_return false;
    std::uint64_t left = length;
    while (left > 0) {
        const bool changed = stillValid && !stillValid();
        const ssize_t n =
            changed ? -1
                    : ::sendfile(socket.native_handle(), fd, &offset,
                                 static_cast<std::size_t>(std::min<std::uint64_t>(left, kChunk)));
        if (n > 0) {
            left -= static_cast<std::uint64_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR && !changed)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !changed) {
            if (co_await waitWritable(socket))
                continue;
            co_return false;
        }
        // n == 0: the file shrank.
        beast::error_code ignored;
        socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        stream.close();
        co_return false;
    }
    co_return true;
}

} // namespace sbx
