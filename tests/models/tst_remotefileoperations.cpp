// RemoteFileOperations with no window, against a real sandbox-server: folder uploads keep their
// tree, conflicts do what the answer says, folder downloads recreate the tree, drags refuse what
// they cannot carry, and a permission denial offers sudo only where the sandbox has it.
#include "client/api/filejobs.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/remotefileoperations.h"
#include "models/files/transferqueuemodel.h"
#include "tests/support/localfiles.h"
#include "tests/support/sudosandbox.h"
#include "tests/support/testserver.h"
#include "tests/support/transfers.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace sbx;
using namespace sbxtest;

using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 20000;

// A resolver that answers every question with choice and records the names asked about.
RemoteFileOperations::ConflictResolver
answer(QStringList *asked, RemoteFileOperations::Conflict choice, bool all = false) {
    return [asked, choice, all](const QString &name, bool *applyToAll) {
        *asked << name;
        *applyToAll = all;
        return choice;
    };
}

// Runs one upload to the point where its files are queued, and returns how many were.
int uploadAndWait(RemoteFileOperations &ops, const QStringList &local, const QString &remote) {
    QSignalSpy queued(&ops, &RemoteFileOperations::uploadQueued);
    ops.upload(local, remote);
    if (!queued.wait(kTimeoutMs))
        return -1;
    return queued.first().first().toInt();
}

} // namespace

class TestRemoteFileOperations final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    QTemporaryDir m_desktop;

private Q_SLOTS:
    void initTestCase();
    void uploadedFolderKeepsItsTree();
    void conflictsDoWhatTheAnswerSays();
    void folderDownloadRecreatesTheTree();
    void dragOutRefusesFoldersAndLargeFiles();
    void permissionDeniedWithoutSudoIsReportedWithoutAnOffer();
    void permissionDeniedWithSudoIsOfferedAndRetried();
};

void TestRemoteFileOperations::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestRemoteFileOperations::uploadedFolderKeepsItsTree() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    const QString folder = m_desktop.filePath(u"tree"_s);
    writeFile(folder + u"/readme.md"_s, 100);
    writeFile(folder + u"/src/deep/main.c"_s, 5000);
    writeFile(folder + u"/src/.hidden"_s, 3);
    writeFile(folder + u"/with space/it's.txt"_s, 9);
    QDir().mkpath(folder + u"/empty/inner"_s);

    QCOMPARE(uploadAndWait(ops, {folder}, m_server.workspace()), 4);
    QTRY_VERIFY_WITH_TIMEOUT(allTransfersDone(ops.transfers()), kTimeoutMs);
    const QString remote = m_server.workspace() + u"/tree"_s;
    QCOMPARE(QFileInfo(remote + u"/readme.md"_s).size(), 100);
    QCOMPARE(QFileInfo(remote + u"/src/deep/main.c"_s).size(), 5000);
    QCOMPARE(QFileInfo(remote + u"/src/.hidden"_s).size(), 3);
    QCOMPARE(QFileInfo(remote + u"/with space/it's.txt"_s).size(), 9);
    QVERIFY(QFileInfo(remote + u"/empty/inner"_s).isDir());
}

