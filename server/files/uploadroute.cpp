#include "server/files/uploadroute.h"

#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/streamroute.h"
#include "server/files/fileerror.h"
#include "server/files/fileops.h"
#include "server/files/multipartparser.h"
#include "server/files/pooljob.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <optional>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sbx {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// An upload reads a block while the one before is parsed and written on the pool: large, so that
// the disk sees few large writes and the pool few jobs; two per upload, so memory stays flat.
constexpr std::size_t kBlock = 1024 * 1024;
constexpr std::size_t kFieldLimit = 64 * 1024;
// Between two reads of the body; a stalled client is dropped after this.
constexpr std::chrono::seconds kReadTimeout(60);

// The upload's bytes on disk until they are renamed onto the target; removed on every other
// way out (error, cut connection, server stop), so nothing half-written is left anywhere.
class StagingFile final {
public:
    StagingFile() = default;
    ~StagingFile() { discard(); }
    StagingFile(const StagingFile &) = delete;
    StagingFile &operator=(const StagingFile &) = delete;

    bool create(const std::string &folder) {
        ::mkdir(folder.c_str(), 0700);
        std::string pattern = folder + "/upload-XXXXXX";
        m_fd = mkostemp(pattern.data(), O_CLOEXEC);
        if (m_fd < 0)
            return false;
        m_path = std::move(pattern);
        return true;
    }
    bool write(std::string_view data) {
        while (!data.empty()) {
            const ssize_t n = ::write(m_fd, data.data(), data.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return false;
            data.remove_prefix(static_cast<std::size_t>(n));
            m_size += static_cast<std::uint64_t>(n);
        }
        return true;
    }
    void discard() {
        if (m_fd >= 0)
            ::close(m_fd);
        if (!m_path.empty())
            ::unlink(m_path.c_str());
        m_fd = -1;
        m_path.clear();
    }
    // After a successful rename the staging name is gone: nothing to remove.
    void released() {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
        m_path.clear();
    }
    bool open() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    const std::string &path() const { return m_path; }
    std::uint64_t size() const { return m_size; }

private:
    int m_fd = -1;
    std::string m_path;
    std::uint64_t m_size = 0;
};

// Collects the form: the file part into staging, the path field into memory (bounded).
class UploadForm final : public MultipartSink {
public:
    explicit UploadForm(std::string stagingFolder)
        : m_stagingFolder(std::move(stagingFolder)) {}

    void partBegin(const MultipartPart &part) override {
        m_current = Current::Ignored;
        if (part.name == "file" && !m_fileSeen) {
            m_fileSeen = true;
            m_filename = part.filename.value_or("");
            m_current = Current::File;
            if (!m_staging.create(m_stagingFolder))
                m_writeErrno = errno;
        } else if (part.name == "path" && !m_path) {
            m_current = Current::Path;
            m_path.emplace();
        }
    }
    void partData(std::string_view data) override {
        if (m_current == Current::File) {
            // After a failed write the rest of the part is read and dropped: the client still
            // gets its answer on a connection that stays usable.
            if (m_writeErrno == 0 && !m_staging.write(data))
                m_writeErrno = errno;
        } else if (m_current == Current::Path) {
            if (m_path->size() + data.size() > kFieldLimit)
                m_pathTooLong = true;
            else
                m_path->append(data);
        }
    }
    void partEnd() override {
        if (m_current == Current::File)
            m_fileComplete = true;
        m_current = Current::Ignored;
    }

    StagingFile m_staging;
    std::string m_stagingFolder;
    bool m_fileSeen = false;
    bool m_fileComplete = false;
    int m_writeErrno = 0;
    std::string m_filename;
    std::optional<std::string> m_path;
    bool m_pathTooLong = false;

private:
    enum class Current { Ignored, File, Path };
    Current m_current = Current::Ignored;
};

// One upload's parser, form and blocks, owned jointly by the route and its pool job.
struct Upload {
    Upload(std::string boundary, std::string stagingFolder)
        : multipart(std::move(boundary))
        , form(std::move(stagingFolder)) {
        for (std::vector<char> &block : blocks)
            block.resize(kBlock);
    }
    MultipartParser multipart;
    UploadForm form;
    std::array<std::vector<char>, 2> blocks;
};

// Reads the request body a block at a time. With a Content-Length (curl, Qt, browsers) the bytes
// go from the socket straight into the block; a chunked body goes through Beast's parser.
class BodyReader final {
public:
    explicit BodyReader(StreamExchange &exchange)
        : m_exchange(exchange)
        , m_parser(std::move(exchange.parser)) {
        m_parser.body_limit(std::numeric_limits<std::uint64_t>::max());
        if (!m_parser.chunked() && m_parser.content_length())
            m_remaining = *m_parser.content_length();
        else if (m_parser.is_done())
            m_remaining = 0;
    }

