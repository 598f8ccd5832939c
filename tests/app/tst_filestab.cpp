// The Files tab as a user drives it: files and a whole folder dropped from the desktop arrive in
// the sandbox with their structure and sizes, and show in the tree.
#include "client/api/filejobs.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/transferqueuemodel.h"
#include "models/logs/logdata.h"
#include "tests/support/localfiles.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/sudosandbox.h"
#include "tests/support/testserver.h"
#include "tests/support/transfers.h"
#include "widgets/common/preferences.h"
#include "widgets/files/dragout.h"
#include "widgets/files/filestab.h"
#include "widgets/files/fileviewer.h"
#include "widgets/files/remotetreeview.h"
#include "widgets/files/transferpanel.h"
#include "widgets/logs/logview.h"
#include "widgets/logs/logwindow.h"
#include "widgets/workspace/tabregistry.h"

#include <QDir>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// Drags urls over the view and drops them at pos, as the desktop's drag and drop does.
void dropUrls(QWidget *viewport, const QList<QUrl> &urls, const QPoint &pos) {
    QMimeData mime;
    mime.setUrls(urls);
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &enter);
    QDragMoveEvent move(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &move);
    QVERIFY(move.isAccepted());
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &drop);
    QVERIFY(drop.isAccepted());
}

QModelIndex rowNamed(QAbstractItemModel *model, const QString &name,
                     const QModelIndex &parent = {}) {
    for (int r = 0; r < model->rowCount(parent); ++r) {
        if (model->index(r, 0, parent).data().toString() == name)
            return model->index(r, 0, parent);
    }
    return {};
}

// Answers the tab's name-conflict questions with resolver, given the name each one names.
void answerConflicts(ScriptedPrompts &prompts, FilesTab::ConflictResolver resolver) {
    prompts.chooseAnswer = [resolver](const ScriptedPrompts::Question &q, bool *applyToAll) {
        const QString name = q.text.section(QChar(0x201C), 1).section(QChar(0x201D), 0, 0);
        bool ignored = false;
        const FilesTab::Conflict choice = resolver(name, applyToAll ? applyToAll : &ignored);
        return choice == FilesTab::Conflict::Cancel ? -1 : static_cast<int>(choice);
    };
}

// A tab showing the server's workspace, listed.
std::unique_ptr<FilesTab> shownTab(SandboxClient *client) {
    auto tab = std::make_unique<FilesTab>(client);
    tab->resize(900, 700);
    tab->show();
    if (!QTest::qWaitForWindowExposed(tab.get()))
        return nullptr;
    for (QDeadlineTimer d(10000);
         !d.hasExpired() && (tab->folder().isEmpty() || tab->model()->isLoading());)
        QTest::qWait(10);
    return tab;
}

} // namespace

class TestFilesTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    QTemporaryDir m_desktop;

private Q_SLOTS:
    void initTestCase();
    void droppedFilesAndFoldersArrive();
    void nameConflictsAreSettledAsTheUserSays();
    void textViewerReadsEditsAndGuardsAgainstChanges();
    void foldersDownloadWithTheirStructure();
    void dragOutFetchesSmallFilesThroughTheQueue();
    void permissionDeniedOffersSudoOnlyWhereTheSandboxHasIt();
    void refusedFolderIsListedThroughSudo();
    void refusedDownloadIsStagedThroughSudo();
    void parallelTransfersFollowPreferences();
    void openAsLogFollowsTheFileInTheLogWindow();
};

