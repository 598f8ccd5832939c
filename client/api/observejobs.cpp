#include "client/api/observejobs.h"

#include "client/api/bashjobs.h"
#include "client/api/envelope.h"
#include "client/api/filetransfer.h"

#include <QCoreApplication>
#include <QUrl>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

const QString kBase = u"v1/sandbox/observe/"_s;

// Nullable numbers stay null: "no limit" and "0 bytes" are different answers.
std::optional<qint64> optInt(const json &j, const char *key) {
    const json &v = jsonChild(j, key);
    if (v.is_number_integer())
        return v.get<qint64>();
    if (v.is_number())
        return static_cast<qint64>(v.get<double>());
    return std::nullopt;
}

std::optional<double> optDouble(const json &j, const char *key) {
    const json &v = jsonChild(j, key);
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

QDateTime timeOf(const json &j, const char *key) {
    QDateTime t = QDateTime::fromString(jsonString(j, key), Qt::ISODateWithMs);
    // AIO writes naive UTC times as often as zoned ones.
    if (t.isValid() && t.timeSpec() == Qt::LocalTime)
        t.setTimeSpec(Qt::UTC);
    return t;
}

ApiRequest postObserve(const QString &what, const json &body) {
    return ApiRequest::postJson(kBase + what, QByteArray::fromStdString(body.dump()));
}

Status notAnObject(const QString &what) {
    return Status::error(
        Status::Kind::BadResponse,
        QCoreApplication::translate("sbx::ObserveJob", "%1: the reply had no data").arg(what));
}

} // namespace

bool isNoObserveApi(const Status &status) {
    return status.kind == Status::Kind::NotFound && status.httpStatus == 404;
}

ObserveSnapshot parseObserveSnapshot(const json &d) {
    ObserveSnapshot s;
    s.capturedAt = timeOf(d, "captured_at");
    s.mode = jsonString(d, "mode", u"off"_s);
    s.source = jsonString(d, "source");
    s.processCount = optInt(d, "process_count");
    const json &c = jsonChild(d, "cgroup");
    s.cpuPct = optDouble(c, "cpu_usage_pct");
    s.cpuUsageUsec = jsonInt(c, "cpu_usage_usec");
    s.cpuPeriods = optInt(c, "cpu_nr_periods");
    s.cpuThrottled = optInt(c, "cpu_nr_throttled");
    s.cpuThrottledUsec = optInt(c, "cpu_throttled_usec");
    s.memCurrentBytes = jsonInt(c, "mem_current_bytes");
    s.memMaxBytes = optInt(c, "mem_max_bytes");
    s.memUsagePct = optDouble(c, "mem_usage_pct");
    s.oom = optInt(c, "oom");
    s.oomKill = optInt(c, "oom_kill");
    for (const json &j : jsonChild(d, "disk")) {
        if (!j.is_object())
            continue;
        s.disks.append({jsonString(j, "path"), jsonInt(j, "used_bytes"), jsonInt(j, "total_bytes"),
                        jsonInt(j, "free_bytes"), jsonDouble(j, "usage_pct"),
                        optInt(j, "inode_used"), optInt(j, "inode_total"),
                        optDouble(j, "inode_usage_pct")});
    }
    for (const json &j : jsonChild(d, "top_processes")) {
        if (!j.is_object() || !jsonChild(j, "pid").is_number())
            continue;
        ObserveProcess p;
        p.pid = jsonInt(j, "pid");
        p.user = jsonString(j, "user");
        p.comm = jsonString(j, "comm");
        p.rssBytes = jsonInt(j, "rss_bytes");
        p.cpuPct = optDouble(j, "cpu_pct");
        if (auto v = optInt(j, "threads"))
            p.threads = static_cast<int>(*v);
        if (auto v = optInt(j, "fds"))
            p.fds = static_cast<int>(*v);
        p.state = jsonString(j, "state");
        p.uptimeSec = optDouble(j, "uptime_sec");
        p.ppid = optInt(j, "ppid");
        s.processes.append(std::move(p));
    }
    for (const json &j : jsonChild(d, "recent_events")) {
        if (j.is_object())
            s.events.append({timeOf(j, "ts"), jsonString(j, "type"), jsonString(j, "message")});
    }
    return s;
}

ObserveStatus parseObserveStatus(const json &d) {
    ObserveStatus s;
    s.mode = jsonString(d, "mode", s.mode);
    s.running = jsonBool(d, "running");
    s.sessionId = jsonString(d, "session_id");
    s.startedAt = timeOf(d, "started_at");
    s.endsAt = timeOf(d, "ends_at");
    s.lastSampleAt = timeOf(d, "last_sample_at");
    s.intervalSeconds = jsonDouble(d, "interval_seconds");
    s.reportCount = static_cast<int>(jsonInt(d, "report_count"));
    return s;
}