    // Fills block as far as the body goes; ended once it has all been read. nullopt when the
    // connection failed or stalled.
    asio::awaitable<std::optional<std::size_t>> fill(std::vector<char> &block, bool &ended) {
        std::size_t filled = 0;
        ended = done();
        while (filled < block.size() && !ended) {
            std::optional<std::size_t> n;
            if (m_remaining)
                n = co_await readRaw(block.data() + filled, block.size() - filled);
            else
                n = co_await readChunked(block.data() + filled, block.size() - filled);
            if (!n)
                co_return std::nullopt;
            filled += *n;
            ended = done();
        }
        co_return filled;
    }

private:
    bool done() const { return m_remaining ? *m_remaining == 0 : m_parser.is_done(); }

    asio::awaitable<std::optional<std::size_t>> readRaw(char *to, std::size_t room) {
        room = static_cast<std::size_t>(std::min<std::uint64_t>(room, *m_remaining));
        beast::flat_buffer &buffer = m_exchange.buffer;
        std::size_t n = 0;
        if (buffer.size() > 0) {
            // Read past the header already: copied once, a few KiB at most.
            n = asio::buffer_copy(asio::buffer(to, room), buffer.data());
            buffer.consume(n);
        } else {
            m_exchange.stream.expires_after(kReadTimeout);
            beast::error_code ec;
            n = co_await m_exchange.stream.async_read_some(
                asio::buffer(to, room), asio::redirect_error(asio::use_awaitable, ec));
            if (ec)
                co_return std::nullopt;
        }
        *m_remaining -= n;
        co_return n;
    }

    asio::awaitable<std::optional<std::size_t>> readChunked(char *to, std::size_t room) {
        m_parser.get().body().data = to;
        m_parser.get().body().size = room;
        m_exchange.stream.expires_after(kReadTimeout);
        beast::error_code ec;
        co_await http::async_read_some(m_exchange.stream, m_exchange.buffer, m_parser,
                                       asio::redirect_error(asio::use_awaitable, ec));
        if (ec == http::error::need_buffer)
            ec = {};
        if (ec)
            co_return std::nullopt;
        co_return room - m_parser.get().body().size;
    }

