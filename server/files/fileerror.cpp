#include "server/files/fileerror.h"

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <unistd.h>

namespace sbx {

namespace {

struct ErrnoInfo {
    const char *name;
    const char *type;
    const char *exception;
    bool retryable;
};

ErrnoInfo describe(int error) {
    switch (error) {
    case ENOENT:
        return {"ENOENT", "not_found", "FileNotFoundError", false};
    case EACCES:
        return {"EACCES", "permission_denied", "PermissionError", false};
    case EPERM:
        return {"EPERM", "permission_denied", "PermissionError", false};
    case EISDIR:
        return {"EISDIR", "invalid_target", "IsADirectoryError", false};
    case ENOTDIR:
        return {"ENOTDIR", "invalid_target", "NotADirectoryError", false};
    case EEXIST:
        return {"EEXIST", "already_exists", "FileExistsError", false};
    case ENOTEMPTY:
        return {"ENOTEMPTY", "invalid_target", "OSError", false};
    case EROFS:
        return {"EROFS", "read_only_filesystem", "OSError", false};
    case ENOSPC:
        return {"ENOSPC", "no_space_left", "OSError", true};
    case EDQUOT:
        return {"EDQUOT", "no_space_left", "OSError", true};
    case ENAMETOOLONG:
        return {"ENAMETOOLONG", "invalid_path", "OSError", false};
    case ELOOP:
        return {"ELOOP", "invalid_path", "OSError", false};
    case EINVAL:
        return {"EINVAL", "invalid_path", "OSError", false};
    case ETXTBSY:
        return {"ETXTBSY", "io_error", "OSError", true};
    case EBUSY:
        return {"EBUSY", "io_error", "OSError", true};
    case EAGAIN:
        return {"EAGAIN", "io_error", "BlockingIOError", true};
    case EINTR:
        return {"EINTR", "io_error", "InterruptedError", true};
    case EMFILE:
        return {"EMFILE", "io_error", "OSError", true};
    case ENFILE:
        return {"ENFILE", "io_error", "OSError", true};
    case EXDEV:
        return {"EXDEV", "io_error", "OSError", false};
    case EIO:
        return {"EIO", "io_error", "OSError", true};
    default:
        return {nullptr, "io_error", "OSError", false};
    }
}

} // namespace

FileError fileErrorFromErrno(int error, std::string path, std::string operation, bool sudo) {
    const ErrnoInfo info = describe(error);
    FileError result;
    result.errorType = info.type;
    result.retryable = info.retryable;
    result.errnoValue = error;
    result.errnoName = info.name ? info.name : "E" + std::to_string(error);
    result.exceptionType = info.exception;
    result.message = std::string(std::strerror(error)) + ": " + path;
    if (sudo && result.errorType == "permission_denied") {
        result.message += " (sudo was requested, but this sandbox cannot elevate: "
                          "sandbox-server runs as " +
                          serverUser() + ")";
    }
    result.path = std::move(path);
    result.operation = std::move(operation);
    return result;
}

FileError fileError(std::string errorType, std::string path, std::string operation,
                    std::string message, std::string exceptionType) {
    FileError result;
    result.errorType = std::move(errorType);
    result.path = std::move(path);
    result.operation = std::move(operation);
    result.message = std::move(message);
    result.exceptionType = std::move(exceptionType);
    return result;
}

nlohmann::json fileErrorJson(const FileError &error) {
    nlohmann::json data = nlohmann::json::object();
    data["path"] = error.path;
    data["operation"] = error.operation;
    data["message"] = error.message;
    data["error_type"] = error.errorType;
    data["retryable"] = error.retryable;
    data["errno"] = error.errnoValue ? nlohmann::json(*error.errnoValue) : nlohmann::json();
    data["errno_name"] =
        error.errnoName.empty() ? nlohmann::json() : nlohmann::json(error.errnoName);
    data["exception_type"] =
        error.exceptionType.empty() ? nlohmann::json() : nlohmann::json(error.exceptionType);
    return data;
}

HttpResponse fileErrorResponse(const FileError &error, int status) {
    return envelopeResponse(status, false, error.message, fileErrorJson(error));
}

std::optional<std::string> resolvePath(const std::string &workspace, const std::string &path) {
    if (path.empty() || path.find('\0') != std::string::npos)
        return std::nullopt;
    if (path.front() == '/')
        return path;
    if (workspace.empty() || workspace.back() == '/')
        return workspace + path;
    return workspace + "/" + path;
}

std::string serverUser() {
    const uid_t uid = geteuid();
    if (const passwd *entry = getpwuid(uid))
        return std::string(entry->pw_name) + " (uid " + std::to_string(uid) + ")";
    return "uid " + std::to_string(uid);
}

std::string isoTime(const timespec &when) {
    std::tm utc{};
    gmtime_r(&when.tv_sec, &utc);
    char text[40];
    const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(text + n, sizeof text - n, ".%03ldZ", when.tv_nsec / 1000000);
    return text;
}

std::string httpDate(std::time_t when) {
    std::tm utc{};
    gmtime_r(&when, &utc);
    char text[40];
    std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    return text;
}

std::optional<std::time_t> parseHttpDate(std::string_view text) {
    const std::string value(text);
    // IMF-fixdate, obsolete RFC 850 and asctime forms.
    for (const char *format :
         {"%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"}) {
        std::tm parsed{};
        const char *end = strptime(value.c_str(), format, &parsed);
        if (end && *end == '\0')
            return timegm(&parsed);
    }
    return std::nullopt;
}

} // namespace sbx
