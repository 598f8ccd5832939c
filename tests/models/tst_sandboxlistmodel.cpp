// SandboxListModel over real providers: live states from real sandbox-server processes.
#include "client/api/bashjobs.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/providers/secretstore.h"
#include "client/sandboxclient.h"
#include "models/sandboxlistmodel.h"
#include "tests/support/testserver.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

SandboxState stateOf(const SandboxListModel &model, const QString &id) {
    return model.registry()->state(id);
}

// Every string the model would show, in every role, for every cell.
QString everythingShown(const SandboxListModel &model) {
    QString all;
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c) {
            for (int role :
                 {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(SandboxListModel::DetailRole)})
                all += model.index(r, c).data(role).toString() + QLatin1Char('\n');
        }
    }
    return all;
}

} // namespace

class TestSandboxListModel final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void liveStatesFromRealServers();
    void onlyTheChangedRowEmitsDataChanged();
};

void TestSandboxListModel::liveStatesFromRealServers() {
    const QString key = u"model-test-api-key-123"_s;
    TestServer remote;
    QVERIFY2(remote.start(TestServer::withApiKey(key)), qPrintable(remote.error()));

    QSettings settings(m_dir.filePath(u"s.conf"_s), QSettings::IniFormat);
    MemorySecretStore secrets;
    SavedEndpoints saved(&settings, &secrets);
    LocalSandboxes local(&settings, {QStringLiteral(SBX_SERVER_BINARY), m_dir.filePath(u"data"_s)});
    SandboxRegistry registry;
    SandboxListModel model(&registry);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    registry.setPollInterval(500);
    registry.addProvider(&local);
    registry.addProvider(&saved);

    const QString localId = local.ensureDefault();
    const QString goodId = saved.add({QString(),
                                      u"Remote"_s,
                                      {remote.url(), {}},
                                      {Credentials::Kind::ApiKey, key},
                                      SandboxState::Online,
                                      {}});
    const QString badId = saved.add({QString(),
                                     u"Wrong key"_s,
                                     {remote.url(), {}},
                                     {Credentials::Kind::ApiKey, u"not-the-key-456"_s},
                                     SandboxState::Online,
                                     {}});
    QCOMPARE(model.rowCount(), 3);

    QTRY_COMPARE_WITH_TIMEOUT(stateOf(model, localId), SandboxState::Online, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(model, goodId), SandboxState::Online, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(model, badId), SandboxState::AuthFailed, 10000);
    const int goodRow = model.rowOf(goodId);
    QCOMPARE(model.index(goodRow, SandboxListModel::StateColumn).data().toString(), u"online"_s);
    QVERIFY(!model.index(goodRow, SandboxListModel::VersionColumn).data().toString().isEmpty());
    QVERIFY(
        model.index(goodRow, SandboxListModel::LatencyColumn).data().toString().endsWith(u" ms"_s));
    QCOMPARE(model.index(goodRow, SandboxListModel::ProviderColumn).data().toString(), u"Saved"_s);
    // The server reports its usage through /v1/sandbox/observe: with nothing running in the
    // sandbox it is idle; with a process, CPU and memory figures show.
    const auto usageOf = [&model, goodRow] {
        return model.index(goodRow, SandboxListModel::UsageColumn).data().toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(usageOf(), u"idle"_s, 15000);
    BashExecRequest sleeper;
    sleeper.command = u"sleep 60"_s;
    auto *job = new BashExecJob(registry.client(goodId), sleeper);
    QSignalSpy started(job, &BashExecJob::succeeded);
    job->start();
    QVERIFY(started.wait(15000));
    registry.probe(goodId);
    QTRY_VERIFY2_WITH_TIMEOUT(QRegularExpression(u"^\\d+ % · \\d+"_s).match(usageOf()).hasMatch(),
                              qPrintable(usageOf()), 15000);
    // The failing one shows none.
    QVERIFY(
        model.index(model.rowOf(badId), SandboxListModel::UsageColumn).data().toString().isEmpty());
    QCOMPARE(model.index(goodRow, SandboxListModel::UrlColumn).data().toString(),
             remote.url().toString());
    QVERIFY(registry.lastError(badId).startsWith(u"Wrong API key"_s));

    // Killing the local sandbox's process turns its row unreachable.
    QSignalSpy stateChanges(&registry, &SandboxRegistry::stateChanged);
    ::kill(static_cast<pid_t>(local.processId(localId)), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(model, localId), SandboxState::Unreachable, 10000);
    QVERIFY(!stateChanges.isEmpty());
    QCOMPARE(stateChanges.last().at(0).toString(), localId);

    // A remote that goes away turns unreachable too, with the reason.
    remote.kill();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(model, goodId), SandboxState::Unreachable, 10000);
    QVERIFY2(registry.lastError(goodId).contains(u"Connection refused"_s),
             qPrintable(registry.lastError(goodId)));

    // No secret is ever shown.
    const QString shown = everythingShown(model);
    QVERIFY(!shown.contains(key));
    QVERIFY(!shown.contains(u"not-the-key-456"_s));
}

