#include "server/observe/capture.h"

#include "server/core/activityevents.h"
#include "server/core/jsonparse.h"
#include "server/observe/sampler.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <zlib.h>

namespace sbx {

namespace fs = std::filesystem;
using nlohmann::json;
using SystemClock = std::chrono::system_clock;

namespace {

// Ended sessions remembered for export and idempotent starts.
constexpr std::size_t kPastSessions = 32;
constexpr int kReportVersion = 1;

std::string randomId(std::string_view prefix) {
    static std::mutex mutex;
    static std::mt19937_64 engine{std::random_device{}()};
    std::uint64_t value = 0;
    {
        const std::lock_guard lock(mutex);
        value = engine();
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
    return std::string(prefix) + hex;
}

json timeOrNull(const std::optional<SystemClock::time_point> &when) {
    return when ? json(isoTime(*when)) : json(nullptr);
}

// Writes a gzip file by name; the destructor closes it if nobody did.
class GzipWriter final {
public:
    explicit GzipWriter(const std::string &path)
        : m_file(gzopen(path.c_str(), "wb6")) {}
    ~GzipWriter() { close(); }
    GzipWriter(const GzipWriter &) = delete;
    GzipWriter &operator=(const GzipWriter &) = delete;

    bool ok() const { return m_file && m_ok; }
    void write(std::string_view bytes) {
        if (!m_file || bytes.empty())
            return;
        m_ok = m_ok && gzwrite(m_file, bytes.data(), static_cast<unsigned>(bytes.size())) ==
                           static_cast<int>(bytes.size());
    }
    // One line {"type":TYPE, ...fields}, the type first so a reader can dispatch on a prefix.
    void line(std::string_view type, const json &fields) {
        const std::string text = fields.dump(-1, ' ', false, json::error_handler_t::replace);
        write(R"({"type":")");
        write(type);
        write(text.size() > 2 ? "\"," : "\"");
        write(std::string_view(text).substr(1));
        write("\n");
    }
    bool close() {
        if (m_file) {
            m_ok = gzclose(m_file) == Z_OK && m_ok;
            m_file = nullptr;
        }
        return m_ok;
    }

private:
    gzFile m_file;
    bool m_ok = true;
};

bool writeFileAtomically(const std::string &path, const std::string &text) {
    const std::string temp = path + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush())
            return false;
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    return !ec;
}

} // namespace

struct Capture::Session {
    std::string id;
    std::string mode;
    std::optional<std::string> key;
    SystemClock::time_point startedAt;
    std::optional<SystemClock::time_point> endsAt;
    double interval = 1.0;
    bool processes = true;
    bool disk = true;
    std::string dir;
    std::size_t eventsAtStart = 0;

    std::mutex mutex;
    std::condition_variable wake;
    bool stopRequested = false;
    bool running = true;
    std::optional<SystemClock::time_point> lastSampleAt;
    std::optional<SystemClock::time_point> endedAt;
    std::size_t samples = 0;
    // Bytes of whole lines in samples.jsonl: what an export may read while the session runs.
    std::uint64_t bytes = 0;
    json lastSample;
    std::thread thread;
};

bool isSafeId(std::string_view id) {
    if (id.empty() || id.size() > 64)
        return false;
    for (const char c : id) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!safe)
            return false;
    }
    return true;
}

json ReportInfo::toJson() const {
    json out = json::object();
    out["report_id"] = id;
    out["session_id"] = sessionId ? json(*sessionId) : json(nullptr);
    out["reason"] = reason;
    out["created_at"] = createdAt;
    out["path"] = path;
    out["size_bytes"] = sizeBytes;
    return out;
}

Capture::Capture(std::string dir, Sampler &sampler, ActivityEvents &events)
    : m_dir(std::move(dir))
    , m_sampler(sampler)
    , m_events(events) {
    std::error_code ec;
    fs::create_directories(m_dir + "/reports", ec);
    loadReports();
}

Capture::~Capture() {
    shutdown();
}

void Capture::loadReports() {
    std::error_code ec;
    for (fs::directory_iterator it(m_dir + "/reports", ec), end; !ec && it != end;
         it.increment(ec)) {
        const fs::path path = it->path();
        if (path.extension() != ".json")
            continue;
        const auto text = [&path]() -> std::string {
            std::ifstream in(path, std::ios::binary);
            return {std::istreambuf_iterator<char>(in), {}};
        }();
        const JsonParse parsed = parseJson(text);
        const json &meta = parsed.value;
        if (!parsed.ok() || !meta.is_object() || !meta.value("report_id", json()).is_string())
            continue;
        ReportInfo info;
        info.id = meta["report_id"].get<std::string>();
        if (!isSafeId(info.id) || path.stem() != info.id)
            continue;
        info.path = m_dir + "/reports/" + info.id + ".jsonl.gz";
        if (!fs::is_regular_file(info.path, ec))
            continue;
        info.sizeBytes = fs::file_size(info.path, ec);
        if (meta.value("session_id", json()).is_string())
            info.sessionId = meta["session_id"].get<std::string>();
        info.reason = meta.value("reason", json("manual")).is_string()
                          ? meta.value("reason", std::string("manual"))
                          : "manual";
        info.createdAt = meta.value("created_at", json("")).is_string()
                             ? meta.value("created_at", std::string())
                             : "";
        m_reports[info.id] = info;
    }
}

