// AIO's observe group (/v1/sandbox/observe/*) on a real sandbox-server: the live snapshot's
// fields and types, a sandbox process's memory and CPU as the snapshot shows them, the
// start/status/stop/export/reports/download/delete cycle with idempotency keys, the report's
// gzip JSON-lines format, the source rule, and refusals of bad input.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTest>

#include <sys/stat.h>
#include <sys/vfs.h>
#include <zlib.h>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

// The server's own rule for "auto" (server/observe/cgroupstats.h), as seen from here: the
// cgroup only at the root of a non-initial cgroup namespace with cgroup v2 mounted.
QString expectedSource() {
    struct statfs fs {};
    const bool v2 = statfs("/sys/fs/cgroup", &fs) == 0 && fs.f_type == 0x63677270;
    QFile self(u"/proc/self/cgroup"_s);
    const bool root =
        self.open(QIODevice::ReadOnly) && self.readAll().split('\n').contains(QByteArray("0::/"));
    struct stat ns {};
    const bool initial = stat("/proc/self/ns/cgroup", &ns) != 0 || ns.st_ino == 0xEFFFFFFBU;
    const bool memory = QFile::exists(u"/sys/fs/cgroup/memory.current"_s);
    return v2 && root && !initial && memory ? u"cgroup"_s : u"process_tree"_s;
}

QByteArray gunzip(const QByteArray &bytes) {
    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out;
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    char buffer[65536];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef *>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, static_cast<qsizetype>(sizeof buffer - stream.avail_out));
    }
    inflateEnd(&stream);
    return status == Z_STREAM_END ? out : QByteArray();
}

QString python() {
    for (const QString &path : {u"/usr/bin/python3"_s, u"/usr/local/bin/python3"_s}) {
        if (QFileInfo(path).isExecutable())
            return path;
    }
    return QStandardPaths::findExecutable(u"python3"_s);
}

} // namespace

class TestServerObserve final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void liveHasEveryField();
    void sourceFollowsTheRule();
    void allocationShowsInTopProcessesAndMemory();
    void busyLoopShowsInCpu();
    void captureCycle();
    void idempotentStartAndExport();
    void durationEndsTheSession();
    void guardrailExportsItsLastSample();
    void exportWithoutSession();
    void badInputIsRefused();
    void unknownReportsAre404();
    void forcedSources();
    void routesAreListed();

private:
    HttpResult get(const QString &path, const QString &query = {}) {
        return request("GET", m_server.url(path, query));
    }
    QJsonObject getData(const QString &path, const QString &query = {}) {
        const HttpResult result = get(path, query);
        if (result.status != 200)
            qWarning() << path << result.status << result.body;
        return result.json()[u"data"_s].toObject();
    }
    HttpResult post(const QString &path, const QByteArray &body, TestServer *server = nullptr) {
        return request("POST", (server ? server : &m_server)->url(path),
                       {{"Content-Type", "application/json"}}, body);
    }
    QJsonObject postData(const QString &path, const QJsonObject &body,
                         TestServer *server = nullptr) {
        const HttpResult result =
            post(path, QJsonDocument(body).toJson(QJsonDocument::Compact), server);
        if (result.status != 200)
            qWarning() << path << result.status << result.body;
        return result.json()[u"data"_s].toObject();
    }
    // Runs command in a new shell session without waiting; returns the session id.
    QString runAsync(const QString &command) {
        const QJsonObject data =
            postData(u"/v1/shell/exec"_s, {{u"command"_s, command}, {u"async_mode"_s, true}});
        return data[u"session_id"_s].toString();
    }
    void endSession(const QString &id) {
        if (!id.isEmpty())
            request("DELETE", m_server.url(u"/v1/shell/sessions/"_s + id));
    }
    QJsonObject live(const QString &query = {}) {
        return getData(u"/v1/sandbox/observe/live"_s, query);
    }
    // The report's lines, parsed; empty on any failure.
    QList<QJsonObject> downloadReport(const QString &id) {
        const HttpResult result = get(u"/v1/sandbox/observe/reports/"_s + id);
        if (result.status != 200 || result.header("Content-Type") != "application/gzip")
            return {};
        const QByteArray text = gunzip(result.body);
        QList<QJsonObject> lines;
        for (const QByteArray &line : text.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error{};
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject())
                return {};
            lines << doc.object();
        }
        return lines;
    }

    TestServer m_server;
};

