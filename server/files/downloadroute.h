#pragma once

#include <functional>
#include <string>

namespace sbx {

class Router;
struct ServerContext;

// GET and HEAD /v1/file/download: the file streamed with Content-Length, change_policy=abort,
// and the `download-range` extension (ETag, Last-Modified, Range, If-Range).
void installDownloadRoutes(Router &router, ServerContext &context);

// Test seam: called with the resolved path after the file is opened and before the
// change_policy check that precedes the headers, so a test build can change the file exactly
// there. Set it while installing routes, before the server accepts connections.
void setDownloadBeforeHeadersProbe(std::function<void(const std::string &path)> probe);

} // namespace sbx