std::string Capture::mode() const {
    const std::lock_guard lock(m_mutex);
    if (!m_current)
        return "off";
    const std::lock_guard sessionLock(m_current->mutex);
    return m_current->running ? m_current->mode : "off";
}

json Capture::startResult(const Session &session) const {
    json out = json::object();
    out["session_id"] = session.id;
    out["mode"] = session.mode;
    out["started_at"] = isoTime(session.startedAt);
    out["ends_at"] = timeOrNull(session.endsAt);
    out["interval_seconds"] = session.interval;
    out["runtime_dir"] = session.dir;
    return out;
}

json Capture::status() const {
    std::shared_ptr<Session> session;
    std::size_t reports = 0;
    {
        const std::lock_guard lock(m_mutex);
        session = m_current ? m_current : (m_past.empty() ? nullptr : m_past.back());
        reports = m_reports.size();
    }
    json out = json::object();
    out["mode"] = "off";
    out["running"] = false;
    out["session_id"] = nullptr;
    out["started_at"] = nullptr;
    out["ends_at"] = nullptr;
    out["interval_seconds"] = nullptr;
    out["last_sample_at"] = nullptr;
    out["runtime_dir"] = m_dir;
    out["report_count"] = reports;
    if (session) {
        const std::lock_guard lock(session->mutex);
        out["mode"] = session->running ? session->mode : "off";
        out["running"] = session->running;
        out["session_id"] = session->id;
        out["started_at"] = isoTime(session->startedAt);
        out["ends_at"] = timeOrNull(session->endsAt);
        out["interval_seconds"] = session->interval;
        out["last_sample_at"] = timeOrNull(session->lastSampleAt);
        out["runtime_dir"] = session->dir;
        // Beyond AIO's model: how much the session holds.
        out["sample_count"] = session->samples;
    }
    return out;
}

std::shared_ptr<Capture::Session> Capture::findSession(const std::string &id) const {
    if (m_current && m_current->id == id)
        return m_current;
    for (const auto &session : m_past) {
        if (session->id == id)
            return session;
    }
    return nullptr;
}

CaptureOutcome Capture::start(const StartRequest &request) {
    std::shared_ptr<Session> finished;
    std::shared_ptr<Session> session;
    {
        const std::lock_guard lock(m_mutex);
        if (request.idempotencyKey) {
            const auto it = m_startKeys.find(*request.idempotencyKey);
            if (it != m_startKeys.end()) {
                if (auto known = findSession(it->second))
                    return {200, "Observation session for this idempotency key",
                            startResult(*known)};
            }
        }
        if (m_current) {
            const std::lock_guard sessionLock(m_current->mutex);
            if (m_current->running)
                return {200, "Observation already running", startResult(*m_current)};
        }
        finished = std::move(m_current);
        if (finished) {
            m_past.push_back(finished);
            if (m_past.size() > kPastSessions)
                m_past.pop_front();
        }
        session = std::make_shared<Session>();
        session->id = randomId("obs_");
        session->mode = request.mode;
        session->key = request.idempotencyKey;
        session->startedAt = SystemClock::now();
        if (request.durationSeconds)
            session->endsAt =
                session->startedAt + std::chrono::duration_cast<SystemClock::duration>(
                                         std::chrono::duration<double>(*request.durationSeconds));
        session->interval = request.intervalSeconds;
        session->processes = request.processes;
        session->disk = request.disk;
        session->dir = m_dir + "/" + session->id;
        session->eventsAtStart = m_events.total();
        std::error_code ec;
        fs::create_directories(session->dir, ec);
        if (ec)
            return {500, "Cannot create " + session->dir + ": " + ec.message(), nullptr};
        if (request.idempotencyKey)
            m_startKeys[*request.idempotencyKey] = session->id;
        m_current = session;
        session->thread = std::thread([this, session] { run(session); });
    }
    if (finished)
        stopSession(finished);
    return {200, "Observation started", startResult(*session)};
}

