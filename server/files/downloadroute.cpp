#include "server/files/downloadroute.h"

#include "server/files/fileops.h"

#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/streamroute.h"
#include "server/files/filebody.h"
#include "server/files/fileerror.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr std::chrono::seconds kWriteTimeout(60);

std::function<void(const std::string &)> &beforeHeadersProbe() {
    static std::function<void(const std::string &)> probe;
    return probe;
}

struct ByteRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0; // inclusive
};

enum class RangeKind { Whole, Part, Unsatisfiable };

// One `bytes=` range (RFC 9110 14.1.2). Several ranges, other units or bad syntax are ignored
// and the whole file is sent, as the RFC allows.
RangeKind parseRange(std::string_view header, std::uint64_t size, ByteRange &range) {
    const std::string_view prefix = "bytes=";
    if (header.size() < prefix.size() || !iequals(header.substr(0, prefix.size()), prefix))
        return RangeKind::Whole;
    std::string_view spec = header.substr(prefix.size());
    while (!spec.empty() && spec.front() == ' ')
        spec.remove_prefix(1);
    while (!spec.empty() && spec.back() == ' ')
        spec.remove_suffix(1);
    const std::size_t dash = spec.find('-');
    if (dash == std::string_view::npos || spec.find(',') != std::string_view::npos)
        return RangeKind::Whole;
    auto number = [](std::string_view text, std::uint64_t &out) {
        if (text.empty() || text.size() > 19)
            return false;
        out = 0;
        for (const char c : text) {
            if (c < '0' || c > '9')
                return false;
            out = out * 10 + static_cast<std::uint64_t>(c - '0');
        }
        return true;
    };
    const std::string_view firstText = spec.substr(0, dash);
    const std::string_view lastText = spec.substr(dash + 1);
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    if (firstText.empty()) {
        if (!number(lastText, last))
            return RangeKind::Whole;
        if (last == 0 || size == 0)
            return RangeKind::Unsatisfiable;
        range = {size - std::min(last, size), size - 1};
        return RangeKind::Part;
    }
    if (!number(firstText, first))
        return RangeKind::Whole;
    if (lastText.empty()) {
        last = size == 0 ? 0 : size - 1;
    } else if (!number(lastText, last) || last < first) {
        return RangeKind::Whole;
    }
    if (first >= size)
        return RangeKind::Unsatisfiable;
    range = {first, std::min(last, size - 1)};
    return RangeKind::Part;
}

std::string contentDisposition(const std::string &path) {
    const std::size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string fallback;
    std::string encoded;
    static const char *hex = "0123456789ABCDEF";
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        fallback.push_back(c >= 0x20 && c < 0x7F && c != '"' && c != '\\' ? ch : '_');
        if (std::isalnum(c) || std::string_view("!#$&+-.^_`|~").find(ch) != std::string::npos) {
            encoded.push_back(ch);
        } else {
            encoded.push_back('%');
            encoded.push_back(hex[c >> 4]);
            encoded.push_back(hex[c & 0xF]);
        }
    }
    return "attachment; filename=\"" + fallback + "\"; filename*=UTF-8''" + encoded;
}

std::string entityTag(const struct stat &info) {
    char text[96];
    const long long mtimeNs =
        static_cast<long long>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec;
    std::snprintf(
        text, sizeof text, "\"%llx-%llx-%llx\"", static_cast<unsigned long long>(info.st_ino),
        static_cast<unsigned long long>(info.st_size), static_cast<unsigned long long>(mtimeNs));
    return text;
}

