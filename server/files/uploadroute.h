#pragma once

namespace sbx {

class Router;
struct ServerContext;

// POST /v1/file/upload: multipart `file` and `path` in either order, streamed into a staging
// file under STATE_DIR/uploads and renamed onto the target once complete.
void installUploadRoute(Router &router, ServerContext &context);

} // namespace sbx
