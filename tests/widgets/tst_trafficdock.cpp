// The traffic inspector dock against a real sandbox-server: a context request shows with its
// status, timing and pretty-printed body; the filters narrow the list; a terminal's messages
// appear; no secret shows in a pane, a curl command or an exported HAR; closed, it keeps no
// headers or bodies.
#include "client/api/filejobs.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/streams/terminalchannel.h"
#include "client/traffic/trafficentry.h"
#include "client/traffic/trafficrecorder.h"
#include "models/traffic/trafficfiltermodel.h"
#include "models/traffic/trafficmodel.h"
#include "tests/support/jobs.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/traffic/trafficdock.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMainWindow>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

void choose(QComboBox *combo, const QVariant &data) {
    const int index = combo->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    combo->setCurrentIndex(index);
}

QString cell(const TrafficDock &dock, int row, int column) {
    return dock.filter()->index(row, column).data().toString();
}

} // namespace

class TestTrafficDock final : public QObject {
    Q_OBJECT
private:
    const QString m_key = u"dock-test-key-81c3aa"_s;
    TestServer m_server;
    TrafficRecorder m_recorder;
    std::unique_ptr<SandboxClient> m_client;
    std::unique_ptr<QMainWindow> m_window;
    TrafficDock *m_dock = nullptr;
    ScriptedPrompts m_prompts;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase();
    void init();
    void contextRequestShowsStatusTimingAndBody();
    void filtersNarrowTheList();
    void terminalMessagesAppear();
    void noSecretInPanesCurlOrHar();
    void closedDockKeepsNoHeadersOrBodies();
};

void TestTrafficDock::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(TestServer::withApiKey(m_key)), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}},
                                               Credentials{Credentials::Kind::ApiKey, m_key});
    m_client->setTrafficRecorder(&m_recorder, u"Dock box"_s);
    m_window = std::make_unique<QMainWindow>();
    m_window->setCentralWidget(new QWidget(m_window.get()));
    m_dock = new TrafficDock(&m_recorder, m_window.get());
    m_dock->setPrompts(&m_prompts);
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_window->resize(1300, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestTrafficDock::init() {
    m_dock->show();
    m_recorder.clear();
    choose(m_dock->sandboxFilter(), QString());
    choose(m_dock->methodFilter(), QByteArray());
    choose(m_dock->statusFilter(), int(TrafficStatusClass::All));
    m_dock->textFilter()->clear();
}

void TestTrafficDock::contextRequestShowsStatusTimingAndBody() {
    QVERIFY(m_recorder.keepsDetails()); // open: headers and bodies are kept
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QTRY_COMPARE(m_dock->filter()->rowCount(), 1);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Method), u"GET"_s);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Path), u"/v1/sandbox"_s);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Status), u"200"_s);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Sandbox), u"Dock box"_s);
    QVERIFY(cell(*m_dock, 0, TrafficModel::Duration).endsWith(u" ms"_s));
    QVERIFY(!cell(*m_dock, 0, TrafficModel::Received).isEmpty());
    QVERIFY(m_dock->selectRow(0));
    const QString summary = m_dock->summaryText();
    QVERIFY2(summary.contains(u"GET "_s + m_server.url(u"/v1/sandbox"_s).toString()) &&
                 summary.contains(u"200 OK"_s) && summary.contains(u" ms"_s) &&
                 summary.contains(u"Dock box"_s),
             qPrintable(summary));
    // Pretty-printed: one field a line, indented.
    const QString body = m_dock->responseText();
    QVERIFY2(body.startsWith(u"{\n  \""_s) && body.contains(u"\"arch\": "_s), qPrintable(body));
    QVERIFY(m_dock->headersText().contains(u"User-Agent: SandboxConsole/"_s));
    QCOMPARE(m_dock->requestText(), u"(no body)"_s);
}

void TestTrafficDock::filtersNarrowTheList() {
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QVERIFY(runJob(new WriteFileJob(m_client.get(), m_server.workspace() + u"/f.txt"_s, "x", false))
                .ok());
    QVERIFY(
        runJob(new ReadFileJob(m_client.get(), m_server.workspace() + u"/missing.txt"_s)).kind !=
        Status::Kind::Ok);
    SandboxClient other({QUrl(u"http://127.0.0.1:1"_s), {}}, {});
    other.setTrafficRecorder(&m_recorder, u"Other box"_s);
    QVERIFY(!runJob(new GetContextJob(&other)).ok());
    // The refused GET is retried: each attempt is an exchange of its own.
    const int all = m_dock->filter()->rowCount();
    const int refused = all - 3;
    QVERIFY(refused >= 1);
    choose(m_dock->methodFilter(), QByteArray("GET"));
    QCOMPARE(m_dock->filter()->rowCount(), all - 2); // not the two POSTs
    choose(m_dock->methodFilter(), QByteArray());
    choose(m_dock->statusFilter(), int(TrafficStatusClass::Failed));
    QCOMPARE(m_dock->filter()->rowCount(), refused);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Sandbox), u"Other box"_s);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Status), u"failed"_s);
    choose(m_dock->statusFilter(), int(TrafficStatusClass::All));
    QVERIFY(m_dock->sandboxFilter()->findData(u"Other box"_s) >= 0);
    choose(m_dock->sandboxFilter(), u"Dock box"_s);
    QCOMPARE(m_dock->filter()->rowCount(), 3);
    QTest::keyClicks(m_dock->textFilter(), u"file/write"_s);
    QCOMPARE(m_dock->filter()->rowCount(), 1);
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Method), u"POST"_s);
}