bool sameVersion(const struct stat &a, const struct stat &b) {
    return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
           a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

// If-Range (RFC 9110 13.1.5): the range applies only to the version the client already has.
bool ifRangeMatches(std::string_view value, const std::string &etag, std::time_t modified) {
    if (value.starts_with("W/"))
        return false;
    if (value.starts_with("\""))
        return value == etag;
    const auto date = parseHttpDate(value);
    return date && *date == modified;
}

int statusFor(const FileError &error) {
    if (error.errorType == "not_found")
        return 404;
    if (error.errorType == "permission_denied")
        return 403;
    if (error.errorType == "invalid_target" || error.errorType == "invalid_path")
        return 400;
    return 500;
}

HttpResponse missingPath() {
    return validationRefusal(nlohmann::json::array({"query", "path"}), "missing", "Field required");
}

HttpResponse badPolicy() {
    return validationRefusal(nlohmann::json::array({"query", "change_policy"}), "enum",
                             "Input should be 'ignore' or 'abort'");
}

class DownloadStream final : public StreamHandler {
public:
    DownloadStream(std::string workspace, bool honourRange)
        : m_workspace(std::move(workspace))
        , m_honourRange(honourRange) {}

    asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) override {
        const HttpRequest &request = exchange.request;
        const bool bodyUnread = !exchange.parser.is_done();
        const auto pathValue = request.queryValue("path");
        // Refusals are built before the co_await: GCC 12 rejects initializer lists inside one.
        if (!pathValue) {
            HttpResponse refusal = missingPath();
            co_return co_await answer(exchange, std::move(refusal), bodyUnread);
        }
        const std::string policy(request.queryValue("change_policy").value_or("ignore"));
        if (policy != "ignore" && policy != "abort") {
            HttpResponse refusal = badPolicy();
            co_return co_await answer(exchange, std::move(refusal), bodyUnread);
        }
        const std::string requested(*pathValue);
        const auto path = resolvePath(m_workspace, requested);
        if (!path) {
            co_return co_await fail(exchange,
                                    fileError("invalid_path", requested, "download",
                                              "Invalid path: " + requested, "ValueError"),
                                    bodyUnread);
        }
        if (const int refused = fileAccessError(*path)) {
            co_return co_await fail(exchange, fileErrorFromErrno(refused, *path, "download"),
                                    bodyUnread);
        }
        // O_NONBLOCK: opening a FIFO must not stall the I/O thread; it is refused below.
        FileHandle file(::open(path->c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
        if (file.get() < 0) {
            co_return co_await fail(exchange, fileErrorFromErrno(errno, *path, "download"),
                                    bodyUnread);
        }
        struct stat opened {};
        if (fstat(file.get(), &opened) != 0 || !S_ISREG(opened.st_mode)) {
            FileError error =
                fileErrorFromErrno(S_ISDIR(opened.st_mode) ? EISDIR : EINVAL, *path, "download");
            if (!S_ISDIR(opened.st_mode)) {
                error.errorType = "invalid_target";
                error.message = "Not a regular file: " + *path;
            }
            co_return co_await fail(exchange, error, bodyUnread);
        }
        const auto size = static_cast<std::uint64_t>(opened.st_size);
        const std::string etag = entityTag(opened);
        const std::time_t modified = opened.st_mtim.tv_sec;

        ByteRange range{0, size == 0 ? 0 : size - 1};
        RangeKind kind = RangeKind::Whole;
        if (const auto rangeHeader = m_honourRange ? request.header("Range") : std::nullopt) {
            const auto ifRange = request.header("If-Range");
            if (!ifRange || ifRangeMatches(*ifRange, etag, modified))
                kind = parseRange(*rangeHeader, size, range);
        }
        if (kind == RangeKind::Unsatisfiable) {
            HttpResponse response = errorResponse(416, "Range not satisfiable: the file is " +
                                                           std::to_string(size) + " bytes");
            response.headers.emplace_back("Content-Range", "bytes */" + std::to_string(size));
            co_return co_await answer(exchange, std::move(response), bodyUnread);
        }

        if (const auto &probe = beforeHeadersProbe())
            probe(*path);
        if (policy == "abort") {
            // The path now against the file opened: modified, or replaced by another file.
            struct stat now {};
            struct stat fdNow {};
            if (stat(path->c_str(), &now) != 0 || fstat(file.get(), &fdNow) != 0 ||
                now.st_ino != opened.st_ino || now.st_dev != opened.st_dev ||
                !sameVersion(now, opened) || !sameVersion(fdNow, opened)) {
                FileError error =
                    fileError("io_error", *path, "download",
                              "File changed before the download started: " + *path, "OSError");
                error.retryable = true;
                co_return co_await fail(exchange, error, bodyUnread, 409);
            }
        }

        const std::uint64_t length = size == 0 ? 0 : range.last - range.first + 1;
        http::response<http::empty_body> header{
            kind == RangeKind::Part ? http::status::partial_content : http::status::ok,
            request.version};
        header.set(http::field::content_type, "application/octet-stream");
        header.set(http::field::content_disposition, contentDisposition(*path));
        header.set(http::field::accept_ranges, "bytes");
        header.set(http::field::etag, etag);
        header.set(http::field::last_modified, httpDate(modified));
        if (kind == RangeKind::Part) {
            header.set(http::field::content_range, "bytes " + std::to_string(range.first) + "-" +
                                                       std::to_string(range.last) + "/" +
                                                       std::to_string(size));
        }
        header.content_length(length);
        const bool keepAlive = request.keepAlive && !bodyUnread;
        header.keep_alive(keepAlive);
        http::response_serializer<http::empty_body> serializer{header};
        beast::error_code ec;
        exchange.stream.expires_after(kWriteTimeout);
        co_await http::async_write_header(exchange.stream, serializer,
                                          asio::redirect_error(asio::use_awaitable, ec));
        if (ec)
            co_return StreamOutcome::Close;
        if (request.method == "HEAD")
            co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;

        // sendfile (the pread + write loop it replaced cost the server twice the CPU, taken
        // from the client on a shared machine); change_policy=abort looks between pieces.
        const auto stillSame = [&] {
            struct stat fdNow {};
            return policy != "abort" ||
                   (fstat(file.get(), &fdNow) == 0 && sameVersion(fdNow, opened));
        };
        if (!co_await sendFileBody(exchange.stream, file.get(), static_cast<off_t>(range.first),
                                   length, stillSame))
            co_return StreamOutcome::Close;
        co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
    }

private:
    // Download errors are HTTP statuses (aio-api.md 7.7) with the envelope and the
    // FileOperationError as data, so a client gets both.
    static asio::awaitable<StreamOutcome> fail(StreamExchange &exchange, const FileError &error,
                                               bool bodyUnread, int status = 0) {
        HttpResponse response = fileErrorResponse(error, status ? status : statusFor(error));
        co_return co_await answer(exchange, std::move(response), bodyUnread);
    }

    static asio::awaitable<StreamOutcome> answer(StreamExchange &exchange, HttpResponse response,
                                                 bool bodyUnread) {
        response.close = response.close || bodyUnread;
        const bool keepAlive =
            co_await writeHttpResponse(exchange.stream, exchange.request, std::move(response));
        co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
    }

    std::string m_workspace;
    bool m_honourRange;
};

} // namespace

void setDownloadBeforeHeadersProbe(std::function<void(const std::string &path)> probe) {
    beforeHeadersProbe() = std::move(probe);
}

void installDownloadRoutes(Router &router, ServerContext &context) {
    auto handler =
        std::make_shared<DownloadStream>(context.options.workspace, !context.options.noExtensions);
    router.addStream("GET", "/v1/file/download", handler,
                     {.summary = "download a file (path, change_policy=ignore|abort); Range, "
                                 "If-Range, ETag (download-range)"});
    // Stream routes get no automatic HEAD.
    router.addStream("HEAD", "/v1/file/download", handler);
}

} // namespace sbx
