// AIO's file watch API on a real sandbox-server: events in nested folders (renames with
// old_path, folders that appear later), exclude and include_patterns, debounce, reuse, the
// watcher limit, overflow, long-poll, wait, delete, bad input, SSE with a cut connection
// resumed by Last-Event-ID, and the end of streams at a server stop.
#include "tests/server/httptestclient.h"
#include "tests/server/ssereader.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

namespace {

QJsonObject dataOf(const SseFrame &frame) {
    return QJsonDocument::fromJson(frame.data).object();
}

void writeFile(const QString &path, const QByteArray &bytes, bool append = false) {
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(append ? QIODevice::Append : QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TestServerWatch final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void eventsInNestedFolders();
    void movedInFolderIsScanned();
    void excludeAndIncludePatterns();
    void debounceCoalescesWrites();
    void growingFileReportsAtDebounceRate();
    void sameConfigurationIsReused();
    void longPollReturnsWhenAFileAppears();
    void waitForOneFile();
    void deleteStopsStreamsThen404();
    void removedFolderStopsTheWatcher();
    void badInputIs4xx();
    void llmsTxtListsTheEndpoints();
    void sseResumesAfterACutWithLastEventId();
    void limitAnswers429();
    void overflowIsFlagged();
    void serverStopEndsStreams();

private:
    QString dir(const QString &name) {
        const QString path = m_server.workspace() + u"/watch-suite/"_s + name;
        QDir().mkpath(path);
        return path;
    }
    HttpResult post(TestServer &server, const QString &endpoint, const QJsonObject &body) {
        return request("POST", server.url(endpoint), {{"Content-Type", "application/json"}},
                       QJsonDocument(body).toJson(QJsonDocument::Compact));
    }
    QString create(TestServer &server, QJsonObject body, bool *reused = nullptr) {
        const HttpResult result = post(server, u"/v1/file/watch"_s, body);
        if (result.status != 200) {
            qWarning() << result.status << result.body;
            return {};
        }
        const QJsonObject data = result.json()[u"data"_s].toObject();
        if (reused)
            *reused = data[u"reused"_s].toBool();
        return data[u"watcher_id"_s].toString();
    }
    QString create(QJsonObject body, bool *reused = nullptr) {
        return create(m_server, std::move(body), reused);
    }
    QJsonObject poll(TestServer &server, const QString &id, qint64 cursor, int timeout = 0) {
        const HttpResult result =
            post(server, u"/v1/file/watch/"_s + id + u"/poll"_s,
                 {{u"cursor"_s, cursor}, {u"limit"_s, 1000}, {u"timeout"_s, timeout}});
        return result.status == 200 ? result.json() : QJsonObject{};
    }
    // Long-polls until done() holds for the events gathered so far, within ~15 s.
    QJsonArray collect(TestServer &server, const QString &id,
                       const std::function<bool(const QJsonArray &)> &done) {
        QJsonArray all;
        qint64 cursor = 0;
        QElapsedTimer clock;
        clock.start();
        while (!done(all) && clock.elapsed() < 15000) {
            const QJsonObject batch = poll(server, id, cursor, 2);
            for (const auto &event : batch[u"events"_s].toArray())
                all.append(event);
            cursor = batch[u"cursor"_s].toInteger(cursor);
        }
        return all;
    }
    QJsonArray collect(const QString &id, const std::function<bool(const QJsonArray &)> &done) {
        return collect(m_server, id, done);
    }
    static bool hasEvent(const QJsonArray &events, const QString &type, const QString &relative) {
        for (const auto &event : events) {
            if (event[u"type"_s].toString() == type &&
                event[u"relative_path"_s].toString() == relative)
                return true;
        }
        return false;
    }
    static QJsonObject findEvent(const QJsonArray &events, const QString &type,
                                 const QString &relative) {
        for (const auto &event : events) {
            if (event[u"type"_s].toString() == type &&
                event[u"relative_path"_s].toString() == relative)
                return event.toObject();
        }
        return {};
    }
    QJsonArray list(TestServer &server) {
        return request("GET", server.url(u"/v1/file/watch"_s)).json()[u"data"_s].toArray();
    }
    QJsonObject listed(TestServer &server, const QString &id) {
        for (const auto &entry : list(server)) {
            if (entry[u"watcher_id"_s].toString() == id)
                return entry.toObject();
        }
        return {};
    }

    TestServer m_server;
    QNetworkAccessManager m_manager;
};

void TestServerWatch::initTestCase() {
    // Heartbeats every 200 ms so the suite sees some without waiting 30 s; room for the
    // suite's watchers (limitAnswers429 checks the default of 10 on a server of its own).
    QVERIFY2(m_server.start(TestServer::Options{}
                                .set(u"SBX_WATCH_HEARTBEAT_MS"_s, u"200"_s)
                                .set(u"AIO_FILE_WATCH_MAX_WATCHERS"_s, u"100"_s)),
             qPrintable(m_server.error()));
}

void TestServerWatch::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerWatch::eventsInNestedFolders() {
    const QString root = dir(u"nested"_s);
    bool reused = true;
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}}, &reused);
    QVERIFY(!id.isEmpty());
    QVERIFY(QRegularExpression(u"^[0-9a-f]{12}$"_s).match(id).hasMatch());
    QVERIFY(!reused);
    const QJsonObject entry = listed(m_server, id);
    QCOMPARE(entry[u"status"_s].toString(), u"running"_s);
    QCOMPARE(entry[u"path"_s].toString(), root);

    // The folders appear after the watch: they are followed as they come.
    QVERIFY(QDir().mkpath(root + u"/sub/deeper"_s));
    writeFile(root + u"/sub/deeper/a.txt"_s, "hello");
    QJsonArray events = collect(id, [](const QJsonArray &all) {
        return hasEvent(all, u"create"_s, u"sub/deeper/a.txt"_s);
    });
    QVERIFY2(hasEvent(events, u"create"_s, u"sub"_s), QJsonDocument(events).toJson().constData());
    QVERIFY(hasEvent(events, u"create"_s, u"sub/deeper"_s));
    QVERIFY(findEvent(events, u"create"_s, u"sub"_s)[u"is_dir"_s].toBool());
    QVERIFY(QFile::rename(root + u"/sub/deeper/a.txt"_s, root + u"/sub/deeper/b.txt"_s));
    QVERIFY(QFile::remove(root + u"/sub/deeper/b.txt"_s));
    events = collect(id, [](const QJsonArray &all) {
        return hasEvent(all, u"remove"_s, u"sub/deeper/b.txt"_s);
    });
    const QJsonObject renamed = findEvent(events, u"rename"_s, u"sub/deeper/b.txt"_s);
    QVERIFY2(!renamed.isEmpty(), QJsonDocument(events).toJson().constData());
    QCOMPARE(renamed[u"old_path"_s].toString(), root + u"/sub/deeper/a.txt"_s);
    QCOMPARE(renamed[u"path"_s].toString(), root + u"/sub/deeper/b.txt"_s);
    QCOMPARE(renamed[u"watcher_id"_s].toString(), id);
    QCOMPARE(renamed[u"is_dir"_s], QJsonValue(false));
    const QJsonObject created = findEvent(events, u"create"_s, u"sub/deeper/a.txt"_s);
    QVERIFY(created[u"old_path"_s].isNull());
    QVERIFY(created[u"timestamp"_s].toDouble() > 1.7e9);
    for (const char *field : {"mtime", "size", "inode", "seq"})
        QVERIFY2(created[QLatin1String(field)].isDouble(), field);
    // Seqs run from 1 without gaps.
    for (int i = 0; i < events.size(); ++i)
        QCOMPARE(events[i][u"seq"_s].toInteger(), qint64(i + 1));
}