void TestFilesTab::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestFilesTab::droppedFilesAndFoldersArrive() {
    SandboxClient client({m_server.url(), {}}, {});
    FilesTab tab(&client);
    tab.resize(900, 700);
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QTRY_COMPARE_WITH_TIMEOUT(tab.folder(), m_server.workspace(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!tab.model()->isLoading(), 10000);

    const QString single = m_desktop.filePath(u"single file.txt"_s);
    writeFile(single, 50);
    const QString folder = m_desktop.filePath(u"project"_s);
    writeFile(folder + u"/readme.md"_s, 100);
    writeFile(folder + u"/src/deep/main.c"_s, 5000);
    QDir().mkpath(folder + u"/empty"_s);

    // Dropped on the empty area below the rows: into the folder shown.
    QWidget *viewport = tab.view()->viewport();
    dropUrls(viewport, {QUrl::fromLocalFile(single), QUrl::fromLocalFile(folder)},
             QPoint(viewport->width() / 2, viewport->height() - 5));
    const QString ws = m_server.workspace();
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + u"/project/src/deep/main.c"_s).size(), 5000, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + u"/single file.txt"_s).size(), 50, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + u"/project/readme.md"_s).size(), 100, 20000);
    QVERIFY(QFileInfo(ws + u"/project/empty"_s).isDir());

    // The tree shows them, with their sizes.
    QAbstractItemModel *shown = tab.view()->model();
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"single file.txt"_s).isValid(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"project"_s).isValid(), 10000);
    const QModelIndex file = rowNamed(shown, u"single file.txt"_s);
    QCOMPARE(file.siblingAtColumn(RemoteFileModel::SizeColumn)
                 .data(RemoteFileModel::SizeRole)
                 .toLongLong(),
             50);
    for (int row = 0; row < tab.transfers()->rowCount(); ++row)
        QTRY_COMPARE_WITH_TIMEOUT(tab.transfers()->state(row), TransferQueueModel::State::Done,
                                  10000);

    // Dropped onto a folder's row: into that folder.
    const QModelIndex project = rowNamed(shown, u"project"_s);
    const QRect rect = tab.view()->visualRect(project);
    const QString another = m_desktop.filePath(u"another.txt"_s);
    writeFile(another, 7);
    dropUrls(viewport, {QUrl::fromLocalFile(another)}, rect.center());
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + u"/project/another.txt"_s).size(), 7, 20000);
}

void TestFilesTab::nameConflictsAreSettledAsTheUserSays() {
    SandboxClient client({m_server.url(), {}}, {});
    FilesTab tab(&client);
    ScriptedPrompts prompts;
    tab.setPrompts(&prompts);
    const QString ws = m_server.workspace();
    const QString folder = ws + u"/conflicts"_s;
    QDir().mkpath(folder);
    writeFile(folder + u"/a.txt"_s, 1);
    writeFile(folder + u"/b.txt"_s, 1);
    writeFile(m_desktop.filePath(u"c/a.txt"_s), 10);
    writeFile(m_desktop.filePath(u"c/b.txt"_s), 20);
    const QList<QUrl> both{QUrl::fromLocalFile(m_desktop.filePath(u"c/a.txt"_s)),
                           QUrl::fromLocalFile(m_desktop.filePath(u"c/b.txt"_s))};
    QStringList asked;
    auto answer = [&asked](FilesTab::Conflict choice, bool all) {
        return [&asked, choice, all](const QString &name, bool *applyToAll) {
            asked << name;
            *applyToAll = all;
            return choice;
        };
    };

    answerConflicts(prompts, answer(FilesTab::Conflict::KeepBoth, true));
    tab.upload(both, folder);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + u"/b (2).txt"_s).size(), 20, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + u"/a (2).txt"_s).size(), 10, 20000);
    QCOMPARE(asked, QStringList{u"a.txt"_s}); // "apply to all" asked once
    QCOMPARE(QFileInfo(folder + u"/a.txt"_s).size(), 1);

    asked.clear();
    answerConflicts(prompts, answer(FilesTab::Conflict::Skip, false));
    const int queued = tab.transfers()->rowCount();
    tab.upload({both.first()}, folder);
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 10000);
    QCOMPARE(tab.transfers()->rowCount(), queued); // skipped: nothing was queued
    QCOMPARE(QFileInfo(folder + u"/a.txt"_s).size(), 1);

    answerConflicts(prompts, answer(FilesTab::Conflict::Overwrite, false));
    tab.upload({both.first()}, folder);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + u"/a.txt"_s).size(), 10, 20000);
}

