#include "server/files/fileops.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

using nlohmann::json;

// Whole-file reads go through JSON: past this, download is the way.
constexpr off_t kReadLimit = 256LL * 1024 * 1024;

bool writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// Latin-1 from the code points of a UTF-8 string; nullopt for a code point above U+00FF.
std::optional<std::string> latin1(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if ((c == 0xC2 || c == 0xC3) && i + 1 < text.size()) {
            out.push_back(static_cast<char>(((c & 0x03) << 6) | (text[++i] & 0x3F)));
        } else {
            return std::nullopt;
        }
    }
    return out;
}

FileOutcome failure(FileError error) {
    FileOutcome outcome;
    outcome.message = error.message;
    outcome.error = std::move(error);
    return outcome;
}

} // namespace

std::function<int(const std::string &)> &accessProbe() {
    static std::function<int(const std::string &)> probe;
    return probe;
}

void setFileAccessProbe(std::function<int(const std::string &path)> probe) {
    accessProbe() = std::move(probe);
}

int fileAccessError(const std::string &path) {
    return accessProbe() ? accessProbe()(path) : 0;
}

FileOutcome readFile(const ReadRequest &request) {
    const int fd = ::open(request.file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return failure(fileErrorFromErrno(errno, request.file, "read", request.sudo));
    struct stat info {};
    if (fstat(fd, &info) != 0 || S_ISDIR(info.st_mode)) {
        const int error = S_ISDIR(info.st_mode) ? EISDIR : errno;
        ::close(fd);
        return failure(fileErrorFromErrno(error, request.file, "read", request.sudo));
    }
    if (S_ISREG(info.st_mode) && info.st_size > kReadLimit) {
        ::close(fd);
        return failure(fileError("io_error", request.file, "read",
                                 "File too large to read as text (" + std::to_string(info.st_size) +
                                     " bytes): use GET /v1/file/download",
                                 "OSError"));
    }
    std::string content;
    char chunk[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            return failure(fileErrorFromErrno(error, request.file, "read", request.sudo));
        }
        if (n == 0)
            break;
        content.append(chunk, static_cast<std::size_t>(n));
        if (static_cast<off_t>(content.size()) > kReadLimit) {
            ::close(fd);
            return failure(fileError("io_error", request.file, "read",
                                     "File too large to read as text: use GET /v1/file/download",
                                     "OSError"));
        }
    }
    ::close(fd);
    if (!isValidUtf8(content)) {
        return failure(fileError("decode_error", request.file, "read",
                                 "File is not valid UTF-8 text: " + request.file +
                                     " (use GET /v1/file/download for binary files)",
                                 "UnicodeDecodeError"));
    }
    // Lines keep their ends, so a range of them joins back to the exact bytes.
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < content.size(); ++i) {
        if (content[i] == '\n' && i + 1 < content.size())
            starts.push_back(i + 1);
    }
    const long long total = content.empty() ? 0 : static_cast<long long>(starts.size());
    starts.resize(static_cast<std::size_t>(total));
    starts.push_back(content.size());
    // Python slice semantics, as lines[start:end]: negative counts from the end.
    auto clampIndex = [total](std::optional<long long> index, long long fallback) {
        long long value = index.value_or(fallback);
        if (value < 0)
            value += total;
        return std::clamp(value, 0LL, total);
    };
    const long long begin = clampIndex(request.startLine, 0);
    const long long end = std::max(begin, clampIndex(request.endLine, total));
    FileOutcome outcome;
    outcome.message = "File read successfully";
    outcome.data = json::object();
    outcome.data["file"] = request.file;
    outcome.data["content"] = content.substr(starts[static_cast<std::size_t>(begin)],
                                             starts[static_cast<std::size_t>(end)] -
                                                 starts[static_cast<std::size_t>(begin)]);
    outcome.data["line_count"] = end - begin;
    outcome.data["total_lines"] = total;
    return outcome;
}

