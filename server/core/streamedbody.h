#pragma once

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include "server/core/http.h"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace sbx {

// Writes a response whose body is a BodyStream: chunked as the pieces come, each compressed and
// flushed when the request accepts gzip or deflate; to HTTP/1.0 or for HEAD, whole once made.
// False when the connection must be closed (a write failed, the body was cut, or the response
// asked for it).
boost::asio::awaitable<bool> writeStreamedResponse(boost::beast::tcp_stream &stream,
                                                   const HttpRequest &request,
                                                   HttpResponse response);

} // namespace sbx