void TestFilesTab::textViewerReadsEditsAndGuardsAgainstChanges() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    const QString path = m_server.workspace() + u"/notes.txt"_s;
    writeFile(path, 0);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("first line\nsecond ünïcode line\n");
    }
    tab->model()->refresh();
    QAbstractItemModel *shown = tab->view()->model();
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"notes.txt"_s).isValid(), 10000);

    // Enter on a file opens it, read-only.
    tab->view()->setCurrentIndex(rowNamed(shown, u"notes.txt"_s));
    QTest::keyClick(tab->view(), Qt::Key_Return);
    QTRY_COMPARE(tab->findChildren<FileViewer *>().size(), 1);
    FileViewer *viewer = tab->findChildren<FileViewer *>().first();
    QTRY_COMPARE_WITH_TIMEOUT(viewer->editor()->toPlainText(),
                              u"first line\nsecond ünïcode line\n"_s, 10000);
    QVERIFY(viewer->editor()->isReadOnly());
    QVERIFY(!viewer->isEditing());

    // Edit and save: the sandbox has the new text.
    viewer->setEditing(true);
    viewer->editor()->setPlainText(u"rewritten\n"_s);
    QSignalSpy saved(viewer, &FileViewer::saved);
    viewer->save();
    QVERIFY(saved.wait(10000));
    QCOMPARE(readAll(path), QByteArray("rewritten\n"));
    QVERIFY(!viewer->isModified());

    // Someone changes it on the server: saving asks, and Cancel writes nothing.
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("changed by an agent\n");
    }
    QStringList asked;
    ScriptedPrompts prompts;
    viewer->setPrompts(&prompts);
    prompts.chooseAnswer = [&asked](const ScriptedPrompts::Question &q, bool *) {
        asked << q.text;
        return -1; // Cancel
    };
    // Typed by the user (setPlainText would not count as a change).
    viewer->editor()->selectAll();
    viewer->editor()->insertPlainText(u"mine\n"_s);
    viewer->save();
    QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 10000);
    QVERIFY(asked.first().contains(u"changed on the server"_s));
    QCOMPARE(readAll(path), QByteArray("changed by an agent\n"));
    QVERIFY(viewer->isModified()); // nothing lost either

    // Overwrite is the user's explicit choice.
    prompts.chooseAnswer = [](const ScriptedPrompts::Question &, bool *) {
        return 0; // Overwrite
    };
    viewer->save();
    QVERIFY(saved.wait(10000));
    QCOMPARE(readAll(path), QByteArray("mine\n"));
    viewer->close();

    // A CRLF file keeps its line endings through an edit.
    const QString dos = m_server.workspace() + u"/dos.txt"_s;
    {
        QFile f(dos);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("one\r\ntwo\r\n");
    }
    FileViewer *crlf = tab->openViewer(dos);
    QSignalSpy loaded(crlf, &FileViewer::loaded);
    QVERIFY(loaded.wait(10000));
    crlf->setEditing(true);
    crlf->editor()->moveCursor(QTextCursor::End);
    crlf->editor()->insertPlainText(u"three\n"_s);
    QSignalSpy crlfSaved(crlf, &FileViewer::saved);
    crlf->save();
    QVERIFY(crlfSaved.wait(10000));
    QCOMPARE(readAll(dos), QByteArray("one\r\ntwo\r\nthree\r\n"));
    crlf->close();
}