void TestServerObserve::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestServerObserve::liveHasEveryField() {
    const HttpResult result = get(u"/v1/sandbox/observe/live"_s, u"top_rows=10"_s);
    QCOMPARE(result.status, 200);
    const QJsonObject envelope = result.json();
    QCOMPARE(envelope[u"success"_s], QJsonValue(true));
    const QJsonObject data = envelope[u"data"_s].toObject();
    QVERIFY(QDateTime::fromString(data[u"captured_at"_s].toString(), Qt::ISODateWithMs).isValid());
    QVERIFY(
        QStringList({u"off"_s, u"guardrail"_s, u"capture"_s}).contains(data[u"mode"_s].toString()));
    QVERIFY(data[u"source"_s].isString());
    QVERIFY(data[u"process_count"_s].isDouble());

    const QJsonObject cgroup = data[u"cgroup"_s].toObject();
    for (const char *integer : {"cpu_usage_usec", "mem_current_bytes"})
        QVERIFY2(cgroup[QLatin1String(integer)].isDouble(), integer);
    for (const char *nullable :
         {"cpu_usage_pct", "cpu_nr_periods", "cpu_nr_throttled", "cpu_throttled_usec",
          "mem_max_bytes", "mem_usage_pct", "oom", "oom_kill", "memory_anon_bytes",
          "memory_file_bytes", "memory_shmem_bytes", "memory_slab_bytes"}) {
        const QJsonValue value = cgroup[QLatin1String(nullable)];
        QVERIFY2(value.isDouble() || value.isNull(), nullable);
        QVERIFY2(!value.isUndefined(), nullable);
    }

    const QJsonArray disks = data[u"disk"_s].toArray();
    QCOMPARE(disks.size(), 1);
    const QJsonObject disk = disks[0].toObject();
    QCOMPARE(disk[u"path"_s].toString(), QDir(m_server.workspace()).canonicalPath());
    for (const char *field : {"used_bytes", "total_bytes", "free_bytes", "usage_pct"})
        QVERIFY2(disk[QLatin1String(field)].isDouble(), field);
    QVERIFY(disk[u"total_bytes"_s].toDouble() > 0);
    for (const char *field : {"inode_used", "inode_total", "inode_usage_pct"})
        QVERIFY2(disk[QLatin1String(field)].isDouble() || disk[QLatin1String(field)].isNull(),
                 field);

    QVERIFY(data[u"top_processes"_s].isArray());
    QVERIFY(data[u"recent_events"_s].isArray());

    // With a process in the sandbox, a row has every field of ObservationProcessSnapshot.
    const QString marker = m_server.workspace() + u"/sleeping"_s;
    const QString session = runAsync(u"touch '"_s + marker + u"'; sleep 60"_s);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 15000);
    QJsonArray rows;
    QTRY_VERIFY_WITH_TIMEOUT(
        !(rows = live(u"top_rows=10"_s)[u"top_processes"_s].toArray()).isEmpty(), 10000);
    const QJsonObject row = rows[0].toObject();
    for (const char *field : {"pid", "rss_bytes", "rss_mib", "threads", "ppid", "uptime_sec"})
        QVERIFY2(row[QLatin1String(field)].isDouble(), field);
    for (const char *field : {"user", "comm", "state"})
        QVERIFY2(row[QLatin1String(field)].isString(), field);
    QVERIFY(row[u"fds"_s].isDouble() || row[u"fds"_s].isNull());
    QVERIFY(row[u"cpu_pct"_s].isDouble() || row[u"cpu_pct"_s].isNull());
    QVERIFY(live(u"top_rows=1"_s)[u"top_processes"_s].toArray().size() == 1);
    QVERIFY(live(u"top_rows=0"_s)[u"top_processes"_s].toArray().isEmpty());
    // The server itself is not a sandbox process.
    for (const auto &value : live(u"top_rows=1000"_s)[u"top_processes"_s].toArray())
        QVERIFY(value[u"pid"_s].toInt() != m_server.process().processId());
    endSession(session);
}

void TestServerObserve::sourceFollowsTheRule() {
    QCOMPARE(live()[u"source"_s].toString(), expectedSource());
}

