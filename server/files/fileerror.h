#pragma once

#include "server/core/http.h"

#include <nlohmann/json.hpp>

#include <ctime>
#include <optional>
#include <string>
#include <string_view>

// AIO's FileOperationError (aio-api.md 1.3) and the path and time helpers the file routes share.
namespace sbx {

struct FileError {
    std::string path;
    std::string operation;
    std::string message;
    // not_found, permission_denied, invalid_target, already_exists, invalid_path,
    // read_only_filesystem, no_space_left, decode_error, io_error
    std::string errorType;
    bool retryable = false;
    std::optional<int> errnoValue;
    std::string errnoName;
    std::string exceptionType;
};

// Maps errno to AIO's error_type and Python's exception name. With sudo, a permission error
// says that this server cannot elevate.
FileError fileErrorFromErrno(int error, std::string path, std::string operation, bool sudo = false);
FileError fileError(std::string errorType, std::string path, std::string operation,
                    std::string message, std::string exceptionType = {});

nlohmann::json fileErrorJson(const FileError &error);
// HTTP 200, success false, data the FileOperationError: what AIO's JSON file routes answer.
HttpResponse fileErrorResponse(const FileError &error, int status = 200);

// Absolute paths stay as they are; relative ones are taken against the workspace. Empty paths
// and paths holding NUL are nullopt (invalid_path).
std::optional<std::string> resolvePath(const std::string &workspace, const std::string &path);
// The user the server runs as, for "cannot elevate" messages.
std::string serverUser();

// "2024-05-01T12:00:00.123Z"
std::string isoTime(const timespec &when);
// IMF-fixdate, "Wed, 01 May 2024 12:00:00 GMT"
std::string httpDate(std::time_t when);
// Parses the three HTTP date forms (RFC 9110 5.6.7); nullopt when it is none of them.
std::optional<std::time_t> parseHttpDate(std::string_view text);

} // namespace sbx