void TestFilesTab::foldersDownloadWithTheirStructure() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    const QString remote = m_server.workspace() + u"/results"_s;
    writeFile(remote + u"/summary.txt"_s, 11);
    writeFile(remote + u"/logs/run 1/out.log"_s, 3000);
    writeFile(remote + u"/.hidden"_s, 2);
    QDir().mkpath(remote + u"/empty"_s);
    QTemporaryDir into;
    RemoteFileInfo folder;
    folder.path = remote;
    folder.isDirectory = true;
    tab->download({folder}, into.path());
    const QString local = into.filePath(u"results"_s);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(local + u"/logs/run 1/out.log"_s).size(), 3000, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(allTransfersDone(tab->transfers()), 20000);
    QCOMPARE(QFileInfo(local + u"/summary.txt"_s).size(), 11);
    QCOMPARE(QFileInfo(local + u"/.hidden"_s).size(), 2);
    QVERIFY(QFileInfo(local + u"/empty"_s).isDir());

    // "Show in folder" opens the download's local folder; for an upload, the remote one.
    QString opened;
    tab->transferPanel()->setLocalFolderOpener([&opened](const QString &f) { opened = f; });
    int row = -1;
    for (int r = 0; r < tab->transfers()->rowCount(); ++r) {
        if (tab->transfers()->index(r, 0).data(TransferQueueModel::RemotePathRole).toString() ==
            QString(remote + u"/logs/run 1/out.log"_s))
            row = r;
    }
    QVERIFY(row >= 0);
    tab->transferPanel()->showInFolder(row);
    QCOMPARE(opened, local + u"/logs/run 1"_s);
    const int up =
        tab->transfers()->enqueueUpload(local + u"/summary.txt"_s, remote + u"/logs/copy.txt"_s);
    QTRY_COMPARE_WITH_TIMEOUT(tab->transfers()->state(up), TransferQueueModel::State::Done, 20000);
    tab->transferPanel()->showInFolder(up);
    QCOMPARE(tab->folder(), remote + u"/logs"_s);

    // Downloading again asks about the existing local folder; "keep both" renames.
    ScriptedPrompts prompts;
    tab->setPrompts(&prompts);
    answerConflicts(prompts, [](const QString &, bool *) { return FilesTab::Conflict::KeepBoth; });
    RemoteFileInfo summary;
    summary.path = remote + u"/summary.txt"_s;
    tab->download({summary}, local);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(local + u"/summary (2).txt"_s).size(), 11, 20000);

    // Two items of one batch with the same name never land on one local file.
    writeFile(remote + u"/a/same.txt"_s, 5);
    writeFile(remote + u"/b/same.txt"_s, 6);
    RemoteFileInfo first, second;
    first.path = remote + u"/a/same.txt"_s;
    second.path = remote + u"/b/same.txt"_s;
    QTemporaryDir batch;
    tab->download({first, second}, batch.path());
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(batch.filePath(u"same.txt"_s)).size(), 5, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(batch.filePath(u"same (2).txt"_s)).size(), 6, 20000);
}

void TestFilesTab::dragOutFetchesSmallFilesThroughTheQueue() {
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    const QString ws = m_server.workspace();
    QByteArray content;
    for (int i = 0; i < 70000; ++i)
        content += char('a' + i % 26);
    QDir().mkpath(ws + u"/drag"_s);
    {
        QFile f(ws + u"/drag/report.csv"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        QFile big(ws + u"/drag/big.bin"_s);
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(RemoteDragData::kMaxFileSize)); // sparse, 64 MiB
    }
    tab->setFolder(ws + u"/drag"_s);
    QAbstractItemModel *shown = tab->view()->model();
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"big.bin"_s).isValid(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"report.csv"_s).isValid(), 10000);

    std::unique_ptr<QMimeData> data(tab->dragData({rowNamed(shown, u"report.csv"_s)}));
    QVERIFY(data);
    // The drag describes the remote file at once...
    QVERIFY(data->hasFormat(QString::fromLatin1(RemoteFileModel::kMimeType)));
    QVERIFY(
        data->data(QString::fromLatin1(RemoteFileModel::kMimeType)).contains("/drag/report.csv"));
    QVERIFY(data->hasUrls());
    // ...and the drop gets a local copy, fetched through the transfer queue.
    const QList<QUrl> urls = data->urls();
    QCOMPARE(urls.size(), 1);
    QVERIFY(urls.first().isLocalFile());
    QCOMPARE(readAll(urls.first().toLocalFile()), content);
    QCOMPARE(tab->transfers()->rowCount(), 1);
    QCOMPARE(tab->transfers()->state(0), TransferQueueModel::State::Done);

    // 64 MiB and more, or a folder: refused, pointing to Download…
    QVERIFY(!tab->dragData({rowNamed(shown, u"big.bin"_s)}));
    QVERIFY2(tab->errorText().contains(u"Download…"_s), qPrintable(tab->errorText()));
    QCOMPARE(tab->transfers()->rowCount(), 1);
    tab->setFolder(ws);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, u"drag"_s).isValid(), 10000);
    QVERIFY(!tab->dragData({rowNamed(shown, u"drag"_s)}));
    QVERIFY(tab->errorText().contains(u"is a folder"_s));
}