void TestServerWatch::movedInFolderIsScanned() {
    const QString root = dir(u"movedin"_s);
    const QString outside = dir(u"outside-tree"_s);
    writeFile(outside + u"/inner/file.txt"_s, "x");
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    // Its files existed before any watch saw them: only the scan of the new folder finds them.
    QVERIFY(QDir().rename(outside + u"/inner"_s, root + u"/inner"_s));
    QJsonArray events = collect(
        id, [](const QJsonArray &all) { return hasEvent(all, u"create"_s, u"inner/file.txt"_s); });
    QVERIFY2(hasEvent(events, u"create"_s, u"inner"_s), QJsonDocument(events).toJson().constData());
    QVERIFY(hasEvent(events, u"create"_s, u"inner/file.txt"_s));
    // And it is watched from then on.
    writeFile(root + u"/inner/later.txt"_s, "y");
    events = collect(
        id, [](const QJsonArray &all) { return hasEvent(all, u"create"_s, u"inner/later.txt"_s); });
    QVERIFY(hasEvent(events, u"create"_s, u"inner/later.txt"_s));
}

void TestServerWatch::excludeAndIncludePatterns() {
    const QString root = dir(u"exclude"_s);
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    writeFile(root + u"/.git/objects/x"_s, "git");
    writeFile(root + u"/node_modules/pkg/index.js"_s, "js");
    writeFile(root + u"/mod.pyc"_s, "pyc");
    writeFile(root + u"/keep.txt"_s, "keep");
    const QJsonArray events = collect(
        id, [](const QJsonArray &all) { return hasEvent(all, u"create"_s, u"keep.txt"_s); });
    QVERIFY(hasEvent(events, u"create"_s, u"keep.txt"_s));
    for (const auto &event : events) {
        const QString relative = event[u"relative_path"_s].toString();
        QVERIFY2(relative == u"keep.txt"_s, qPrintable(relative));
    }

    const QString md = dir(u"include"_s);
    const QString only = create(
        {{u"path"_s, md}, {u"debounce"_s, 50}, {u"include_patterns"_s, QJsonArray{u"*.md"_s}}});
    QVERIFY(!only.isEmpty());
    writeFile(md + u"/skip.txt"_s, "no");
    writeFile(md + u"/docs/read.md"_s, "yes");
    const QJsonArray mdEvents = collect(
        only, [](const QJsonArray &all) { return hasEvent(all, u"create"_s, u"docs/read.md"_s); });
    QVERIFY(hasEvent(mdEvents, u"create"_s, u"docs/read.md"_s));
    for (const auto &event : mdEvents)
        QVERIFY(event[u"path"_s].toString().endsWith(u".md"_s));
}

