#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <cstdint>
#include <functional>
#include <sys/types.h>

// Sending a file as a response body, for the stream routes that serve files (downloads,
// observe reports).
namespace sbx {

// Closes the descriptor on every way out of a coroutine.
class FileHandle final {
public:
    explicit FileHandle(int fd)
        : m_fd(fd) {}
    ~FileHandle();
    FileHandle(const FileHandle &) = delete;
    FileHandle &operator=(const FileHandle &) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

// Sends length bytes of fd from offset with sendfile: the kernel moves page-cache pages to the
// socket, no copy through user space. stillValid, when set, is asked between pieces (a file
// changed during a download). A body that cannot go whole (the file shrank or changed, the
// client stopped reading for 60 s) ends short of Content-Length and the connection is shut:
// once the headers are out that is the only honest signal. False then.
boost::asio::awaitable<bool> sendFileBody(boost::beast::tcp_stream &stream, int fd, off_t offset,
                                          std::uint64_t length,
                                          const std::function<bool()> &stillValid = {});

} // namespace sbx