ObserveReport parseObserveReport(const json &d) {
    return {jsonString(d, "report_id"), jsonString(d, "session_id"), jsonString(d, "reason"),
            timeOf(d, "created_at"),    jsonString(d, "path"),       jsonInt(d, "size_bytes")};
}

ObserveJob::ObserveJob(SandboxClient *client, ApiRequest request)
    : ApiJob(client, std::move(request)) {}

Status ObserveJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    return parseData(envelope.data);
}

ObserveLiveJob::ObserveLiveJob(SandboxClient *client, int topRows, ObserveSort sort)
    : ObserveJob(client, [&] {
        ApiRequest r = ApiRequest::get(kBase + u"live"_s);
        r.query.addQueryItem(u"top_rows"_s, QString::number(topRows));
        r.query.addQueryItem(u"sort"_s, sort == ObserveSort::Cpu ? u"cpu"_s : u"rss"_s);
        r.timeoutMs = 10000;
        return r;
    }()) {}

Status ObserveLiveJob::parseData(const json &data) {
    if (!data.is_object() || !jsonChild(data, "cgroup").is_object())
        return notAnObject(what());
    m_snapshot = parseObserveSnapshot(data);
    return Status::success();
}

ObserveStatusJob::ObserveStatusJob(SandboxClient *client)
    : ObserveJob(client, ApiRequest::get(kBase + u"status"_s)) {}

ObserveStatusJob::ObserveStatusJob(SandboxClient *client, const ObserveStartRequest &start)
    : ObserveJob(client,
                 [&] {
                     json body{{"mode", start.mode.toStdString()},
                               {"interval_seconds", start.intervalSeconds}};
                     if (start.durationSeconds > 0)
                         body["duration_seconds"] = start.durationSeconds;
                     return postObserve(u"start"_s, body);
                 }())
    , m_started(true) {}

Status ObserveStatusJob::parseData(const json &data) {
    if (!data.is_object())
        return notAnObject(what());
    m_status = parseObserveStatus(data);
    // The start result has no `running`: the session it names runs.
    if (m_started)
        m_status.running = jsonBool(data, "running", true);
    return Status::success();
}

ObserveStopJob::ObserveStopJob(SandboxClient *client, const QString &sessionId)
    : ObserveJob(client,
                 postObserve(u"stop"_s, sessionId.isEmpty()
                                            ? json::object()
                                            : json{{"session_id", sessionId.toStdString()}})) {}

Status ObserveStopJob::parseData(const json &data) {
    if (!data.is_object())
        return notAnObject(what());
    m_result = {jsonString(data, "session_id"), jsonBool(data, "stopped"),
                jsonBool(data, "report_ready")};
    return Status::success();
}

ObserveReportJob::ObserveReportJob(SandboxClient *client, Kind kind, const QString &id)
    : ObserveJob(client, [&] {
        if (kind == Kind::Delete) {
            ApiRequest r = ApiRequest::get(kBase + u"reports/"_s +
                                           QString::fromLatin1(QUrl::toPercentEncoding(id)));
            r.verb = "DELETE";
            r.idempotent = false;
            return r;
        }
        json body{{"reason", "manual"}};
        if (!id.isEmpty())
            body["session_id"] = id.toStdString();
        return postObserve(u"export"_s, body);
    }()) {}

Status ObserveReportJob::parseData(const json &data) {
    if (!data.is_object())
        return notAnObject(what());
    m_report = parseObserveReport(data);
    return Status::success();
}

ObserveReportsJob::ObserveReportsJob(SandboxClient *client)
    : ObserveJob(client, ApiRequest::get(kBase + u"reports"_s)) {}

Status ObserveReportsJob::parseData(const json &data) {
    if (!data.is_array())
        return notAnObject(what());
    for (const json &j : data) {
        ObserveReport report = parseObserveReport(j);
        if (!report.id.isEmpty())
            m_reports.append(std::move(report));
    }
    return Status::success();
}

DownloadJob *makeReportDownloadJob(SandboxClient *client, const QString &reportId,
                                   const QString &localPath) {
    ApiRequest r = ApiRequest::get(kBase + u"reports/"_s +
                                   QString::fromLatin1(QUrl::toPercentEncoding(reportId)));
    return new DownloadJob(
        client, std::move(r),
        QCoreApplication::translate("sbx::ObserveJob", "report %1").arg(reportId), localPath);
}

BashExecJob *makeSignalProcessJob(SandboxClient *client, qint64 pid, const QString &signal) {
    static const QStringList allowed{u"TERM"_s, u"KILL"_s, u"INT"_s};
    if (!allowed.contains(signal) || pid <= 0)
        return nullptr;
    BashExecRequest request;
    request.command = u"kill -%1 %2"_s.arg(signal).arg(pid);
    request.asyncMode = false;
    return new BashExecJob(client, request);
}

} // namespace sbx