void TestTrafficDock::terminalMessagesAppear() {
    TerminalChannel channel(m_client.get());
    channel.open();
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Live, 10000);
    channel.resize(90, 20);
    choose(m_dock->methodFilter(), QByteArray("WS"));
    QTRY_VERIFY(m_dock->filter()->rowCount() >= 3); // handshake, session_id, resize, output
    QCOMPARE(cell(*m_dock, 0, TrafficModel::Status), u"101"_s);
    bool resize = false;
    for (int row = 0; row < m_dock->filter()->rowCount(); ++row) {
        if (cell(*m_dock, row, TrafficModel::Path) != u"/v1/shell/ws  ↑ resize"_s)
            continue;
        resize = true;
        QVERIFY(m_dock->selectRow(row));
        QVERIFY2(m_dock->requestText().contains(u"\"cols\": 90"_s),
                 qPrintable(m_dock->requestText()));
    }
    QVERIFY(resize);
    QVERIFY(m_dock->curlText().isEmpty()); // curl cannot send a socket message
    channel.detach();
}

void TestTrafficDock::noSecretInPanesCurlOrHar() {
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    Ticket ticket;
    QVERIFY(runJob(new MintTicketJob(m_client.get()), &ticket).ok());
    QTRY_COMPARE(m_dock->filter()->rowCount(), 2);
    QString seen;
    for (int row = 0; row < 2; ++row) {
        QVERIFY(m_dock->selectRow(row));
        seen += m_dock->summaryText() + m_dock->headersText() + m_dock->requestText() +
                m_dock->responseText() + m_dock->curlText();
    }
    QVERIFY2(seen.contains(u"X-AIO-API-Key: •••"_s), qPrintable(seen));
    QVERIFY2(seen.contains(u"\"ticket\": \"•••\""_s), qPrintable(seen));
    QVERIFY(seen.contains(u"$SANDBOX_API_KEY"_s));
    QVERIFY(!seen.contains(m_key) && !seen.contains(ticket.ticket));
    m_prompts.fileAnswer = m_dir.filePath(u"traffic.har"_s);
    QVERIFY(m_dock->exportHar());
    QVERIFY(m_dock->noticeText().contains(u"Exported 2 entries"_s));
    QFile har(m_prompts.fileAnswer);
    QVERIFY(har.open(QIODevice::ReadOnly));
    const QByteArray text = har.readAll();
    QVERIFY(!text.contains(m_key.toUtf8()) && !text.contains(ticket.ticket.toUtf8()));
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    QCOMPARE(doc.object().value(u"log"_s).toObject().value(u"version"_s).toString(), u"1.2"_s);
    m_prompts.fileAnswer.clear();
    QVERIFY(!m_dock->exportHar()); // cancelled: nothing written
}

void TestTrafficDock::closedDockKeepsNoHeadersOrBodies() {
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QTRY_COMPARE(m_dock->filter()->rowCount(), 1);
    QVERIFY(m_recorder.at(0).detailsKept);
    m_dock->toggleViewAction()->trigger(); // View > Traffic inspector, off
    QVERIFY(m_dock->isHidden());
    QVERIFY(!m_recorder.keepsDetails());
    QVERIFY(!m_recorder.at(0).detailsKept);
    QVERIFY(runJob(new GetContextJob(m_client.get())).ok());
    QCOMPARE(m_recorder.size(), 2);
    QCOMPARE(m_recorder.detailBytes(), 0);
    for (int i = 0; i < 2; ++i) {
        const TrafficEntry &e = m_recorder.at(i);
        QVERIFY(e.requestHeaders.isEmpty() && e.responseHeaders.isEmpty());
        QVERIFY(e.request.kept.isEmpty() && e.response.kept.isEmpty());
        QCOMPARE(e.status, 200);
    }
    m_dock->toggleViewAction()->trigger();
    QVERIFY(m_recorder.keepsDetails());
    QVERIFY(m_dock->selectRow(1));
    QVERIFY2(m_dock->headersText().contains(u"kept only while the inspector is open"_s),
             qPrintable(m_dock->headersText()));
    // Without headers, curl still names the credential by its variable.
    QVERIFY(m_dock->curlText().contains(u"X-AIO-API-Key: $SANDBOX_API_KEY"_s));
}

QTEST_MAIN(TestTrafficDock)
#include "tst_trafficdock.moc"