void TestServerObserve::allocationShowsInTopProcessesAndMemory() {
    const QString interpreter = python();
    if (interpreter.isEmpty())
        QSKIP("python3 is not installed: no program to allocate 300 MB with");
    const QString marker = m_server.workspace() + u"/allocated"_s;
    // Bytes written, not just reserved, so that every page is resident.
    const QString session = runAsync(interpreter +
                                     u" -c \"b=bytearray(b'x')*(300*1024*1024); import time; "
                                     u"open('"_s +
                                     marker + u"','w').close(); time.sleep(60)\""_s);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
    const QJsonObject data = live(u"top_rows=5&sort=rss"_s);
    const QJsonObject top = data[u"top_processes"_s].toArray().first().toObject();
    QVERIFY2(top[u"rss_bytes"_s].toDouble() >= 300.0 * kMiB,
             QJsonDocument(top).toJson().constData());
    QVERIFY(top[u"rss_mib"_s].toDouble() >= 300.0);
    QVERIFY(top[u"comm"_s].toString().startsWith(u"python"_s));
    QVERIFY(data[u"cgroup"_s][u"mem_current_bytes"_s].toDouble() >= 300.0 * kMiB);
    endSession(session);
    // The session's end kills it, and the figures drop with it.
    QTRY_VERIFY_WITH_TIMEOUT(live()[u"cgroup"_s][u"mem_current_bytes"_s].toDouble() < 300.0 * kMiB,
                             15000);
}

void TestServerObserve::busyLoopShowsInCpu() {
    const QString marker = m_server.workspace() + u"/spinning"_s;
    const QString session = runAsync(u"sh -c 'touch \""_s + marker + u"\"; while :; do :; done'"_s);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 15000);
    // A shared machine may steal a moment; one window above 50 % shows the figure is real.
    const auto spinning = [this] {
        const QJsonObject data = live(u"top_rows=1&sort=cpu"_s);
        const QJsonObject top = data[u"top_processes"_s].toArray().first().toObject();
        return top[u"comm"_s].toString() == u"sh"_s && top[u"cpu_pct"_s].toDouble() > 50.0 &&
               data[u"cgroup"_s][u"cpu_usage_pct"_s].toDouble() > 50.0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(spinning(), 20000);
    endSession(session);
}