void TestServerWatch::debounceCoalescesWrites() {
    const QString root = dir(u"debounce"_s);
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 1000}});
    QVERIFY(!id.isEmpty());
    const QString path = root + u"/burst.log"_s;
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 200; ++i) {
        QCOMPARE(file.write("line\n"), qint64(5));
        QVERIFY(file.flush()); // a write(2) each
    }
    file.close();
    const QJsonArray events = collect(id, [](const QJsonArray &all) {
        for (const auto &event : all) {
            if (event[u"size"_s].toInt() == 1000)
                return true;
        }
        return false;
    });
    // 200 writes well within one window: one create (the writes fold into it), maybe a write.
    QVERIFY2(!events.isEmpty() && events.size() <= 2, QJsonDocument(events).toJson().constData());
    QCOMPARE(events[0][u"type"_s].toString(), u"create"_s);
}

void TestServerWatch::growingFileReportsAtDebounceRate() {
    const QString root = dir(u"growing"_s);
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 100}});
    QVERIFY(!id.isEmpty());
    const QString path = root + u"/grow.log"_s;
    writeFile(path, "");
    // 60 appends, one every 20 ms: about 1.2 s of writing, 12 debounce windows.
    int written = 0;
    QTimer pace;
    connect(&pace, &QTimer::timeout, this, [&] {
        QFile file(path);
        if (file.open(QIODevice::Append))
            file.write(QByteArray(100, 'x'));
        if (++written == 60)
            pace.stop();
    });
    pace.start(20);
    QTRY_COMPARE_WITH_TIMEOUT(written, 60, 10000);
    const QJsonArray events = collect(id, [](const QJsonArray &all) {
        for (const auto &event : all) {
            if (event[u"size"_s].toInt() == 6000)
                return true;
        }
        return false;
    });
    int writes = 0;
    qint64 lastSize = -1;
    bool growing = true;
    for (const auto &event : events) {
        if (event[u"type"_s].toString() != u"write"_s)
            continue;
        ++writes;
        growing = growing && event[u"size"_s].toInteger() >= lastSize;
        lastSize = event[u"size"_s].toInteger();
    }
    QVERIFY2(writes >= 3 && writes <= 30, qPrintable(QString::number(writes)));
    QVERIFY(growing);
    QCOMPARE(lastSize, qint64(6000));
}