    StreamExchange &m_exchange;
    http::request_parser<http::buffer_body> m_parser;
    // Body bytes still to read when the length is known.
    std::optional<std::uint64_t> m_remaining;
};

std::string baseName(const std::string &name) {
    // Browsers on Windows have sent whole paths as the filename.
    const std::size_t slash = name.find_last_of("/\\");
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

// Copies staging into a sibling of target and renames it over target: for a target on
// another file system, where rename() gives EXDEV. Returns 0 or an errno.
int copyAcross(int sourceFd, const std::string &target) {
    std::string temp;
    const int out = createSiblingTemp(target, temp);
    if (out < 0)
        return errno;
    int error = 0;
    off_t offset = 0;
    struct stat info {};
    fstat(sourceFd, &info);
    while (offset < info.st_size) {
        const ssize_t n =
            sendfile(out, sourceFd, &offset, static_cast<std::size_t>(info.st_size - offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = n < 0 ? errno : EIO;
            break;
        }
    }
    if (error == 0 && fchmod(out, replacementMode(target)) != 0)
        error = errno;
    ::close(out);
    if (error == 0 && ::rename(temp.c_str(), target.c_str()) != 0)
        error = errno;
    if (error != 0)
        ::unlink(temp.c_str());
    return error;
}

class UploadStream final : public StreamHandler {
public:
    explicit UploadStream(ServerContext &context)
        : m_context(context)
        , m_workspace(context.options.workspace)
        , m_stagingFolder(context.options.stateDir + "/uploads") {}

    asio::awaitable<StreamOutcome> handle(StreamExchange &exchange) override {
        const auto boundary = MultipartParser::boundaryFromContentType(
            exchange.request.header("Content-Type").value_or(""));
        if (!boundary) {
            HttpResponse refusal =
                validationRefusal(nlohmann::json::array({"header", "content-type"}), "value_error",
                                  "Expected multipart/form-data with a boundary");
            co_return co_await answer(exchange, std::move(refusal), true);
        }
        const auto expect = exchange.request.header("Expect");
        if (expect && iequals(*expect, "100-continue")) {
            http::response<http::empty_body> proceed{http::status::continue_,
                                                     exchange.request.version};
            beast::error_code ec;
            co_await http::async_write(exchange.stream, proceed,
                                       asio::redirect_error(asio::use_awaitable, ec));
            if (ec)
                co_return StreamOutcome::Close;
        }

        // Shared with the pool job in flight: a coroutine destroyed meanwhile (server stop, a
        // cut connection) leaves it whole, and the staging file goes with the last owner.
        auto upload = std::make_shared<Upload>(*boundary, m_stagingFolder);
        BodyReader reader(exchange);
        std::optional<PoolTask<bool>> parsing;
        std::size_t current = 0;
        bool ended = false;
        while (!ended) {
            std::vector<char> &block = upload->blocks[current];
            const std::optional<std::size_t> filled = co_await reader.fill(block, ended);
            // A cut connection: the staging file goes with `upload`, nothing reaches the target.
            if (!filled)
                co_return StreamOutcome::Close;
            if (parsing) {
                const bool parsed = co_await parsing->wait();
                parsing.reset();
                if (!parsed)
                    co_return co_await malformed(exchange, *upload, !ended);
            }
            // Named first: GCC 12 destroys a temporary std::function in a co_await twice.
            std::function<bool()> parse = [upload, current, size = *filled] {
                const std::vector<char> &bytes = upload->blocks[current];
                return upload->multipart.feed(std::string_view(bytes.data(), size), upload->form);
            };
            parsing.emplace(m_context.io, m_context.pool, std::move(parse));
            current ^= 1;
        }
        const bool parsed = co_await parsing->wait();
        parsing.reset();
        if (!parsed || !upload->multipart.finish())
            co_return co_await malformed(exchange, *upload, false);
        UploadForm &form = upload->form;
        HttpResponse response = co_await complete(form);
        co_return co_await answer(exchange, std::move(response));
    }

private:
    asio::awaitable<HttpResponse> complete(UploadForm &form) {
        if (!form.m_fileSeen || !form.m_fileComplete) {
            co_return validationRefusal(nlohmann::json::array({"body", "file"}), "missing",
                                        "Field required");
        }
        const std::string filename = baseName(form.m_filename);
        if (form.m_pathTooLong)
            co_return fileErrorResponse(fileError("invalid_path", "", "upload",
                                                  "The path field is longer than 64 KiB",
                                                  "ValueError"));
        std::string requested = form.m_path.value_or("");
        if (requested.empty()) {
            if (filename.empty() || filename == "." || filename == "..")
                co_return validationRefusal(nlohmann::json::array({"body", "path"}), "missing",
                                            "Field required (the file part has no filename)");
            requested = filename;
        }
        auto target = resolvePath(m_workspace, requested);
        if (!target)
            co_return fileErrorResponse(fileError("invalid_path", requested, "upload",
                                                  "Invalid path: " + requested, "ValueError"));
        // A folder as the target means "into this folder", under the part's filename.
        struct stat info {};
        if (target->back() == '/' || (stat(target->c_str(), &info) == 0 && S_ISDIR(info.st_mode))) {
            if (filename.empty() || filename == "." || filename == "..")
                co_return fileErrorResponse(fileErrorFromErrno(EISDIR, *target, "upload"));
            if (target->back() != '/')
                *target += '/';
            *target += filename;
        }
        if (form.m_writeErrno != 0) {
            const int error = form.m_writeErrno;
            form.m_staging.discard();
            FileError failure = fileErrorFromErrno(error, *target, "upload");
            failure.message =
                "Could not stage the upload in " + m_stagingFolder + ": " + failure.message;
            co_return fileErrorResponse(failure);
        }
        StagingFile &staging = form.m_staging;
        fchmod(staging.fd(), replacementMode(*target));
        if (::rename(staging.path().c_str(), target->c_str()) == 0) {
            staging.released();
        } else if (errno == EXDEV) {
            const int fd = staging.fd();
            const std::string destination = *target;
            // Named first: GCC 12 destroys a temporary std::function in a co_await twice.
            std::function<int()> copy = [fd, destination] {
                return copyAcross(fd, destination);
            };
            const int error = co_await onPool<int>(m_context.io, m_context.pool, std::move(copy));
            staging.discard();
            if (error != 0)
                co_return fileErrorResponse(fileErrorFromErrno(error, *target, "upload"));
        } else {
            const int error = errno;
            staging.discard();
            co_return fileErrorResponse(fileErrorFromErrno(error, *target, "upload"));
        }
        nlohmann::json data = nlohmann::json::object();
        data["file_path"] = *target;
        data["file_size"] = staging.size();
        data["success"] = true;
        co_return envelopeResponse(200, true, "File uploaded successfully", std::move(data));
    }

    static asio::awaitable<StreamOutcome> malformed(StreamExchange &exchange, Upload &upload,
                                                    bool bodyUnread) {
        co_return co_await answer(
            exchange, errorResponse(400, "Malformed multipart body: " + upload.multipart.error()),
            bodyUnread);
    }

    // Responses sent before the body was read whole close the connection: the rest of the
    // body would otherwise be read as the next request.
    static asio::awaitable<StreamOutcome> answer(StreamExchange &exchange, HttpResponse response,
                                                 bool bodyUnread = false) {
        response.close = response.close || bodyUnread;
        const bool keepAlive =
            co_await writeHttpResponse(exchange.stream, exchange.request, std::move(response));
        co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
    }

    ServerContext &m_context;
    std::string m_workspace;
    std::string m_stagingFolder;
};

} // namespace

void installUploadRoute(Router &router, ServerContext &context) {
    // Staging files a killed server left behind are of no use to anyone.
    const std::string folder = context.options.stateDir + "/uploads";
    ::mkdir(folder.c_str(), 0700);
    std::error_code ignored;
    for (const auto &entry : std::filesystem::directory_iterator(folder, ignored)) {
        if (entry.path().filename().string().starts_with("upload-"))
            std::filesystem::remove(entry.path(), ignored);
    }
    router.addStream("POST", "/v1/file/upload", std::make_shared<UploadStream>(context),
                     {.summary = "upload a file: multipart/form-data with a `file` part and a "
                                 "`path` field (either order), streamed and renamed into place"});
}

} // namespace sbx