void TestServerObserve::captureCycle() {
    QCOMPARE(getData(u"/v1/sandbox/observe/status"_s)[u"running"_s], QJsonValue(false));
    const QJsonObject started =
        postData(u"/v1/sandbox/observe/start"_s, {{u"interval_seconds"_s, 0.2}});
    const QString id = started[u"session_id"_s].toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(started[u"mode"_s].toString(), u"capture"_s);
    QCOMPARE(started[u"interval_seconds"_s].toDouble(), 0.2);
    QVERIFY(started[u"ends_at"_s].isNull());
    QVERIFY(started[u"started_at"_s].isString());
    QVERIFY(started[u"runtime_dir"_s].toString().endsWith(id));

    // A second start while one runs returns the running one.
    QCOMPARE(
        postData(u"/v1/sandbox/observe/start"_s, {{u"mode"_s, u"guardrail"_s}})[u"session_id"_s]
            .toString(),
        id);
    QCOMPARE(live()[u"mode"_s].toString(), u"capture"_s);
    QJsonObject status;
    QTRY_VERIFY_WITH_TIMEOUT(
        (status = getData(u"/v1/sandbox/observe/status"_s))[u"sample_count"_s].toInt() >= 3, 15000);
    QCOMPARE(status[u"mode"_s].toString(), u"capture"_s);
    QCOMPARE(status[u"running"_s], QJsonValue(true));
    QCOMPARE(status[u"session_id"_s].toString(), id);
    QVERIFY(status[u"last_sample_at"_s].isString());
    QVERIFY(status[u"report_count"_s].isDouble());
    QVERIFY(QFile::exists(status[u"runtime_dir"_s].toString() + u"/samples.jsonl"_s));

    const QJsonObject stopped = postData(u"/v1/sandbox/observe/stop"_s, {});
    QCOMPARE(stopped[u"session_id"_s].toString(), id);
    QCOMPARE(stopped[u"stopped"_s], QJsonValue(true));
    QCOMPARE(stopped[u"report_ready"_s], QJsonValue(true));
    status = getData(u"/v1/sandbox/observe/status"_s);
    QCOMPARE(status[u"running"_s], QJsonValue(false));
    QCOMPARE(status[u"mode"_s].toString(), u"off"_s);
    const int reportsBefore = status[u"report_count"_s].toInt();

    const QJsonObject exported =
        postData(u"/v1/sandbox/observe/export"_s, {{u"reason"_s, u"manual"_s}});
    const QString report = exported[u"report_id"_s].toString();
    QVERIFY(!report.isEmpty());
    QCOMPARE(exported[u"session_id"_s].toString(), id);
    QCOMPARE(exported[u"reason"_s].toString(), u"manual"_s);
    QVERIFY(exported[u"created_at"_s].isString());
    QVERIFY(QFile::exists(exported[u"path"_s].toString()));
    QCOMPARE(exported[u"size_bytes"_s].toInteger(),
             QFileInfo(exported[u"path"_s].toString()).size());
    QCOMPARE(getData(u"/v1/sandbox/observe/status"_s)[u"report_count"_s].toInt(),
             reportsBefore + 1);

    const HttpResult list = get(u"/v1/sandbox/observe/reports"_s);
    QCOMPARE(list.status, 200);
    bool listed = false;
    for (const auto &value : list.json()[u"data"_s].toArray())
        listed = listed || value.toObject() == exported;
    QVERIFY(listed);

    const QList<QJsonObject> lines = downloadReport(report);
    QVERIFY(lines.size() >= 4);
    const QJsonObject header = lines.first();
    QCOMPARE(header[u"type"_s].toString(), u"report"_s);
    QCOMPARE(header[u"version"_s].toInt(), 1);
    QCOMPARE(header[u"session_id"_s].toString(), id);
    QCOMPARE(header[u"reason"_s].toString(), u"manual"_s);
    QVERIFY(header[u"created_at"_s].isString());
    QCOMPARE(header[u"interval_seconds"_s].toDouble(), 0.2);
    QCOMPARE(header[u"source"_s].toString(), expectedSource());
    int samples = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString type = lines[i][u"type"_s].toString();
        QVERIFY2(type == u"sample"_s || type == u"event"_s, qPrintable(type));
        if (type == u"event"_s)
            QVERIFY(lines[i][u"event_type"_s].isString() && lines[i][u"ts"_s].isString());
        if (type == u"sample"_s) {
            ++samples;
            QVERIFY(lines[i][u"cgroup"_s].isObject());
            QVERIFY(lines[i][u"captured_at"_s].isString());
            QCOMPARE(lines[i][u"mode"_s].toString(), u"capture"_s);
        }
    }
    QVERIFY(samples >= 3);
    QCOMPARE(samples, header[u"sample_count"_s].toInt());

    const HttpResult removed =
        request("DELETE", m_server.url(u"/v1/sandbox/observe/reports/"_s + report));
    QCOMPARE(removed.status, 200);
    QCOMPARE(removed.json()[u"data"_s].toObject(), exported);
    QVERIFY(!QFile::exists(exported[u"path"_s].toString()));
    QCOMPARE(get(u"/v1/sandbox/observe/reports/"_s + report).status, 404);
    QCOMPARE(request("DELETE", m_server.url(u"/v1/sandbox/observe/reports/"_s + report)).status,
             404);
    // Stopping again: nothing was running.
    QCOMPARE(postData(u"/v1/sandbox/observe/stop"_s, {{u"session_id"_s, id}})[u"stopped"_s],
             QJsonValue(false));
}

void TestServerObserve::idempotentStartAndExport() {
    const QJsonObject body{{u"idempotency_key"_s, u"start-key-1"_s}, {u"interval_seconds"_s, 0.5}};
    const QString id = postData(u"/v1/sandbox/observe/start"_s, body)[u"session_id"_s].toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(postData(u"/v1/sandbox/observe/start"_s, body)[u"session_id"_s].toString(), id);
    postData(u"/v1/sandbox/observe/stop"_s, {{u"session_id"_s, id}});
    // The key still names the stopped session; a new start without it makes a new one.
    QCOMPARE(postData(u"/v1/sandbox/observe/start"_s, body)[u"session_id"_s].toString(), id);
    const QString other = postData(u"/v1/sandbox/observe/start"_s, {})[u"session_id"_s].toString();
    QVERIFY(!other.isEmpty() && other != id);
    postData(u"/v1/sandbox/observe/stop"_s, {});

    const QJsonObject exportBody{{u"idempotency_key"_s, u"export-key-1"_s}, {u"session_id"_s, id}};
    const QJsonObject first = postData(u"/v1/sandbox/observe/export"_s, exportBody);
    QCOMPARE(first[u"session_id"_s].toString(), id);
    QCOMPARE(postData(u"/v1/sandbox/observe/export"_s, exportBody), first);
    const QJsonObject fresh = postData(u"/v1/sandbox/observe/export"_s, {{u"session_id"_s, id}});
    QVERIFY(fresh[u"report_id"_s].toString() != first[u"report_id"_s].toString());
}

