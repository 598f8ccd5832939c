// The traffic inspector's models over a real TrafficRecorder: consistent under
// QAbstractItemModelTester while the ring fills, drops, changes and clears; filters by sandbox,
// method, status class and text; and entries read as a person reads them (JSON pretty-printed,
// binary as hex).
#include "client/traffic/trafficrecorder.h"
#include "models/traffic/trafficfiltermodel.h"
#include "models/traffic/trafficformat.h"
#include "models/traffic/trafficmodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// One finished exchange; status 0: it failed without an answer.
quint64 exchange(TrafficRecorder &recorder, const QString &sandbox, const QByteArray &method,
                 const QString &path, int status, const QByteArray &body = {},
                 const QByteArray &mimeType = "application/json") {
    TrafficRequest request;
    request.method = method;
    request.url = QUrl(u"http://127.0.0.1:8080"_s + path);
    const quint64 serial = recorder.begin({sandbox, {}}, request);
    TrafficResponse response;
    response.status = status;
    response.statusText = status ? QByteArray("Status") : QByteArray();
    response.body = body;
    response.bodySize = body.size();
    response.mimeType = mimeType;
    if (status == 0)
        response.error = u"the connection was refused"_s;
    recorder.finish(serial, {sandbox, {}}, response);
    return serial;
}

void socketMessage(TrafficRecorder &recorder, const QString &sandbox, const QByteArray &type) {
    TrafficRequest request;
    request.method = "GET";
    request.url = QUrl(u"ws://127.0.0.1:8080/v1/shell/ws"_s);
    const quint64 serial = recorder.begin({sandbox, {}}, request, TrafficKind::Socket);
    TrafficResponse opened;
    opened.status = 101;
    recorder.finish(serial, {sandbox, {}}, opened);
    const QByteArray frame = R"({"type":")" + type + R"("})";
    recorder.socketMessage({serial, sandbox, u"/v1/shell/ws"_s}, {}, TrafficDirection::Received,
                           type, frame, frame.size());
}

int shown(const TrafficFilterModel &filter) {
    return filter.rowCount();
}

} // namespace

class TestTrafficModel final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelsStayConsistentAsTheRingMoves();
    void filtersSelectWhatTheySay();
    void bodiesReadAsAPersonReadsThem();
    void listCellsSayWhatHappened();
};

void TestTrafficModel::modelsStayConsistentAsTheRingMoves() {
    TrafficRecorder recorder;
    recorder.setKeepDetails(true);
    TrafficRecorder::Limits limits;
    limits.maxEntries = 25;
    recorder.setLimits(limits);
    TrafficModel model(&recorder);
    TrafficFilterModel filter(&model);
    QAbstractItemModelTester modelTester(&model,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester filterTester(&filter,
                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.setStatusClass(TrafficStatusClass::ClientError);
    // In flight first, then finished: the row changes in place.
    TrafficRequest request;
    request.method = "GET";
    request.url = QUrl(u"http://h/v1/sandbox"_s);
    const quint64 pending = recorder.begin({u"A"_s, {}}, request);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.data(model.index(0, TrafficModel::Status)).toString(), u"…"_s);
    QCOMPARE(shown(filter), 0);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    TrafficResponse notFound;
    notFound.status = 404;
    recorder.finish(pending, {u"A"_s, {}}, notFound);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.data(model.index(0, TrafficModel::Status)).toString(), u"404"_s);
    QCOMPARE(shown(filter), 1);
    for (int i = 0; i < 60; ++i)
        exchange(recorder, i % 2 ? u"A"_s : u"B"_s, "GET", u"/v1/x/%1"_s.arg(i), i % 3 ? 200 : 404);
    QCOMPARE(model.rowCount(), limits.maxEntries);
    QCOMPARE(model.entry(0)->serial, quint64(62 - limits.maxEntries));
    QCOMPARE(model.rowOf(pending), -1);
    QCOMPARE(shown(filter), 8); // i = 36, 39, ..., 57
    filter.setStatusClass(TrafficStatusClass::All);
    filter.setSandbox(u"B"_s);
    QCOMPARE(shown(filter), 12);
    recorder.setKeepDetails(false);
    limits.maxEntries = 10;
    recorder.setLimits(limits);
    QCOMPARE(model.rowCount(), 10);
    recorder.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(shown(filter), 0);
    exchange(recorder, u"B"_s, "POST", u"/v1/y"_s, 200);
    QCOMPARE(shown(filter), 1);
}

