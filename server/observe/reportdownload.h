#pragma once

#include <memory>

namespace sbx {

class Capture;
class StreamHandler;

// GET /v1/sandbox/observe/reports/{report_id}: the report's gzip bytes, streamed in pieces so a
// large report never sits in memory.
std::shared_ptr<StreamHandler> makeReportDownload(std::shared_ptr<Capture> capture);

} // namespace sbx