void TestServerObserve::durationEndsTheSession() {
    const QJsonObject started =
        postData(u"/v1/sandbox/observe/start"_s,
                 {{u"duration_seconds"_s, 0.6}, {u"interval_seconds"_s, 0.2}});
    QVERIFY(started[u"ends_at"_s].isString());
    QTRY_COMPARE_WITH_TIMEOUT(getData(u"/v1/sandbox/observe/status"_s)[u"running"_s],
                              QJsonValue(false), 10000);
    const QJsonObject status = getData(u"/v1/sandbox/observe/status"_s);
    QCOMPARE(status[u"session_id"_s], started[u"session_id"_s]);
    QVERIFY(status[u"sample_count"_s].toInt() >= 2);
}

void TestServerObserve::guardrailExportsItsLastSample() {
    const QString id =
        postData(u"/v1/sandbox/observe/start"_s,
                 {{u"mode"_s, u"guardrail"_s}, {u"interval_seconds"_s, 0.2}})[u"session_id"_s]
            .toString();
    QCOMPARE(live()[u"mode"_s].toString(), u"guardrail"_s);
    QTRY_VERIFY_WITH_TIMEOUT(
        getData(u"/v1/sandbox/observe/status"_s)[u"last_sample_at"_s].isString(), 10000);
    postData(u"/v1/sandbox/observe/stop"_s, {});
    const QJsonObject exported = postData(u"/v1/sandbox/observe/export"_s, {{u"session_id"_s, id}});
    const QList<QJsonObject> lines = downloadReport(exported[u"report_id"_s].toString());
    QVERIFY(lines.size() >= 2);
    QCOMPARE(lines[0][u"mode"_s].toString(), u"guardrail"_s);
    QCOMPARE(lines[1][u"type"_s].toString(), u"sample"_s);
}

void TestServerObserve::exportWithoutSession() {
    TestServer fresh;
    QVERIFY2(fresh.start(), qPrintable(fresh.error()));
    const QJsonObject exported = postData(u"/v1/sandbox/observe/export"_s, {}, &fresh);
    QVERIFY(exported[u"session_id"_s].isNull());
    const HttpResult result = request(
        "GET", fresh.url(u"/v1/sandbox/observe/reports/"_s + exported[u"report_id"_s].toString()));
    QCOMPARE(result.status, 200);
    const QList<QByteArray> lines = gunzip(result.body).trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith(R"({"type":"report",)"));
    const QJsonObject sample = QJsonDocument::fromJson(lines[1]).object();
    QCOMPARE(sample[u"type"_s].toString(), u"sample"_s);
    QVERIFY(sample[u"cgroup"_s].isObject());
    // Reports outlive the server: a restart lists them again.
    QCOMPARE(fresh.stop(), 0);
    TestServer again;
    QVERIFY(again.start(TestServer::withArgs({u"--workspace"_s, fresh.workspace()})));
    const QJsonArray reports =
        request("GET", again.url(u"/v1/sandbox/observe/reports"_s)).json()[u"data"_s].toArray();
    QCOMPARE(reports.size(), 1);
    QCOMPARE(reports[0].toObject(), exported);
}