void TestServerWatch::sameConfigurationIsReused() {
    const QString root = dir(u"reuse"_s);
    bool reused = true;
    const QString first = create({{u"path"_s, root}}, &reused);
    QVERIFY(!first.isEmpty());
    QVERIFY(!reused);
    // A trailing slash names the same folder.
    const QString second = create({{u"path"_s, QString(root + u"/"_s)}}, &reused);
    QCOMPARE(second, first);
    QVERIFY(reused);
    const QString other = create({{u"path"_s, root}, {u"debounce"_s, 500}}, &reused);
    QVERIFY(!other.isEmpty());
    QVERIFY(other != first);
    QVERIFY(!reused);
    // Relative paths are taken against the workspace.
    const QString relative = create({{u"path"_s, u"watch-suite/reuse"_s}}, &reused);
    QCOMPARE(relative, first);
}

void TestServerWatch::longPollReturnsWhenAFileAppears() {
    const QString root = dir(u"longpoll"_s);
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    // Nothing happens: a 1 s poll waits its second and answers empty.
    QElapsedTimer clock;
    clock.start();
    const QJsonObject idle = poll(m_server, id, 0, 1);
    QVERIFY(clock.elapsed() >= 900);
    QCOMPARE(idle[u"events"_s].toArray().size(), 0);
    QCOMPARE(idle[u"cursor"_s].toInt(), 0);
    QCOMPARE(idle[u"overflow"_s], QJsonValue(false));

    QNetworkRequest pollRequest(m_server.url(u"/v1/file/watch/"_s + id + u"/poll"_s));
    pollRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    pollRequest.setTransferTimeout(0);
    std::unique_ptr<QNetworkReply> reply(
        m_manager.post(pollRequest, R"({"cursor":0,"timeout":30})"));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    clock.restart();
    // Another client is served while the poll waits.
    const HttpResult other = request("GET", m_server.url(u"/v1/file/watch"_s));
    QCOMPARE(other.status, 200);
    QVERIFY(!reply->isFinished());
    writeFile(root + u"/arrived.txt"_s, "here");
    QVERIFY(finished.wait(10000));
    QVERIFY(clock.elapsed() < 10000);
    const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
    QVERIFY(!body.contains(u"success"_s)); // not wrapped
    const QJsonArray events = body[u"events"_s].toArray();
    QVERIFY(hasEvent(events, u"create"_s, u"arrived.txt"_s));
    QCOMPARE(body[u"cursor"_s].toInteger(), events.last()[u"seq"_s].toInteger());
}

void TestServerWatch::waitForOneFile() {
    const QString root = dir(u"wait"_s);
    const QString path = root + u"/target.txt"_s;
    writeFile(path, "exists");
    const HttpResult now = post(m_server, u"/v1/file/watch/wait"_s, {{u"path"_s, path}});
    QCOMPARE(now.status, 200);
    const QJsonObject event = now.json()[u"event"_s].toObject();
    QCOMPARE(event[u"type"_s].toString(), u"create"_s);
    QCOMPARE(event[u"path"_s].toString(), path);
    QCOMPARE(event[u"size"_s].toInt(), 6);

    QNetworkRequest waitRequest(m_server.url(u"/v1/file/watch/wait"_s));
    waitRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    const QByteArray body = QJsonDocument(QJsonObject{{u"path"_s, path},
                                                      {u"timeout"_s, 20},
                                                      {u"event_types"_s, QJsonArray{u"write"_s}}})
                                .toJson(QJsonDocument::Compact);
    std::unique_ptr<QNetworkReply> reply(m_manager.post(waitRequest, body));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    // The server's watch may start after this test's first append: keep appending until it
    // answers (each append is a write it must report).
    QTimer appender;
    connect(&appender, &QTimer::timeout, this, [&] { writeFile(path, "more", true); });
    appender.start(100);
    QVERIFY(finished.wait(15000));
    appender.stop();
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QJsonObject written = QJsonDocument::fromJson(reply->readAll()).object();
    QCOMPARE(written[u"event"_s][u"type"_s].toString(), u"write"_s);
    QCOMPARE(written[u"event"_s][u"path"_s].toString(), path);

    QElapsedTimer clock;
    clock.start();
    const HttpResult timedOut =
        post(m_server, u"/v1/file/watch/wait"_s,
             {{u"path"_s, QString(root + u"/never.txt"_s)}, {u"timeout"_s, 1}});
    QCOMPARE(timedOut.status, 408);
    QVERIFY(timedOut.body.contains(R"("code":"WATCH_TIMEOUT")"));
    QVERIFY(isErrorEnvelope(timedOut.body));
    QVERIFY(clock.elapsed() >= 900);
    // Temporary watches are not listed.
    for (const auto &entry : list(m_server))
        QVERIFY(entry[u"path"_s].toString() != path);
}