void TestTrafficModel::filtersSelectWhatTheySay() {
    TrafficRecorder recorder;
    TrafficModel model(&recorder);
    TrafficFilterModel filter(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    exchange(recorder, u"Agent box"_s, "GET", u"/v1/sandbox"_s, 200);
    exchange(recorder, u"Agent box"_s, "POST", u"/v1/bash/exec"_s, 200);
    exchange(recorder, u"Agent box"_s, "GET", u"/v1/file/list"_s, 302);
    exchange(recorder, u"Local"_s, "DELETE", u"/v1/hooks/1"_s, 404);
    exchange(recorder, u"Local"_s, "GET", u"/v1/sandbox"_s, 503);
    exchange(recorder, u"Local"_s, "GET", u"/v1/sandbox"_s, 0);
    socketMessage(recorder, u"Local"_s, "session_id"); // a handshake and a message
    QCOMPARE(shown(filter), 8);
    const QList<QPair<TrafficStatusClass, int>> classes{
        {TrafficStatusClass::Success, 3}, // 101 counts as success
        {TrafficStatusClass::Redirect, 1},
        {TrafficStatusClass::ClientError, 1},
        {TrafficStatusClass::ServerError, 1},
        {TrafficStatusClass::Failed, 1}};
    for (const auto &[statusClass, count] : classes) {
        filter.setStatusClass(statusClass);
        QCOMPARE(shown(filter), count);
    }
    filter.setStatusClass(TrafficStatusClass::Failed);
    QVERIFY(filter.entry(0)->failed());
    QCOMPARE(filter.entry(0)->error, u"the connection was refused"_s);
    filter.setStatusClass(TrafficStatusClass::All);
    filter.setMethod("GET");
    QCOMPARE(shown(filter), 4);
    filter.setMethod("WS");
    QCOMPARE(shown(filter), 2);
    filter.setMethod({});
    filter.setSandbox(u"Local"_s);
    QCOMPARE(shown(filter), 5);
    filter.setText(u"sandbox"_s);
    QCOMPARE(shown(filter), 2);
    filter.setText(u"503"_s);
    QCOMPARE(shown(filter), 1);
    filter.setText(u"SESSION_ID"_s); // the message's type, any case
    QCOMPARE(shown(filter), 1);
    filter.setSandbox({});
    filter.setText(u"bash"_s);
    QCOMPARE(shown(filter), 1);
    QCOMPARE(filter.shownEntries().value(0).path, u"/v1/bash/exec"_s);
}

void TestTrafficModel::bodiesReadAsAPersonReadsThem() {
    TrafficRecorder recorder;
    recorder.setKeepDetails(true);
    TrafficRecorder::Limits limits;
    limits.bodyBound = 64;
    recorder.setLimits(limits);
    exchange(recorder, u"A"_s, "GET", u"/v1/sandbox"_s, 200, R"({"os":"linux","ports":[8080]})");
    const QString json = TrafficFormat::body(recorder.at(0), TrafficDirection::Received);
    QVERIFY2(json.contains(u"{\n  \"os\": \"linux\",\n  \"ports\": [\n    8080\n  ]\n}"_s),
             qPrintable(json));
    QByteArray binary;
    for (int i = 0; i < 300; ++i)
        binary += char(i);
    exchange(recorder, u"A"_s, "GET", u"/v1/file/raw"_s, 200, binary, "application/octet-stream");
    const QString hex = TrafficFormat::body(recorder.at(1), TrafficDirection::Received);
    QVERIFY2(hex.contains(u"300 bytes of binary data"_s), qPrintable(hex));
    QVERIFY2(hex.contains(u"00000000  00 01 02 03"_s), qPrintable(hex));
    QVERIFY(hex.contains(u"00000030  30 31"_s) && !hex.contains(u"00000040"_s)); // 64 kept
    exchange(recorder, u"A"_s, "GET", u"/llms.txt"_s, 200, QByteArray(100, 'a'), "text/plain");
    const QString cut = TrafficFormat::body(recorder.at(2), TrafficDirection::Received);
    QVERIFY2(cut.startsWith(QString(64, u'a')) && cut.contains(u"36 bytes more not kept"_s),
             qPrintable(cut));
    QCOMPARE(TrafficFormat::body(recorder.at(2), TrafficDirection::Sent), u"(no body)"_s);
    recorder.setKeepDetails(false);
    QVERIFY(TrafficFormat::body(recorder.at(0), TrafficDirection::Received)
                .contains(u"kept only while the inspector is open"_s));
    QVERIFY(TrafficFormat::headers(recorder.at(0)).contains(u"kept only while"_s));
}

void TestTrafficModel::listCellsSayWhatHappened() {
    TrafficRecorder recorder;
    TrafficModel model(&recorder);
    exchange(recorder, u"Agent box"_s, "POST", u"/v1/bash/exec"_s, 200, QByteArray(2048, 'x'));
    exchange(recorder, u"Agent box"_s, "GET", u"/v1/sandbox"_s, 0);
    socketMessage(recorder, u"Agent box"_s, "session_id");
    const auto cell = [&model](int row, int column) {
        return model.data(model.index(row, column)).toString();
    };
    QCOMPARE(cell(0, TrafficModel::Sandbox), u"Agent box"_s);
    QCOMPARE(cell(0, TrafficModel::Method), u"POST"_s);
    QCOMPARE(cell(0, TrafficModel::Path), u"/v1/bash/exec"_s);
    QCOMPARE(cell(0, TrafficModel::Status), u"200"_s);
    QVERIFY(cell(0, TrafficModel::Duration).endsWith(u" ms"_s));
    QCOMPARE(cell(0, TrafficModel::Received), u"2.0 KiB"_s);
    QCOMPARE(cell(1, TrafficModel::Status), u"failed"_s);
    QCOMPARE(model.data(model.index(1, TrafficModel::Status), Qt::ToolTipRole).toString(),
             u"the connection was refused"_s);
    QCOMPARE(cell(2, TrafficModel::Method), u"WS"_s);
    QCOMPARE(cell(3, TrafficModel::Path), u"/v1/shell/ws  ↓ session_id"_s);
    QVERIFY(QTime::fromString(cell(0, TrafficModel::Time), u"HH:mm:ss.zzz"_s).isValid());
}

QTEST_GUILESS_MAIN(TestTrafficModel)
#include "tst_trafficmodel.moc"
