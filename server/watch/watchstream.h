#pragma once

#include <memory>

namespace sbx {

class Router;
class WatchRegistry;

// GET /v1/file/watch/{id}/events: the watcher's events as Server-Sent Events (watch_started,
// file_change with `id: WATCHER:SEQ`, overflow, `: heartbeat`), honouring Last-Event-ID.
void installWatchStream(Router &router, std::shared_ptr<WatchRegistry> registry);

} // namespace sbx