void TestSandboxListModel::onlyTheChangedRowEmitsDataChanged() {
    QSettings settings(m_dir.filePath(u"s2.conf"_s), QSettings::IniFormat);
    MemorySecretStore secrets;
    SavedEndpoints saved(&settings, &secrets);
    SandboxRegistry registry;
    SandboxListModel model(&registry);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    registry.setPollInterval(3600 * 1000);
    registry.addProvider(&saved);
    const QString a = saved.add(
        {QString(), u"A"_s, {QUrl(u"http://127.0.0.1:9"_s), {}}, {}, SandboxState::Online, {}});
    const QString b = saved.add(
        {QString(), u"B"_s, {QUrl(u"http://127.0.0.1:9"_s), {}}, {}, SandboxState::Online, {}});
    QTRY_COMPARE(stateOf(model, a), SandboxState::Unreachable);
    QTRY_COMPARE(stateOf(model, b), SandboxState::Unreachable);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    SandboxEntry renamed = registry.entry(b);
    renamed.name = u"B renamed"_s;
    saved.update(renamed);
    QVERIFY(!changed.isEmpty());
    for (const QList<QVariant> &args : std::as_const(changed)) {
        QCOMPARE(args.at(0).toModelIndex().row(), model.rowOf(b));
        QCOMPARE(args.at(1).toModelIndex().row(), model.rowOf(b));
    }
    QCOMPARE(model.index(model.rowOf(b), 0).data().toString(), u"B renamed"_s);

    // A probe that finds nothing new changes nothing: wait for both probes to be answered.
    changed.clear();
    QSignalSpy probedA(registry.client(a), &SandboxClient::trafficLogged);
    QSignalSpy probedB(registry.client(b), &SandboxClient::trafficLogged);
    registry.probeAll();
    QTRY_VERIFY(probedA.count() == 1 && probedB.count() == 1);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(reset.count(), 0);

    // A JWT close to its expiry is flagged in the list.
    const QByteArray claims = QByteArray("{\"exp\":") +
                              QByteArray::number(QDateTime::currentSecsSinceEpoch() + 150) + "}";
    const QString token = u"eyJhbGciOiJSUzI1NiJ9."_s +
                          QString::fromLatin1(claims.toBase64(QByteArray::Base64UrlEncoding |
                                                              QByteArray::OmitTrailingEquals)) +
                          u".c2ln"_s;
    SandboxEntry withJwt = registry.entry(b);
    withJwt.credentials = {Credentials::Kind::Jwt, token};
    saved.update(withJwt);
    const QModelIndex state = model.index(model.rowOf(b), SandboxListModel::StateColumn);
    QVERIFY(state.data(SandboxListModel::ExpiryWarningRole).toBool());
    QVERIFY2(state.data().toString().contains(u"JWT expires in 2 min"_s),
             qPrintable(state.data().toString()));
    QVERIFY(!everythingShown(model).contains(token));

    saved.forget(a);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rowOf(a), -1);
}

QTEST_MAIN(TestSandboxListModel)
#include "tst_sandboxlistmodel.moc"