void TestRemoteFileOperations::conflictsDoWhatTheAnswerSays() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    const QString folder = m_server.workspace() + u"/conflicts"_s;
    writeFile(folder + u"/a.txt"_s, 1);
    writeFile(folder + u"/b.txt"_s, 1);
    const QString a = m_desktop.filePath(u"c/a.txt"_s);
    const QString b = m_desktop.filePath(u"c/b.txt"_s);
    const QString fresh = m_desktop.filePath(u"c/fresh.txt"_s);
    writeFile(a, 10);
    writeFile(b, 20);
    writeFile(fresh, 30);
    QStringList asked;

    // Keep both, for all: both renamed, asked once, the originals untouched.
    ops.setConflictResolver(answer(&asked, RemoteFileOperations::Conflict::KeepBoth, true));
    QCOMPARE(uploadAndWait(ops, {a, b}, folder), 2);
    QTRY_VERIFY_WITH_TIMEOUT(allTransfersDone(ops.transfers()), kTimeoutMs);
    QCOMPARE(QFileInfo(folder + u"/a (2).txt"_s).size(), 10);
    QCOMPARE(QFileInfo(folder + u"/b (2).txt"_s).size(), 20);
    QCOMPARE(asked, QStringList{u"a.txt"_s});
    QCOMPARE(QFileInfo(folder + u"/a.txt"_s).size(), 1);

    // Skip: nothing queued for that name; the others of the batch still go.
    asked.clear();
    ops.setConflictResolver(answer(&asked, RemoteFileOperations::Conflict::Skip));
    int rows = ops.transfers()->rowCount();
    QCOMPARE(uploadAndWait(ops, {a, fresh}, folder), 1);
    QCOMPARE(asked, QStringList{u"a.txt"_s});
    QCOMPARE(ops.transfers()->rowCount(), rows + 1);
    QTRY_VERIFY_WITH_TIMEOUT(allTransfersDone(ops.transfers()), kTimeoutMs);
    QCOMPARE(QFileInfo(folder + u"/a.txt"_s).size(), 1);
    QCOMPARE(QFileInfo(folder + u"/fresh.txt"_s).size(), 30);

    // Cancel: the whole batch stops, a free name in it included.
    asked.clear();
    ops.setConflictResolver(answer(&asked, RemoteFileOperations::Conflict::Cancel));
    const QString other = m_desktop.filePath(u"c/other.txt"_s);
    writeFile(other, 40);
    rows = ops.transfers()->rowCount();
    QCOMPARE(uploadAndWait(ops, {b, other}, folder), 0);
    QCOMPARE(asked, QStringList{u"b.txt"_s});
    QCOMPARE(ops.transfers()->rowCount(), rows);
    QVERIFY(!QFileInfo::exists(folder + u"/other.txt"_s));

    // Overwrite: the sandbox's file is replaced.
    ops.setConflictResolver(answer(&asked, RemoteFileOperations::Conflict::Overwrite));
    QCOMPARE(uploadAndWait(ops, {a}, folder), 1);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + u"/a.txt"_s).size(), 10, kTimeoutMs);

    // No resolver at all touches nothing.
    ops.setConflictResolver({});
    rows = ops.transfers()->rowCount();
    QCOMPARE(uploadAndWait(ops, {b}, folder), 0);
    QCOMPARE(ops.transfers()->rowCount(), rows);

    // Downloads settle local names the same way.
    QTemporaryDir into;
    writeFile(into.filePath(u"a.txt"_s), 2);
    asked.clear();
    ops.setConflictResolver(answer(&asked, RemoteFileOperations::Conflict::Skip));
    RemoteFileInfo item;
    item.path = folder + u"/a.txt"_s;
    rows = ops.transfers()->rowCount();
    ops.download({item}, into.path());
    QCOMPARE(asked, QStringList{u"a.txt"_s});
    QCOMPARE(ops.transfers()->rowCount(), rows);
    QCOMPARE(QFileInfo(into.filePath(u"a.txt"_s)).size(), 2);
}