void Capture::run(const std::shared_ptr<Session> &session) {
    const bool capture = session->mode == "capture";
    std::FILE *file =
        capture ? std::fopen((session->dir + "/samples.jsonl").c_str(), "ab") : nullptr;
    if (capture && !file)
        m_events.post("observe_error", "cannot write the samples of " + session->id,
                      {{"session_id", session->id}});
    SnapshotRequest request;
    request.processes = session->processes;
    request.disk = session->disk;
    request.events = 0;
    const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(session->interval));
    auto next = std::chrono::steady_clock::now();
    bool memoryHigh = false;
    bool diskHigh = false;
    for (;;) {
        json sample = m_sampler.snapshot(request, session->mode);
        const std::string line = sample.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        bool capped = false;
        if (file) {
            capped = session->bytes + line.size() > kMaxSamplesBytes;
            if (!capped && (std::fwrite(line.data(), 1, line.size(), file) != line.size() ||
                            std::fflush(file) != 0)) {
                m_events.post("observe_error", "writing samples failed",
                              {{"session_id", session->id}});
                capped = true;
            }
        }
        // Guardrail thresholds, posted once per crossing.
        const json &memPct = sample["cgroup"]["mem_usage_pct"];
        const bool memNow = memPct.is_number() && memPct.get<double>() >= 90.0;
        if (memNow && !memoryHigh)
            m_events.post("memory_high", "sandbox memory at 90 % of its limit or more",
                          {{"mem_usage_pct", memPct}});
        memoryHigh = memNow;
        const json disk = sample.value("disk", json::array());
        const bool diskNow = !disk.empty() && disk[0].value("usage_pct", 0.0) >= 95.0;
        if (diskNow && !diskHigh)
            m_events.post(
                "disk_high", "workspace disk 95 % full or more",
                {{"path", disk[0].value("path", "")}, {"usage_pct", disk[0]["usage_pct"]}});
        diskHigh = diskNow;

        std::unique_lock lock(session->mutex);
        session->lastSampleAt = SystemClock::now();
        session->lastSample = std::move(sample);
        if (file && !capped) {
            session->bytes += line.size();
            ++session->samples;
        } else if (!file) {
            session->samples = 1;
        }
        if (capped) {
            m_events.post("observe_capped", "observation stopped: its samples reached the cap",
                          {{"session_id", session->id}, {"max_bytes", kMaxSamplesBytes}});
            break;
        }
        next += interval;
        const auto now = std::chrono::steady_clock::now();
        if (next < now)
            next = now; // a slow scan does not cause a burst to catch up
        auto deadline = next;
        if (session->endsAt) {
            const auto left = *session->endsAt - SystemClock::now();
            deadline = std::min(
                deadline,
                now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(left));
        }
        session->wake.wait_until(lock, deadline, [&session] { return session->stopRequested; });
        if (session->stopRequested || (session->endsAt && SystemClock::now() >= *session->endsAt))
            break;
    }
    if (file)
        std::fclose(file);
    const std::lock_guard lock(session->mutex);
    session->running = false;
    session->endedAt = SystemClock::now();
}

void Capture::stopSession(const std::shared_ptr<Session> &session) {
    std::thread thread;
    {
        const std::lock_guard lock(session->mutex);
        session->stopRequested = true;
        thread = std::move(session->thread);
    }
    session->wake.notify_all();
    if (thread.joinable())
        thread.join();
}

CaptureOutcome Capture::stop(const std::optional<std::string> &sessionId) {
    std::shared_ptr<Session> session;
    {
        const std::lock_guard lock(m_mutex);
        session = sessionId ? findSession(*sessionId) : m_current;
        if (!session && sessionId)
            return {404, "Observation session " + *sessionId + " not found", nullptr};
    }
    json out = json::object();
    if (!session) {
        out["session_id"] = nullptr;
        out["stopped"] = false;
        out["report_ready"] = false;
        return {200, "No observation session", out};
    }
    bool wasRunning = false;
    {
        const std::lock_guard lock(session->mutex);
        wasRunning = session->running;
    }
    stopSession(session);
    const std::lock_guard lock(session->mutex);
    out["session_id"] = session->id;
    out["stopped"] = wasRunning;
    // What an export of it would hold: at least one sample.
    out["report_ready"] = session->samples > 0;
    return {200, wasRunning ? "Observation stopped" : "Observation was not running", out};
}

