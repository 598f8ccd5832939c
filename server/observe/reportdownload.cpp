#include "server/observe/reportdownload.h"

#include "server/core/streamroute.h"
#include "server/files/filebody.h"
#include "server/observe/capture.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr std::chrono::seconds kWriteTimeout(60);

class ReportDownload final : public StreamHandler {
public:
    explicit ReportDownload(std::shared_ptr<Capture> capture)
        : m_capture(std::move(capture)) {}

    asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) override {
        const HttpRequest &request = exchange.request;
        const bool bodyUnread = !exchange.parser.is_done();
        const std::string id(request.param("report_id").value_or(""));
        // The id is checked before it is looked up, and the path comes from the store, never
        // from the request.
        const auto info = isSafeId(id) ? m_capture->report(id) : std::nullopt;
        const int fd = info ? ::open(info->path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
        FileHandle file(fd);
        struct stat opened {};
        if (fd < 0 || ::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
            HttpResponse response = errorResponse(404, "Report " + id + " not found");
            response.close = bodyUnread;
            const bool keep =
                co_await writeHttpResponse(exchange.stream, request, std::move(response));
            co_return keep ? StreamOutcome::KeepAlive : StreamOutcome::Close;
        }
        const auto size = static_cast<std::uint64_t>(opened.st_size);
        http::response<http::empty_body> header{http::status::ok, request.version};
        header.set(http::field::content_type, "application/gzip");
        header.set(http::field::content_disposition,
                   "attachment; filename=\"" + id + ".jsonl.gz\"");
        header.content_length(size);
        const bool keepAlive = request.keepAlive && !bodyUnread;
        header.keep_alive(keepAlive);
        http::response_serializer<http::empty_body> serializer{header};
        beast::error_code ec;
        exchange.stream.expires_after(kWriteTimeout);
        co_await http::async_write_header(exchange.stream, serializer,
                                          asio::redirect_error(asio::use_awaitable, ec));
        if (ec)
            co_return StreamOutcome::Close;
        if (!co_await sendFileBody(exchange.stream, file.get(), 0, size))
            co_return StreamOutcome::Close;
        exchange.stream.expires_never();
        co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
    }

private:
    std::shared_ptr<Capture> m_capture;
};

} // namespace

std::shared_ptr<StreamHandler> makeReportDownload(std::shared_ptr<Capture> capture) {
    return std::make_shared<ReportDownload>(std::move(capture));
}

} // namespace sbx