void TestServerObserve::badInputIsRefused() {
    for (const QString &query : {u"top_rows=abc"_s, u"top_rows=-1"_s, u"top_rows=1.5"_s,
                                 u"top_rows=5000"_s, u"sort=name"_s})
        QVERIFY2(get(u"/v1/sandbox/observe/live"_s, query).status == 422, qPrintable(query));
    const QList<QByteArray> badStarts = {
        R"({"interval_seconds":0.1})",
        R"({"interval_seconds":3601})",
        R"({"interval_seconds":"1"})",
        R"({"mode":"record"})",
        R"({"duration_seconds":-1})",
        R"({"include_disk":"yes"})",
        R"({"idempotency_key":7})",
        "{\"idempotency_key\":\"" + QByteArray(129, 'k') + "\"}",
        "[]",
        "not json",
        R"({"mode":)",
    };
    for (const QByteArray &body : badStarts) {
        const HttpResult result = post(u"/v1/sandbox/observe/start"_s, body);
        QVERIFY2(result.status == 422 || result.status == 400, body.constData());
        QVERIFY(result.json()[u"detail"_s].isArray() || isErrorEnvelope(result.body));
    }
    QCOMPARE(getData(u"/v1/sandbox/observe/status"_s)[u"running"_s], QJsonValue(false));
    QCOMPARE(post(u"/v1/sandbox/observe/export"_s, R"({"reason":"oom"})").status, 422);
    QCOMPARE(post(u"/v1/sandbox/observe/export"_s, R"({"session_id":3})").status, 422);
    QCOMPARE(post(u"/v1/sandbox/observe/stop"_s, R"({"session_id":[]})").status, 422);
    QCOMPARE(post(u"/v1/sandbox/observe/stop"_s, "{").status, 422);
    // An empty body is {}.
    QCOMPARE(post(u"/v1/sandbox/observe/stop"_s, {}).status, 200);
    const HttpResult unknownStop = post(u"/v1/sandbox/observe/stop"_s, R"({"session_id":"nope"})");
    QCOMPARE(unknownStop.status, 404);
    QVERIFY(isErrorEnvelope(unknownStop.body));
    QCOMPARE(post(u"/v1/sandbox/observe/export"_s, R"({"session_id":"nope"})").status, 404);
    // The server is still serving.
    QCOMPARE(get(u"/v1/sandbox/observe/live"_s).status, 200);
}

void TestServerObserve::unknownReportsAre404() {
    const QString secret = m_server.workspace() + u"/secret.jsonl.gz"_s;
    QFile file(secret);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not for download");
    file.close();
    for (const QString &id : {u"rpt_0000000000000000"_s, u"..%2F..%2F..%2Fsecret"_s,
                              u"..%2F..%2F..%2Fsecret.jsonl.gz"_s, u"%2E%2E"_s, u"a%00b"_s}) {
        const HttpResult result = get(u"/v1/sandbox/observe/reports/"_s + id);
        QVERIFY2(result.status == 404, qPrintable(id));
        QVERIFY(isErrorEnvelope(result.body));
        QCOMPARE(request("DELETE", m_server.url(u"/v1/sandbox/observe/reports/"_s + id)).status,
                 404);
    }
    QVERIFY(QFile::exists(secret));
}

void TestServerObserve::forcedSources() {
    TestServer tree;
    QVERIFY(tree.start(TestServer::withArgs({u"--observe-source"_s, u"tree"_s})));
    QCOMPARE(request("GET", tree.url(u"/v1/sandbox/observe/live"_s))
                 .json()[u"data"_s][u"source"_s]
                 .toString(),
             u"process_tree"_s);
    // Forced onto whatever cgroup this is, missing files are nulls, never a failure.
    TestServer cgroup;
    QVERIFY(cgroup.start(TestServer::withArgs({u"--observe-source"_s, u"cgroup"_s})));
    const HttpResult result = request("GET", cgroup.url(u"/v1/sandbox/observe/live"_s));
    QCOMPARE(result.status, 200);
    const QJsonObject data = result.json()[u"data"_s].toObject();
    QCOMPARE(data[u"source"_s].toString(), u"cgroup"_s);
    QVERIFY(data[u"cgroup"_s][u"mem_current_bytes"_s].isDouble());
    TestServer bad;
    QVERIFY(!bad.start(TestServer::withArgs({u"--observe-source"_s, u"desktop"_s})));
}

void TestServerObserve::routesAreListed() {
    const QString text = QString::fromUtf8(get(u"/llms.txt"_s).body);
    for (const QString &route :
         {u"GET /v1/sandbox/observe/live"_s, u"GET /v1/sandbox/observe/status"_s,
          u"POST /v1/sandbox/observe/start"_s, u"POST /v1/sandbox/observe/stop"_s,
          u"POST /v1/sandbox/observe/export"_s, u"GET /v1/sandbox/observe/reports"_s,
          u"GET /v1/sandbox/observe/reports/{report_id}"_s,
          u"DELETE /v1/sandbox/observe/reports/{report_id}"_s})
        QVERIFY2(text.contains(route), qPrintable(route));
    // AIO's own endpoints: no extension is announced for them.
    const QJsonArray extensions = get(u"/v1/sandbox"_s).json()[u"extensions"_s].toArray();
    for (const auto &value : extensions)
        QVERIFY(!value.toString().contains(u"observe"_s));
}

QTEST_GUILESS_MAIN(TestServerObserve)
#include "tst_server_observe.moc"