void TestServerWatch::deleteStopsStreamsThen404() {
    const QString root = dir(u"delete"_s);
    const QString id = create({{u"path"_s, root}});
    QVERIFY(!id.isEmpty());
    SseReader sse(m_manager, m_server.url(u"/v1/file/watch/"_s + id + u"/events"_s));
    QTRY_VERIFY_WITH_TIMEOUT(sse.has("watch_started"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(listed(m_server, id)[u"subscriber_count"_s].toInt(), 1, 10000);
    const HttpResult removed = request("DELETE", m_server.url(u"/v1/file/watch/"_s + id));
    QCOMPARE(removed.status, 200);
    QCOMPARE(removed.json()[u"data"_s][u"watcher_id"_s].toString(), id);
    QCOMPARE(removed.json()[u"data"_s][u"status"_s].toString(), u"stopped"_s);
    QTRY_VERIFY_WITH_TIMEOUT(sse.reply().isFinished(), 10000);
    const HttpResult again = request("DELETE", m_server.url(u"/v1/file/watch/"_s + id));
    QCOMPARE(again.status, 404);
    const HttpResult polled = post(m_server, u"/v1/file/watch/"_s + id + u"/poll"_s, {});
    QCOMPARE(polled.status, 404);
    QVERIFY(polled.body.contains(R"("code":"WATCHER_NOT_FOUND")"));
    QVERIFY(listed(m_server, id).isEmpty());
    const HttpResult events =
        request("GET", m_server.url(u"/v1/file/watch/"_s + id + u"/events"_s));
    QCOMPARE(events.status, 404);
}

void TestServerWatch::removedFolderStopsTheWatcher() {
    const QString root = dir(u"removed"_s);
    writeFile(root + u"/inside/f.txt"_s, "x");
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    SseReader sse(m_manager, m_server.url(u"/v1/file/watch/"_s + id + u"/events"_s));
    QTRY_VERIFY_WITH_TIMEOUT(sse.has("watch_started"), 10000);
    QVERIFY(QDir(root).removeRecursively());
    QTRY_COMPARE_WITH_TIMEOUT(listed(m_server, id)[u"status"_s].toString(), u"stopped"_s, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(sse.reply().isFinished(), 10000);
    const QJsonArray events = poll(m_server, id, 0)[u"events"_s].toArray();
    QVERIFY(hasEvent(events, u"remove"_s, u"inside/f.txt"_s));
    QVERIFY(hasEvent(events, u"remove"_s, u"inside"_s));
    QVERIFY(request("DELETE", m_server.url(u"/v1/file/watch/"_s + id)).status == 200);
}

void TestServerWatch::badInputIs4xx() {
    const QString root = dir(u"bad"_s);
    const QUrl createUrl = m_server.url(u"/v1/file/watch"_s);
    const HeaderPairs json = {{"Content-Type", "application/json"}};
    QCOMPARE(request("POST", createUrl, json, "{}").status, 400);
    QVERIFY(isErrorEnvelope(request("POST", createUrl, json, "{}").body));
    QCOMPARE(request("POST", createUrl, json, "{not json").status, 422);
    QCOMPARE(request("POST", createUrl, json, "[1,2]").status, 422);
    QCOMPARE(request("POST", createUrl, json, R"({"path":5})").status, 422);
    QCOMPARE(
        post(m_server, u"/v1/file/watch"_s, {{u"path"_s, QString(root + u"/missing"_s)}}).status,
        400);
    QCOMPARE(request("POST", createUrl, json, "{\"path\":\"a\\u0000b\"}").status, 400);
    for (const QJsonObject &body :
         {QJsonObject{{u"path"_s, root}, {u"debounce"_s, 10}},
          QJsonObject{{u"path"_s, root}, {u"debounce"_s, 6000}},
          QJsonObject{{u"path"_s, root}, {u"debounce"_s, u"x"_s}},
          QJsonObject{{u"path"_s, root}, {u"exclude"_s, u".git"_s}},
          QJsonObject{{u"path"_s, root}, {u"include_patterns"_s, QJsonArray{1}}},
          QJsonObject{{u"path"_s, root}, {u"recursive"_s, u"yes"_s}}}) {
        const HttpResult result = post(m_server, u"/v1/file/watch"_s, body);
        QVERIFY2(result.status == 422, result.body.constData());
        QVERIFY(result.json()[u"detail"_s].isArray());
    }
    const QString id = create({{u"path"_s, root}});
    QVERIFY(!id.isEmpty());
    const QString pollPath = u"/v1/file/watch/"_s + id + u"/poll"_s;
    for (const QJsonObject &body :
         {QJsonObject{{u"cursor"_s, -1}}, QJsonObject{{u"limit"_s, 0}},
          QJsonObject{{u"limit"_s, 1001}}, QJsonObject{{u"timeout"_s, 61}},
          QJsonObject{{u"cursor"_s, 1.5}}})
        QCOMPARE(post(m_server, pollPath, body).status, 422);
    // Every poll field has a default: an empty body is fine.
    QCOMPARE(request("POST", m_server.url(pollPath)).status, 200);
    QCOMPARE(post(m_server, u"/v1/file/watch/nosuchwatch/poll"_s, {}).status, 404);
    const QString waitPath = u"/v1/file/watch/wait"_s;
    QCOMPARE(post(m_server, waitPath, {}).status, 422);
    QCOMPARE(
        post(m_server, waitPath, {{u"path"_s, QString(root + u"/f"_s)}, {u"timeout"_s, 0}}).status,
        422);
    QCOMPARE(
        post(m_server, waitPath,
             {{u"path"_s, QString(root + u"/f"_s)}, {u"event_types"_s, QJsonArray{u"bogus"_s}}})
            .status,
        422);
    QCOMPARE(post(m_server, waitPath, {{u"path"_s, QString(root + u"/no/such/folder/f"_s)}}).status,
             400);
    // Still serving.
    QCOMPARE(request("GET", m_server.url(u"/v1/file/watch"_s)).status, 200);
}

void TestServerWatch::llmsTxtListsTheEndpoints() {
    const HttpResult result = request("GET", m_server.url(u"/llms.txt"_s));
    QCOMPARE(result.status, 200);
    for (const char *line : {"- POST /v1/file/watch:", "- GET /v1/file/watch:",
                             "- POST /v1/file/watch/{id}/poll:", "- GET /v1/file/watch/{id}/events",
                             "- POST /v1/file/watch/wait:", "- DELETE /v1/file/watch/{id}:"})
        QVERIFY2(result.body.contains(line), line);
    // AIO's own family: no extension is announced for it.
    const QJsonObject sandbox = request("GET", m_server.url(u"/v1/sandbox"_s)).json();
    QVERIFY(sandbox[u"extensions"_s].isArray());
    for (const auto &extension : sandbox[u"extensions"_s].toArray())
        QVERIFY(!extension.toString().contains(u"watch"_s));
}

void TestServerWatch::sseResumesAfterACutWithLastEventId() {
    const QString root = dir(u"sse"_s);
    const QString id = create({{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    QUrl url = proxy.url();
    url.setPath(u"/v1/file/watch/"_s + id + u"/events"_s);
    QByteArray lastId;
    {
        SseReader sse(m_manager, url);
        QTRY_VERIFY_WITH_TIMEOUT(sse.has("watch_started"), 10000);
        QCOMPARE(sse.reply().rawHeader("Content-Type"), QByteArray("text/event-stream"));
        QCOMPARE(sse.reply().rawHeader("Cache-Control"), QByteArray("no-cache"));
        QCOMPARE(sse.reply().rawHeader("X-Accel-Buffering"), QByteArray("no"));
        const QJsonObject started = dataOf(sse.frames().first());
        QCOMPARE(started[u"watcher_id"_s].toString(), id);
        QCOMPARE(started[u"path"_s].toString(), root);
        writeFile(root + u"/one.txt"_s, "1");
        QTRY_VERIFY_WITH_TIMEOUT(!sse.changes().isEmpty(), 10000);
        const SseFrame first = sse.changes().first();
        QCOMPARE(first.id, (id + u":1"_s).toUtf8());
        QCOMPARE(dataOf(first)[u"relative_path"_s].toString(), u"one.txt"_s);
        lastId = first.id;
        QTRY_VERIFY_WITH_TIMEOUT(sse.heartbeats() > 0, 10000);
        QCOMPARE(listed(m_server, id)[u"subscriber_count"_s].toInt(), 1);
        proxy.cutAll();
        // The server notices the reader gone without waiting for a write to fail.
        QTRY_COMPARE_WITH_TIMEOUT(listed(m_server, id)[u"subscriber_count"_s].toInt(), 0, 10000);
    }
    writeFile(root + u"/two.txt"_s, "2");
    writeFile(root + u"/three.txt"_s, "3");
    const QJsonArray missed = collect(
        id, [](const QJsonArray &all) { return hasEvent(all, u"create"_s, u"three.txt"_s); });
    QVERIFY(hasEvent(missed, u"create"_s, u"three.txt"_s));

    SseReader resumed(m_manager, url, lastId);
    QTRY_VERIFY_WITH_TIMEOUT(resumed.changes().size() >= 2, 10000);
    const QList<SseFrame> replayed = resumed.changes();
    QCOMPARE(replayed[0].id, (id + u":2"_s).toUtf8());
    QCOMPARE(dataOf(replayed[0])[u"relative_path"_s].toString(), u"two.txt"_s);
    QCOMPARE(dataOf(replayed[1])[u"relative_path"_s].toString(), u"three.txt"_s);
    for (const SseFrame &frame : replayed)
        QVERIFY(dataOf(frame)[u"relative_path"_s].toString() != u"one.txt"_s);
    QVERIFY(!resumed.has("overflow"));
}

void TestServerWatch::limitAnswers429() {
    // AIO's default limit, 10 (the suite's own server raises it through the environment).
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QStringList ids;
    for (int i = 0; i < 10; ++i) {
        const QString folder = server.workspace() + u"/w"_s + QString::number(i);
        QVERIFY(QDir().mkpath(folder));
        ids << create(server, {{u"path"_s, folder}});
        QVERIFY(!ids.last().isEmpty());
    }
    const QString eleventh = server.workspace() + u"/w10"_s;
    QVERIFY(QDir().mkpath(eleventh));
    const HttpResult refused = post(server, u"/v1/file/watch"_s, {{u"path"_s, eleventh}});
    QCOMPARE(refused.status, 429);
    QVERIFY(refused.body.contains(R"("code":"WATCH_LIMIT_EXCEEDED")"));
    QVERIFY(isErrorEnvelope(refused.body));
    // Reuse still works at the limit, and a deleted watcher makes room.
    bool reused = false;
    QCOMPARE(create(server, {{u"path"_s, QString(server.workspace() + u"/w0"_s)}}, &reused),
             ids.first());
    QVERIFY(reused);
    QCOMPARE(request("DELETE", server.url(u"/v1/file/watch/"_s + ids.first())).status, 200);
    QVERIFY(!create(server, {{u"path"_s, eleventh}}).isEmpty());
    QCOMPARE(list(server).size(), 10);
    QCOMPARE(server.stop(), 0);
}

void TestServerWatch::overflowIsFlagged() {
    TestServer server;
    QVERIFY2(server.start(TestServer::Options{}.set(u"AIO_FILE_WATCH_BUFFER_SIZE"_s, u"5"_s)),
             qPrintable(server.error()));
    const QString root = server.workspace() + u"/many"_s;
    QVERIFY(QDir().mkpath(root));
    const QString id = create(server, {{u"path"_s, root}, {u"debounce"_s, 50}});
    QVERIFY(!id.isEmpty());
    for (int i = 0; i < 40; ++i)
        writeFile(root + u"/f"_s + QString::number(i) + u".txt"_s, "x");
    // Wait (long-polling from the newest cursor) until all 40 creates were counted. Under load
    // a file's write may fall in the window after its create: then there are more than 40.
    qint64 cursor = 0;
    QElapsedTimer clock;
    clock.start();
    while (cursor < 40 && clock.elapsed() < 15000)
        cursor = poll(server, id, cursor, 2)[u"cursor"_s].toInteger(cursor);
    QVERIFY(cursor >= 40);
    const QJsonObject behind = poll(server, id, 0);
    QCOMPARE(behind[u"overflow"_s], QJsonValue(true));
    const QJsonArray kept = behind[u"events"_s].toArray();
    QCOMPARE(kept.size(), 5);
    QCOMPARE(kept.first()[u"seq"_s].toInteger(), cursor - 4);
    QCOMPARE(behind[u"cursor"_s].toInteger(), cursor);
    // A reader that kept up is not told about losses it did not suffer.
    QCOMPARE(poll(server, id, cursor - 5)[u"overflow"_s], QJsonValue(false));
    QCOMPARE(poll(server, id, cursor)[u"overflow"_s], QJsonValue(false));

    QUrl url = server.url(u"/v1/file/watch/"_s + id + u"/events"_s);
    SseReader sse(m_manager, url, (id + u":3"_s).toUtf8());
    QTRY_VERIFY_WITH_TIMEOUT(sse.has("overflow"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(sse.reply().isFinished(), 10000);
    const SseFrame last = sse.frames().last();
    QCOMPARE(last.event, QByteArray("overflow"));
    QCOMPARE(dataOf(last)[u"watcher_id"_s].toString(), id);
    QVERIFY(!dataOf(last)[u"message"_s].toString().isEmpty());
    QVERIFY(sse.changes().isEmpty());
    // A fresh subscriber (no Last-Event-ID) starts with what is kept, not with an overflow.
    SseReader fresh(m_manager, url);
    QTRY_COMPARE_WITH_TIMEOUT(fresh.changes().size(), 5, 10000);
    QVERIFY(!fresh.has("overflow"));
    QCOMPARE(server.stop(), 0);
}

void TestServerWatch::serverStopEndsStreams() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    const QString root = server.workspace() + u"/stopping"_s;
    QVERIFY(QDir().mkpath(root));
    const QString id = create(server, {{u"path"_s, root}});
    QVERIFY(!id.isEmpty());
    SseReader sse(m_manager, server.url(u"/v1/file/watch/"_s + id + u"/events"_s));
    QTRY_VERIFY_WITH_TIMEOUT(sse.has("watch_started"), 10000);
    QNetworkRequest pollRequest(server.url(u"/v1/file/watch/"_s + id + u"/poll"_s));
    pollRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    std::unique_ptr<QNetworkReply> waiting(m_manager.post(pollRequest, R"({"timeout":60})"));
    QTRY_COMPARE_WITH_TIMEOUT(listed(server, id)[u"subscriber_count"_s].toInt(), 1, 10000);
    QElapsedTimer clock;
    clock.start();
    server.terminate();
    QTRY_VERIFY_WITH_TIMEOUT(sse.reply().isFinished(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(waiting->isFinished(), 10000);
    QCOMPARE(server.stop(), 0);
    // Neither the stream nor the 60 s poll held the stop back (the forced stop is at 5 s).
    QVERIFY2(clock.elapsed() < 4000, qPrintable(QString::number(clock.elapsed())));
}

QTEST_GUILESS_MAIN(TestServerWatch)
#include "tst_server_watch.moc"
