#pragma once

#include "server/files/fileops.h"

// POST /v1/file/list's blocking half (aio-api.md 7.3): one folder, or a tree, read with
// readdir and fstatat and answered as JSON text written in one pass.
namespace sbx {

// The outcome's body is the whole answer, the AIO envelope with the FileListResult.
FileOutcome listFiles(const ListRequest &request);

} // namespace sbx
