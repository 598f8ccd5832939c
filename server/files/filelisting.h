#pragma once

#include "server/core/http.h"
#include "server/files/fileops.h"

#include <functional>
#include <optional>

// POST /v1/file/list's blocking half (aio-api.md 7.3): one folder, or a tree, read with
// readdir and fstatat and answered as JSON text written in one pass.
namespace sbx {

// The outcome's body is the whole answer, the AIO envelope with the FileListResult.
FileOutcome listFiles(const ListRequest &request);

// One folder by name (the default order) can be answered as it is read: its names sorted first,
// then each entry stat'ed and written in that order.
bool listsAsItGoes(const ListRequest &request);
// For such a request: the top folder's errors as the outcome, before anything is answered;
// otherwise begin() gets the response to send, whose body (a BodyStream) the listing then
// writes, and the result is empty.
std::optional<FileOutcome> listFilesStreamed(const ListRequest &request,
                                             const std::function<void(HttpResponse)> &begin);

} // namespace sbx
