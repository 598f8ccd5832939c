#include "server/core/streamedbody.h"

#include "server/core/bodystream.h"
#include "server/core/httpcompress.h"
#include "server/core/log.h"

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <optional>

namespace sbx {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr auto kWithError = [](beast::error_code &ec) {
    return asio::redirect_error(asio::use_awaitable, ec);
};

// What a body's producer posts to, from its thread, to end the connection's wait. Shared: the
// producer may call it after the response is written.
struct Wake {
    explicit Wake(const asio::any_io_executor &executor)
        : timer(executor, asio::steady_timer::time_point::max()) {}
    asio::steady_timer timer;
};

// The next bytes of the body, waiting until there are some (or its end).
asio::awaitable<BodyStream::Taken> next(BodyStream &body, Wake &wake) {
    for (;;) {
        BodyStream::Taken taken = body.take();
        if (!taken.bytes.empty() || taken.finished || taken.failed)
            co_return taken;
        beast::error_code ec;
        co_await wake.timer.async_wait(kWithError(ec));
    }
}

template <typename Message> void setHead(Message &out, const HttpResponse &response) {
    out.set(http::field::server, kServerHeader);
    if (!response.contentType.empty())
        out.set(http::field::content_type, response.contentType);
    for (const auto &[name, value] : response.headers)
        out.insert(name, value);
}

} // namespace

asio::awaitable<bool> writeStreamedResponse(beast::tcp_stream &stream, const HttpRequest &request,
                                            HttpResponse response) {
    const std::shared_ptr<BodyStream> body = std::move(response.stream);
    auto wake = std::make_shared<Wake>(stream.get_executor());
    body->setWakeup([wake, executor = stream.get_executor()] {
        asio::post(executor, [wake] { wake->timer.cancel(); });
    });
    // However this ends, the producer hears that nobody reads any more.
    struct Abandon {
        BodyStream &body;
        ~Abandon() { body.abandon(); }
    } abandon{*body};
    const bool keepAlive = request.keepAlive && !response.close;

    if (request.version < 11 || request.method == "HEAD") {
        // No chunked coding before HTTP/1.1; a HEAD needs the length.
        std::string whole;
        for (;;) {
            BodyStream::Taken taken = co_await next(*body, *wake);
            whole += taken.bytes;
            if (taken.failed) {
                response = errorResponse(500, "The response could not be made whole");
                break;
            }
            if (taken.finished) {
                response.body = std::move(whole);
                break;
            }
        }
        compressResponse(request, response);
        http::response<http::string_body> out{static_cast<http::status>(response.status),
                                              request.version};
        setHead(out, response);
        out.keep_alive(keepAlive);
        if (request.method == "HEAD") {
            out.content_length(response.body.size());
        } else {
            out.body() = std::move(response.body);
            out.prepare_payload();
        }
        beast::error_code ec;
        co_await http::async_write(stream, out, kWithError(ec));
        co_return !ec && keepAlive;
    }

    const bool encoded =
        std::any_of(response.headers.cbegin(), response.headers.cend(),
                    [](const auto &header) { return iequals(header.first, "Content-Encoding"); });
    const bool compressible = !encoded && compressibleType(response.contentType);
    const ContentCoding coding = compressible ? acceptedCoding(request) : ContentCoding::Identity;
    std::optional<StreamCompressor> compressor;
    if (compressible)
        response.headers.emplace_back("Vary", "Accept-Encoding");
    if (coding != ContentCoding::Identity) {
        compressor.emplace(coding);
        response.headers.emplace_back("Content-Encoding",
                                      coding == ContentCoding::Gzip ? "gzip" : "deflate");
    }
    http::response<http::empty_body> head{static_cast<http::status>(response.status),
                                          request.version};
    setHead(head, response);
    head.keep_alive(keepAlive);
    head.chunked(true);
    http::response_serializer<http::empty_body> serializer{head};
    beast::error_code ec;
    co_await http::async_write_header(stream, serializer, kWithError(ec));
    if (ec)
        co_return false;
    std::string packed;
    for (;;) {
        BodyStream::Taken taken = co_await next(*body, *wake);
        if (taken.failed)
            co_return false; // no last chunk: the client sees a body cut short
        const std::string *piece = &taken.bytes;
        if (compressor) {
            packed.clear();
            if (!compressor->push(taken.bytes, taken.finished, packed)) {
                log::error("compressing a streamed response failed");
                co_return false;
            }
            piece = &packed;
        }
        if (!piece->empty()) {
            co_await asio::async_write(stream, http::make_chunk(asio::buffer(*piece)),
                                       kWithError(ec));
            if (ec)
                co_return false;
        }
        if (taken.finished)
            break;
    }
    co_await asio::async_write(stream, http::make_chunk_last(), kWithError(ec));
    co_return !ec && keepAlive;
}

} // namespace sbx