void TestFilesTab::permissionDeniedOffersSudoOnlyWhereTheSandboxHasIt() {
    if (::access("/proc/sys/vm/compact_memory", F_OK) != 0)
        QSKIP("/proc/sys/vm/compact_memory is absent: no file here refuses every reader");
    const QString denied = u"/proc/sys/vm/compact_memory"_s;
    {
        // sandbox-server cannot elevate and says so: the error is shown, without an offer.
        SandboxClient client({m_server.url(), {}}, {});
        auto tab = shownTab(&client);
        QVERIFY(tab);
        FileViewer *viewer = tab->openViewer(denied);
        QSignalSpy failed(viewer, &FileViewer::failed);
        QVERIFY(failed.wait(10000));
        QVERIFY2(viewer->errorText().contains(u"Could not read"_s),
                 qPrintable(viewer->errorText()));
        QVERIFY(!viewer->sudoOffered());
        viewer->close();
    }
#ifdef SBX_FILESTEST_BINARY
    // A sandbox that has sudo (this test build claims `file-sudo`): the offer appears, and
    // taking it sends the same request with sudo, which this server answers honestly.
    TestServer sudoServer;
    TestServer::Options options;
    options.binary = QStringLiteral(SBX_FILESTEST_BINARY);
    QVERIFY2(sudoServer.start(options), qPrintable(sudoServer.error()));
    SandboxClient client({sudoServer.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    FileViewer *viewer = tab->openViewer(denied);
    QSignalSpy failed(viewer, &FileViewer::failed);
    QVERIFY(failed.wait(10000));
    QVERIFY(viewer->sudoOffered());
    viewer->retryWithSudo();
    QVERIFY(failed.wait(10000));
    QVERIFY2(viewer->errorText().contains(u"cannot elevate"_s), qPrintable(viewer->errorText()));
    QVERIFY(!viewer->sudoOffered()); // offered once
    viewer->close();

    // Operations run through exec offer it too.
    ScriptedPrompts prompts; // goes ahead
    tab->setPrompts(&prompts);
    QSignalSpy done(tab.get(), &FilesTab::operationFinished);
    tab->remove({denied});
    QVERIFY(done.wait(20000));
    QVERIFY2(tab->sudoOffered(), qPrintable(tab->errorText()));
    tab->retryWithSudo();
    QVERIFY(done.wait(20000));
    QVERIFY2(tab->errorText().contains(u"sudo"_s), qPrintable(tab->errorText()));
#endif
}

// AIO's FileListRequest has no `sudo`: a folder the sandbox user may not list is listed
// through `sudo -n` in the exec session instead, into the same rows.
void TestFilesTab::refusedFolderIsListedThroughSudo() {
    SudoSandbox sandbox;
    SBX_START_SUDO_SANDBOX(sandbox);
    const QString secret = sandbox.server.workspace() + u"/root-only"_s;
    writeFile(secret + u"/a.txt"_s, 5);
    writeFile(secret + u"/quote'\"s and spaces.txt"_s, 7);
    writeFile(secret + u"/new\nline.txt"_s, 1);
    writeFile(secret + u"/.hidden"_s, 2);
    writeFile(secret + u"/sub/inner.txt"_s, 3000);
    SandboxClient client({sandbox.server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    tab->setFolder(secret);
    QTRY_VERIFY_WITH_TIMEOUT(!tab->errorText().isEmpty(), 10000);
    QVERIFY2(tab->errorText().contains(u"ermission denied"_s), qPrintable(tab->errorText()));
    QVERIFY(tab->sudoOffered());

    tab->retryWithSudo();
    RemoteFileModel *model = tab->model();
    QTRY_VERIFY2_WITH_TIMEOUT(rowNamed(model, u"a.txt"_s).isValid(), qPrintable(tab->errorText()),
                              20000);
    QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading(), 10000);
    QCOMPARE(model->rowCount(), 5);
    QCOMPARE(rowNamed(model, u"a.txt"_s).data(RemoteFileModel::SizeRole).toLongLong(), 5);
    QCOMPARE(
        rowNamed(model, u"quote'\"s and spaces.txt"_s).data(RemoteFileModel::SizeRole).toLongLong(),
        7);
    QVERIFY(rowNamed(model, u"new\nline.txt"_s).isValid());
    QVERIFY(rowNamed(model, u".hidden"_s).isValid());
    const QModelIndex sub = rowNamed(model, u"sub"_s);
    QVERIFY(sub.data(RemoteFileModel::IsDirectoryRole).toBool());
    QCOMPARE(sub.data(RemoteFileModel::PathRole).toString(), secret + u"/sub"_s);
    QVERIFY(tab->errorText().isEmpty());
    QVERIFY(readAll(sandbox.sudoLog()).startsWith("-n "));

    // A folder below it is listed the same way when it is opened.
    model->fetchMore(sub);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(model, u"inner.txt"_s, sub).isValid(), 20000);
    QCOMPARE(rowNamed(model, u"inner.txt"_s, sub).data(RemoteFileModel::SizeRole).toLongLong(),
             3000);
}

// GET /v1/file/download has no `sudo`: a download the sandbox refused (403, permission
// denied, which is no authentication failure) is offered again through sudo, which copies
// the file to /tmp for the sandbox user; that copy is downloaded and removed.
void TestFilesTab::refusedDownloadIsStagedThroughSudo() {
    SudoSandbox sandbox;
    SBX_START_SUDO_SANDBOX(sandbox);
    const QString remote = sandbox.server.workspace() + u"/root-only/secret.bin"_s;
    writeFile(remote, 300 * 1024 + 7);
    SandboxClient client({sandbox.server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    QTemporaryDir desktop;
    RemoteFileInfo item;
    item.path = remote;
    tab->download({item}, desktop.path());
    QTRY_VERIFY_WITH_TIMEOUT(tab->transfers()->rowCount() == 1 &&
                                 tab->transfers()->state(0) == TransferQueueModel::State::Failed,
                             20000);
    QVERIFY2(tab->errorText().contains(u"ermission denied"_s), qPrintable(tab->errorText()));
    QVERIFY2(!tab->errorText().contains(u"API key"_s), qPrintable(tab->errorText()));
    QVERIFY(tab->sudoOffered());

    tab->retryWithSudo();
    const QString local = desktop.filePath(u"secret.bin"_s);
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(local).size(), 300 * 1024 + 7, 20000);
    QCOMPARE(readAll(local), readAll(remote));
    QVERIFY(readAll(sandbox.sudoLog()).contains("cp"));
    // The staged copy does not stay behind in the sandbox's /tmp.
    QTRY_VERIFY_WITH_TIMEOUT(
        QDir(u"/tmp"_s)
            .entryList({u".sandbox-console-download-*"_s}, QDir::Files | QDir::Hidden)
            .isEmpty(),
        10000);
    QVERIFY(tab->errorText().isEmpty());
}

void TestFilesTab::parallelTransfersFollowPreferences() {
    SandboxClient client({m_server.url(), {}}, {});
    PreferencesHub hub;
    Preferences p;
    p.parallelTransfers = 3;
    hub.set(p);
    FilesTab tab(&client, &hub);
    QCOMPARE(tab.transfers()->maxParallel(), 3);
    p.parallelTransfers = 1;
    hub.set(p);
    QCOMPARE(tab.transfers()->maxParallel(), 1);
    QCOMPARE(tab.pendingTransfers(), 0);
}

void TestFilesTab::openAsLogFollowsTheFileInTheLogWindow() {
    const QString remote = m_server.workspace() + u"/agent.log"_s;
    writeFile(remote, 0);
    {
        QFile f(remote);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("started\nstep 1\n");
    }
    ScriptedPrompts prompts;
    LogWindow window(&prompts);
    // The console's LogOpener is its main window; here the log window stands in for it.
    struct Opener final : LogOpener {
        LogWindow *window;
        void openLog(const QString &key, const QString &title,
                     std::function<LogSource *(QObject *)> open) override {
            window->openLog(key, title, std::move(open));
        }
    } opener;
    opener.window = &window;
    SandboxClient client({m_server.url(), {}}, {});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    tab->setLogOpener(&opener);
    tab->openAsLog(remote);
    QCOMPARE(window.tabs()->count(), 1);
    QCOMPARE(window.tabs()->tabText(0), u"agent.log"_s);
    LogView *log = window.view(0);
    QTRY_COMPARE_WITH_TIMEOUT(log->data()->lineCount(), 2, 10000);
    {
        QFile f(remote);
        QVERIFY(f.open(QIODevice::Append));
        f.write("step 2\n");
    }
    QTRY_COMPARE_WITH_TIMEOUT(log->data()->lineCount(), 3, 10000);
    QCOMPARE(log->data()->line(2), QByteArray("step 2"));
    // Opening it again shows the tab it has.
    tab->openAsLog(remote);
    QCOMPARE(window.tabs()->count(), 1);
}

QTEST_MAIN(TestFilesTab)
#include "tst_filestab.moc"
