#pragma once

#include "server/files/fileerror.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

// The blocking halves of list, read and write (aio-api.md 7.1-7.3): plain requests in, the AIO
// result or a FileError out. They run on the worker pool, never on the I/O thread.
namespace sbx {

struct ListRequest {
    std::string path;
    bool recursive = false;
    bool showHidden = true;
    bool includeSize = true;
    bool includePermissions = false;
    std::string sortBy = "name";
    bool sortDesc = false;
    std::optional<int> maxDepth;
    std::vector<std::string> fileTypes;
};

struct ReadRequest {
    std::string file;
    std::optional<long long> startLine;
    std::optional<long long> endLine;
    bool sudo = false;
};

struct WriteRequest {
    std::string file;
    std::string content;
    std::string encoding = "utf-8";
    bool append = false;
    bool leadingNewline = false;
    bool trailingNewline = false;
    bool sudo = false;
};

struct FileOutcome {
    std::optional<FileError> error;
    std::string message;
    nlohmann::json data;
    // When not empty, the whole JSON answer, written already (a listing of 100 000 entries
    // would take longer as a json tree than the disk took to list it).
    std::string body;
};

// listFiles: server/files/filelisting.h.
FileOutcome readFile(const ReadRequest &request);
FileOutcome writeFile(const WriteRequest &request);

// Test seam: the errno a test build refuses a path with before listing or downloading it (0 for
// none), standing for files the sandbox user may not read while root may: run as root, the
// test machine has none. Set it while installing routes, before the server accepts connections.
void setFileAccessProbe(std::function<int(const std::string &path)> probe);
// The probe's answer for path; 0 without a probe.
int fileAccessError(const std::string &path);

// For uploads: a unique name next to target ("<dir>/.<name>.sbx-XXXXXX"), opened O_RDWR.
int createSiblingTemp(const std::string &target, std::string &tempPath);
// The mode a file replacing target gets: target's own, or 0666 minus the umask.
unsigned replacementMode(const std::string &target);

std::optional<std::string> decodeBase64(std::string_view text);
bool isValidUtf8(std::string_view text);

} // namespace sbx