void TestRemoteFileOperations::folderDownloadRecreatesTheTree() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    const QString remote = m_server.workspace() + u"/results"_s;
    writeFile(remote + u"/summary.txt"_s, 11);
    writeFile(remote + u"/logs/run 1/out.log"_s, 3000);
    writeFile(remote + u"/.hidden"_s, 2);
    QDir().mkpath(remote + u"/empty"_s);
    QTemporaryDir into;
    RemoteFileInfo folder;
    folder.path = remote;
    folder.isDirectory = true;

    QSignalSpy queued(&ops, &RemoteFileOperations::downloadQueued);
    ops.download({folder}, into.path());
    QVERIFY(queued.wait(kTimeoutMs));
    QCOMPARE(queued.first().first().toInt(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(allTransfersDone(ops.transfers()), kTimeoutMs);
    const QString local = into.filePath(u"results"_s);
    QCOMPARE(readAll(local + u"/summary.txt"_s), readAll(remote + u"/summary.txt"_s));
    QCOMPARE(QFileInfo(local + u"/logs/run 1/out.log"_s).size(), 3000);
    QCOMPARE(QFileInfo(local + u"/.hidden"_s).size(), 2);
    QVERIFY(QFileInfo(local + u"/empty"_s).isDir());
}

void TestRemoteFileOperations::dragOutRefusesFoldersAndLargeFiles() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    const QString ws = m_server.workspace();
    writeFile(ws + u"/drag/report.csv"_s, 70000);

    const DragOut folder = ops.prepareDrag({{ws + u"/drag"_s, true, 0}});
    QVERIFY(!folder.status.ok());
    QVERIFY2(folder.status.message.contains(u"is a folder"_s), qPrintable(folder.status.message));
    QVERIFY(folder.status.message.contains(u"Download…"_s));
    QVERIFY(folder.localFiles.isEmpty());

    // One refused item refuses the drag: nothing is fetched for the others.
    const DragOut big =
        ops.prepareDrag({{ws + u"/drag/report.csv"_s, false, 70000},
                         {ws + u"/drag/big.bin"_s, false, RemoteFileOperations::kMaxDragSize}});
    QVERIFY(!big.status.ok());
    QVERIFY2(big.status.message.contains(u"Download…"_s), qPrintable(big.status.message));
    QCOMPARE(ops.transfers()->rowCount(), 0);

    const DragOut small = ops.prepareDrag({{ws + u"/drag/report.csv"_s, false, 70000}});
    QVERIFY(small.status.ok());
    QCOMPARE(small.localFiles.size(), 1);
    QCOMPARE(QFileInfo(small.localFiles.first()).fileName(), u"report.csv"_s);
    QCOMPARE(ops.transfers()->rowCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(ops.transfers()->state(0), TransferQueueModel::State::Done,
                              kTimeoutMs);
    QCOMPARE(readAll(small.localFiles.first()), readAll(ws + u"/drag/report.csv"_s));
}

void TestRemoteFileOperations::permissionDeniedWithoutSudoIsReportedWithoutAnOffer() {
    // Mode 0200 in /proc/sys: refused even to root, which these tests run as.
    const QString denied = u"/proc/sys/vm/compact_memory"_s;
    if (::access(denied.toLocal8Bit().constData(), F_OK) != 0)
        QSKIP("/proc/sys/vm/compact_memory is absent: no file here refuses every reader");
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    QSignalSpy loaded(&ops, &RemoteFileOperations::contextLoaded);
    ops.loadContext();
    QVERIFY(loaded.wait(kTimeoutMs));
    QVERIFY(!ops.canSudo()); // sandbox-server cannot elevate, and says so

    QSignalSpy failed(&ops, &RemoteFileOperations::failed);
    QTemporaryDir into;
    RemoteFileInfo item;
    item.path = denied;
    ops.download({item}, into.path());
    QVERIFY(failed.wait(kTimeoutMs));
    const auto status = failed.first().first().value<Status>();
    QCOMPARE(status.errorType, u"permission_denied"_s);
    QVERIFY2(status.message.contains(u"ermission denied"_s), qPrintable(status.message));
    QVERIFY(!ops.sudoOffered());
}

void TestRemoteFileOperations::permissionDeniedWithSudoIsOfferedAndRetried() {
    SudoSandbox sandbox;
    SBX_START_SUDO_SANDBOX(sandbox);
    const QString secret = sandbox.server.workspace() + u"/root-only"_s;
    writeFile(secret + u"/secret.bin"_s, 300 * 1024 + 7);
    SandboxClient client({sandbox.server.url(), {}}, {});
    RemoteFileOperations ops(&client);
    QSignalSpy loaded(&ops, &RemoteFileOperations::contextLoaded);
    ops.loadContext();
    QVERIFY(loaded.wait(kTimeoutMs));
    QVERIFY(ops.canSudo());

    // A folder the sandbox user may not list: offered, and listed as root when taken.
    QSignalSpy failed(&ops, &RemoteFileOperations::failed);
    ops.openFolder(secret);
    QVERIFY(failed.wait(kTimeoutMs));
    QCOMPARE(failed.last().first().value<Status>().errorType, u"permission_denied"_s);
    QVERIFY(ops.sudoOffered());
    ops.retryWithSudo();
    QVERIFY(!ops.sudoOffered()); // offered once
    QTRY_COMPARE_WITH_TIMEOUT(ops.model()->rowCount(), 1, kTimeoutMs);
    QCOMPARE(ops.model()->index(0, 0).data().toString(), u"secret.bin"_s);

    // A file the sandbox user may not download: staged through /tmp by sudo when taken.
    QTemporaryDir into;
    RemoteFileInfo item;
    item.path = secret + u"/secret.bin"_s;
    failed.clear();
    ops.download({item}, into.path());
    QVERIFY(failed.wait(kTimeoutMs));
    QCOMPARE(failed.last().first().value<Status>().errorType, u"permission_denied"_s);
    QVERIFY(ops.sudoOffered());
    ops.retryWithSudo();
    const QString local = into.filePath(u"secret.bin"_s);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(local).size(), 300 * 1024 + 7, kTimeoutMs);
    QCOMPARE(readAll(local), readAll(item.path));
    QVERIFY(readAll(sandbox.sudoLog()).contains("cp"));
    // The staged copy does not stay behind in the sandbox's /tmp (nor does its removal race the
    // next operation's failure below).
    QTRY_VERIFY_WITH_TIMEOUT(
        QDir(u"/tmp"_s)
            .entryList({u".sandbox-console-download-*"_s}, QDir::Files | QDir::Hidden)
            .isEmpty(),
        kTimeoutMs);

    // Refused as root too: reported, with nothing more to offer.
    const QString undeletable = u"/proc/sys/vm/compact_memory"_s;
    if (::access(undeletable.toLocal8Bit().constData(), F_OK) != 0)
        QSKIP("/proc/sys/vm/compact_memory is absent: no file here refuses root");
    failed.clear();
    ops.remove({undeletable});
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY(ops.sudoOffered());
    ops.retryWithSudo();
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY(!ops.sudoOffered());
}

QTEST_MAIN(TestRemoteFileOperations)
#include "tst_remotefileoperations.moc"
