#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace sbx {

class ActivityEvents;
class Sampler;

// A session's samples file stops growing here (the session then stops, with an event), which
// bounds every report too.
inline constexpr std::uint64_t kMaxSamplesBytes = 64ULL * 1024 * 1024;

struct StartRequest {
    std::string mode = "capture";
    std::optional<std::string> idempotencyKey;
    std::optional<double> durationSeconds;
    double intervalSeconds = 1.0;
    bool processes = true;
    bool disk = true;
};

struct ExportRequest {
    std::optional<std::string> idempotencyKey;
    std::optional<std::string> sessionId;
    std::string reason = "manual";
};

// AIO's ObservationReportInfo (and ObservationExportResult).
struct ReportInfo {
    std::string id;
    std::optional<std::string> sessionId;
    std::string reason;
    std::string createdAt;
    std::string path;
    std::uint64_t sizeBytes = 0;

    nlohmann::json toJson() const;
};

// An answer with an HTTP status, for the routes to wrap.
struct CaptureOutcome {
    int status = 200;
    std::string message;
    nlohmann::json data;
};

// True for ids the server makes (letters, digits, '_' and '-'), so no id can name a path.
bool isSafeId(std::string_view id);

// Observation sessions (capture: every sample to <dir>/<session>/samples.jsonl; guardrail:
// sampling that only posts events) on a thread each, and the gzip reports exported from them
// (<dir>/reports, kept across restarts). Thread-safe; every call may block on disk, so the
// routes call it on the work pool.
class Capture final {
public:
    Capture(std::string dir, Sampler &sampler, ActivityEvents &events);
    ~Capture();
    Capture(const Capture &) = delete;
    Capture &operator=(const Capture &) = delete;

    // "off", "guardrail" or "capture": the running session's mode.
    std::string mode() const;
    nlohmann::json status() const;
    // A running session (or the one an idempotency key names) is returned, not replaced.
    CaptureOutcome start(const StartRequest &request);
    CaptureOutcome stop(const std::optional<std::string> &sessionId);
    CaptureOutcome exportReport(const ExportRequest &request);
    nlohmann::json reports() const;
    std::optional<ReportInfo> report(const std::string &id) const;
    std::optional<ReportInfo> removeReport(const std::string &id);
    // Stops the running session (server shutdown).
    void shutdown();

private:
    struct Session;

    void run(const std::shared_ptr<Session> &session);
    std::shared_ptr<Session> findSession(const std::string &id) const;
    nlohmann::json startResult(const Session &session) const;
    void loadReports();
    void stopSession(const std::shared_ptr<Session> &session);

    const std::string m_dir;
    Sampler &m_sampler;
    ActivityEvents &m_events;
    mutable std::mutex m_mutex;
    std::shared_ptr<Session> m_current;
    // Sessions that ended, newest last, so export and idempotent starts can still name them.
    std::deque<std::shared_ptr<Session>> m_past;
    std::map<std::string, std::string> m_startKeys;
    std::map<std::string, std::string> m_exportKeys;
    std::map<std::string, ReportInfo> m_reports;
};

} // namespace sbx
