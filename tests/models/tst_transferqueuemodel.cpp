// TransferQueueModel with real uploads and downloads against sandbox-server.
#include "client/sandboxclient.h"
#include "models/files/transferqueuemodel.h"
#include "tests/support/testserver.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

using State = TransferQueueModel::State;

class TestTransferQueueModel final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    QTemporaryDir m_local;

    QString makeLocal(const QString &name, int size) {
        const QString path = m_local.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray(size, 'x'));
        return path;
    }

private Q_SLOTS:
    void initTestCase();
    void runsABoundedNumberAtOnceAndFinishesAll();
    void failureSaysWhyAndRetryWorks();
    void cancelQueuedAndRunning();
};

void TestTransferQueueModel::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestTransferQueueModel::runsABoundedNumberAtOnceAndFinishesAll() {
    SandboxClient client({m_server.url(), {}}, {});
    TransferQueueModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.maxParallel(), 2);
    for (int i = 0; i < 4; ++i)
        model.enqueueUpload(makeLocal(u"up%1"_s.arg(i), 2 * 1024 * 1024 + i),
                            m_server.workspace() + u"/up%1"_s.arg(i));
    QCOMPARE(model.activeCount(), 2);
    QCOMPARE(model.state(0), State::Running);
    QCOMPARE(model.state(1), State::Running);
    QCOMPARE(model.state(2), State::Queued);
    QCOMPARE(model.state(3), State::Queued);
    for (int i = 0; i < 4; ++i)
        QTRY_COMPARE_WITH_TIMEOUT(model.state(i), State::Done, 20000);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(QFileInfo(m_server.workspace() + u"/up%1"_s.arg(i)).size(), 2 * 1024 * 1024 + i);
        QCOMPARE(model.index(i, 0).data(TransferQueueModel::BytesDoneRole).toLongLong(),
                 2 * 1024 * 1024 + i);
    }
    const int down =
        model.enqueueDownload(m_server.workspace() + u"/up3"_s, m_local.filePath(u"back3"_s));
    QTRY_COMPARE_WITH_TIMEOUT(model.state(down), State::Done, 20000);
    QCOMPARE(QFileInfo(m_local.filePath(u"back3"_s)).size(), 2 * 1024 * 1024 + 3);
}

void TestTransferQueueModel::failureSaysWhyAndRetryWorks() {
    SandboxClient client({m_server.url(), {}}, {});
    TransferQueueModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString missing = m_local.filePath(u"not-yet"_s);
    const int row = model.enqueueUpload(missing, m_server.workspace() + u"/later"_s);
    QTRY_COMPARE_WITH_TIMEOUT(model.state(row), State::Failed, 10000);
    QVERIFY2(model.error(row).contains(u"Cannot read"_s), qPrintable(model.error(row)));
    QVERIFY(model.index(row, TransferQueueModel::StateColumn)
                .data()
                .toString()
                .startsWith(u"failed: "_s));
    makeLocal(u"not-yet"_s, 1000);
    model.retry(row);
    QTRY_COMPARE_WITH_TIMEOUT(model.state(row), State::Done, 10000);
    QVERIFY(model.error(row).isEmpty());

    const int gone = model.enqueueDownload(m_server.workspace() + u"/no-such-file"_s,
                                           m_local.filePath(u"never"_s));
    QTRY_COMPARE_WITH_TIMEOUT(model.state(gone), State::Failed, 10000);
    QVERIFY(!model.error(gone).isEmpty());
    QVERIFY(!QFileInfo::exists(m_local.filePath(u"never"_s)));
    QVERIFY(!QFileInfo::exists(m_local.filePath(u"never.part"_s)));
}

void TestTransferQueueModel::cancelQueuedAndRunning() {
    SandboxClient client({m_server.url(), {}}, {});
    TransferQueueModel model(&client);
    model.setMaxParallel(1);
    const int first =
        model.enqueueUpload(makeLocal(u"c1"_s, 1 << 20), m_server.workspace() + u"/c1"_s);
    const int second =
        model.enqueueUpload(makeLocal(u"c2"_s, 1 << 20), m_server.workspace() + u"/c2"_s);
    QCOMPARE(model.state(second), State::Queued);
    model.cancel(second);
    QCOMPARE(model.state(second), State::Cancelled);
    model.cancel(first);
    QCOMPARE(model.state(first), State::Cancelled);
    QCOMPARE(model.activeCount(), 0);
    model.retry(second);
    QTRY_COMPARE_WITH_TIMEOUT(model.state(second), State::Done, 10000);
    QCOMPARE(model.state(first), State::Cancelled);
}

QTEST_GUILESS_MAIN(TestTransferQueueModel)
#include "tst_transferqueuemodel.moc"