FileOutcome writeFile(const WriteRequest &request) {
    std::string bytes;
    if (request.encoding == "base64") {
        auto decoded = decodeBase64(request.content);
        if (!decoded)
            return failure(fileError("decode_error", request.file, "write",
                                     "content is not valid base64", "binascii.Error"));
        bytes = std::move(*decoded);
    } else if (request.encoding == "raw") {
        auto decoded = latin1(request.content);
        if (!decoded)
            return failure(fileError("decode_error", request.file, "write",
                                     "raw content holds a character above U+00FF",
                                     "UnicodeEncodeError"));
        bytes = std::move(*decoded);
    } else {
        bytes = request.content;
    }
    if (request.encoding != "base64") {
        if (request.leadingNewline)
            bytes.insert(bytes.begin(), '\n');
        if (request.trailingNewline)
            bytes.push_back('\n');
    }

    // Write through a symlink, as open() would, rather than replace the link.
    std::string target = request.file;
    struct stat linkInfo {};
    if (lstat(target.c_str(), &linkInfo) == 0 && S_ISLNK(linkInfo.st_mode)) {
        if (char *resolved = realpath(target.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    }
    struct stat existing {};
    const bool exists = stat(target.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode))
        return failure(fileErrorFromErrno(EISDIR, request.file, "write", request.sudo));

    auto fail = [&](int error) {
        return failure(fileErrorFromErrno(error, request.file, "write", request.sudo));
    };
    if (request.append) {
        const int fd = ::open(target.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0)
            return fail(errno);
        const bool written = writeAll(fd, bytes);
        const int error = errno;
        ::close(fd);
        if (!written)
            return fail(error);
    } else {
        // A temporary sibling renamed over the target: readers never see half a file.
        std::string temp;
        const int fd = createSiblingTemp(target, temp);
        if (fd < 0) {
            const int error = errno;
            if (!(exists && (error == EACCES || error == EPERM)))
                return fail(error);
            // The folder is closed to us but the file is not: write it in place.
            const int direct = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (direct < 0)
                return fail(errno);
            const bool written = writeAll(direct, bytes);
            const int writeError = errno;
            ::close(direct);
            if (!written)
                return fail(writeError);
        } else {
            bool good = writeAll(fd, bytes) && fdatasync(fd) == 0;
            int error = errno;
            if (good) {
                fchmod(fd, replacementMode(target));
                if (exists && geteuid() == 0)
                    (void)fchown(fd, existing.st_uid, existing.st_gid);
            }
            ::close(fd);
            if (good && ::rename(temp.c_str(), target.c_str()) != 0) {
                good = false;
                error = errno;
            }
            if (!good) {
                ::unlink(temp.c_str());
                return fail(error);
            }
        }
    }
    FileOutcome outcome;
    outcome.message = request.append ? "Content appended" : "File written successfully";
    outcome.data = json::object();
    outcome.data["file"] = request.file;
    outcome.data["bytes_written"] = bytes.size();
    return outcome;
}

int createSiblingTemp(const std::string &target, std::string &tempPath) {
    const std::size_t slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash);
    std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    // Room for the suffix within NAME_MAX.
    if (name.size() > 200)
        name.resize(200);
    std::string pattern = (dir.empty() ? std::string() : dir) + "/." + name + ".sbx-XXXXXX";
    const int fd = mkostemp(pattern.data(), O_CLOEXEC);
    if (fd >= 0)
        tempPath = pattern;
    return fd;
}

unsigned replacementMode(const std::string &target) {
    struct stat info {};
    if (stat(target.c_str(), &info) == 0)
        return info.st_mode & 07777;
    const mode_t mask = umask(022);
    umask(mask);
    return 0666 & ~mask;
}

std::optional<std::string> decodeBase64(std::string_view text) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z')
            return c - 'A';
        if (c >= 'a' && c <= 'z')
            return c - 'a' + 26;
        if (c >= '0' && c <= '9')
            return c - '0' + 52;
        if (c == '+' || c == '-')
            return 62;
        if (c == '/' || c == '_')
            return 63;
        return -1;
    };
    std::string out;
    out.reserve(text.size() / 4 * 3);
    unsigned buffer = 0;
    int bits = 0;
    bool padding = false;
    for (const char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            padding = true;
            continue;
        }
        const int v = value(c);
        if (v < 0 || padding)
            return std::nullopt;
        buffer = (buffer << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
        }
    }
    // A lone trailing sextet cannot encode a byte.
    if (bits >= 6)
        return std::nullopt;
    return out;
}

bool isValidUtf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        unsigned codePoint = 0;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            codePoint = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            codePoint = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            codePoint = c & 0x07;
        } else {
            return false;
        }
        if (i + static_cast<std::size_t>(extra) >= text.size())
            return false;
        for (int k = 1; k <= extra; ++k) {
            const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
            if ((next & 0xC0) != 0x80)
                return false;
            codePoint = (codePoint << 6) | (next & 0x3F);
        }
        static constexpr unsigned kMinimum[] = {0, 0x80, 0x800, 0x10000};
        if (codePoint < kMinimum[extra] || codePoint > 0x10FFFF ||
            (codePoint >= 0xD800 && codePoint <= 0xDFFF))
            return false;
        i += static_cast<std::size_t>(extra) + 1;
    }
    return true;
}

} // namespace sbx