CaptureOutcome Capture::exportReport(const ExportRequest &request) {
    std::shared_ptr<Session> session;
    {
        const std::lock_guard lock(m_mutex);
        if (request.idempotencyKey) {
            const auto it = m_exportKeys.find(*request.idempotencyKey);
            if (it != m_exportKeys.end()) {
                if (const auto known = m_reports.find(it->second); known != m_reports.end())
                    return {200, "Report for this idempotency key", known->second.toJson()};
            }
        }
        if (request.sessionId) {
            session = findSession(*request.sessionId);
            if (!session)
                return {404, "Observation session " + *request.sessionId + " not found", nullptr};
        } else {
            session = m_current ? m_current : (m_past.empty() ? nullptr : m_past.back());
        }
    }

    ReportInfo info;
    info.id = randomId("rpt_");
    info.reason = request.reason;
    info.createdAt = isoTime(SystemClock::now());
    info.path = m_dir + "/reports/" + info.id + ".jsonl.gz";
    const std::string temp = info.path + ".tmp";
    GzipWriter out(temp);
    json header = json::object();
    header["version"] = kReportVersion;
    header["reason"] = request.reason;
    header["created_at"] = info.createdAt;
    header["source"] = m_sampler.sourceName();
    std::vector<ActivityEvent> events;
    if (session) {
        info.sessionId = session->id;
        std::uint64_t bytes = 0;
        json lastSample;
        {
            const std::lock_guard lock(session->mutex);
            header["session_id"] = session->id;
            header["interval_seconds"] = session->interval;
            header["mode"] = session->mode;
            header["started_at"] = isoTime(session->startedAt);
            header["ended_at"] = timeOrNull(session->endedAt);
            header["sample_count"] = session->samples;
            bytes = session->bytes;
            if (session->mode != "capture")
                lastSample = session->lastSample;
        }
        out.line("report", header);
        if (bytes > 0) {
            // Whole lines only, read in pieces: memory stays flat whatever the session's size.
            std::ifstream in(session->dir + "/samples.jsonl", std::ios::binary);
            std::string line;
            std::uint64_t read = 0;
            while (read < bytes && std::getline(in, line)) {
                read += line.size() + 1;
                if (line.size() < 2 || line.front() != '{')
                    continue;
                out.write(R"({"type":"sample",)");
                out.write(std::string_view(line).substr(1));
                out.write("\n");
            }
        } else if (lastSample.is_object()) {
            out.line("sample", lastSample);
        }
        events = m_events.since(session->eventsAtStart);
    } else {
        header["session_id"] = nullptr;
        header["interval_seconds"] = nullptr;
        header["mode"] = "off";
        header["sample_count"] = 1;
        out.line("report", header);
        SnapshotRequest live;
        live.events = 0;
        out.line("sample", m_sampler.snapshot(live, "off"));
        events = m_events.recent(static_cast<std::size_t>(-1));
    }
    for (const ActivityEvent &event : events) {
        // The line's `type` is "event": the event's own type moves to `event_type`.
        json fields = ActivityEvents::toJson(event);
        fields["event_type"] = std::move(fields["type"]);
        fields.erase("type");
        out.line("event", fields);
    }
    std::error_code ec;
    if (!out.close()) {
        fs::remove(temp, ec);
        return {500, "Writing the report failed", nullptr};
    }
    fs::rename(temp, info.path, ec);
    info.sizeBytes = ec ? 0 : fs::file_size(info.path, ec);
    if (ec) {
        fs::remove(temp, ec);
        return {500, "Writing the report failed", nullptr};
    }
    json meta = info.toJson();
    meta.erase("path");
    meta.erase("size_bytes");
    writeFileAtomically(m_dir + "/reports/" + info.id + ".json", meta.dump());
    const std::lock_guard lock(m_mutex);
    m_reports[info.id] = info;
    if (request.idempotencyKey)
        m_exportKeys[*request.idempotencyKey] = info.id;
    return {200, "Report exported", info.toJson()};
}

json Capture::reports() const {
    const std::lock_guard lock(m_mutex);
    std::vector<const ReportInfo *> sorted;
    for (const auto &[id, info] : m_reports)
        sorted.push_back(&info);
    std::sort(sorted.begin(), sorted.end(), [](const ReportInfo *a, const ReportInfo *b) {
        return a->createdAt != b->createdAt ? a->createdAt < b->createdAt : a->id < b->id;
    });
    json list = json::array();
    for (const ReportInfo *info : sorted)
        list.push_back(info->toJson());
    return list;
}

std::optional<ReportInfo> Capture::report(const std::string &id) const {
    const std::lock_guard lock(m_mutex);
    const auto it = m_reports.find(id);
    return it == m_reports.end() ? std::nullopt : std::optional<ReportInfo>(it->second);
}

std::optional<ReportInfo> Capture::removeReport(const std::string &id) {
    ReportInfo info;
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_reports.find(id);
        if (it == m_reports.end())
            return std::nullopt;
        info = it->second;
        m_reports.erase(it);
    }
    std::error_code ec;
    fs::remove(info.path, ec);
    fs::remove(m_dir + "/reports/" + id + ".json", ec);
    return info;
}

void Capture::shutdown() {
    std::shared_ptr<Session> session;
    {
        const std::lock_guard lock(m_mutex);
        session = m_current;
    }
    if (session)
        stopSession(session);
}

} // namespace sbx
