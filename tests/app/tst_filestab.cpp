// The Files tab as a user drives it: files and a whole folder dropped from the desktop arrive in
// the sandbox with their structure and sizes, and show in the tree.
#include "client/sandboxclient.h"
#include "models/remotefilemodel.h"
#include "models/transferqueuemodel.h"
#include "tests/support/testserver.h"
#include "widgets/common/preferences.h"
#include "widgets/files/filestab.h"

#include <QDir>
#include <QMimeData>
#include <QTemporaryDir>
#include <QtTest>

namespace {

void writeFile(const QString &path, int size) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(size, 'z'));
}

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

} // namespace

class TestFilesTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    QTemporaryDir m_desktop;

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.error())); }

    void droppedFilesAndFoldersArrive() {
        SandboxClient client({m_server.url(), {}}, {});
        FilesTab tab(&client);
        tab.resize(900, 700);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QTRY_COMPARE_WITH_TIMEOUT(tab.folder(), m_server.workspace(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!tab.model()->isLoading(), 10000);

        const QString single = m_desktop.filePath(QStringLiteral("single file.txt"));
        writeFile(single, 50);
        const QString folder = m_desktop.filePath(QStringLiteral("project"));
        writeFile(folder + QStringLiteral("/readme.md"), 100);
        writeFile(folder + QStringLiteral("/src/deep/main.c"), 5000);
        QDir().mkpath(folder + QStringLiteral("/empty"));

        // Dropped on the empty area below the rows: into the folder shown.
        QWidget *viewport = tab.view()->viewport();
        dropUrls(viewport, {QUrl::fromLocalFile(single), QUrl::fromLocalFile(folder)},
                 QPoint(viewport->width() / 2, viewport->height() - 5));
        const QString ws = m_server.workspace();
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + QStringLiteral("/project/src/deep/main.c")).size(),
                                  5000, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + QStringLiteral("/single file.txt")).size(), 50,
                                  20000);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + QStringLiteral("/project/readme.md")).size(), 100,
                                  20000);
        QVERIFY(QFileInfo(ws + QStringLiteral("/project/empty")).isDir());

        // The tree shows them, with their sizes.
        QAbstractItemModel *shown = tab.view()->model();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, QStringLiteral("single file.txt")).isValid(),
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(shown, QStringLiteral("project")).isValid(), 10000);
        const QModelIndex file = rowNamed(shown, QStringLiteral("single file.txt"));
        QCOMPARE(file.siblingAtColumn(RemoteFileModel::SizeColumn)
                     .data(RemoteFileModel::SizeRole)
                     .toLongLong(),
                 50);
        for (int row = 0; row < tab.transfers()->rowCount(); ++row)
            QTRY_COMPARE_WITH_TIMEOUT(tab.transfers()->state(row), TransferQueueModel::State::Done,
                                      10000);

        // Dropped onto a folder's row: into that folder.
        const QModelIndex project = rowNamed(shown, QStringLiteral("project"));
        const QRect rect = tab.view()->visualRect(project);
        const QString another = m_desktop.filePath(QStringLiteral("another.txt"));
        writeFile(another, 7);
        dropUrls(viewport, {QUrl::fromLocalFile(another)}, rect.center());
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(ws + QStringLiteral("/project/another.txt")).size(), 7,
                                  20000);
    }

    void nameConflictsAreSettledAsTheUserSays() {
        SandboxClient client({m_server.url(), {}}, {});
        FilesTab tab(&client);
        const QString ws = m_server.workspace();
        const QString folder = ws + QStringLiteral("/conflicts");
        QDir().mkpath(folder);
        writeFile(folder + QStringLiteral("/a.txt"), 1);
        writeFile(folder + QStringLiteral("/b.txt"), 1);
        writeFile(m_desktop.filePath(QStringLiteral("c/a.txt")), 10);
        writeFile(m_desktop.filePath(QStringLiteral("c/b.txt")), 20);
        const QList<QUrl> both{QUrl::fromLocalFile(m_desktop.filePath(QStringLiteral("c/a.txt"))),
                               QUrl::fromLocalFile(m_desktop.filePath(QStringLiteral("c/b.txt")))};
        QStringList asked;
        auto answer = [&asked](FilesTab::Conflict choice, bool all) {
            return [&asked, choice, all](const QString &name, bool *applyToAll) {
                asked << name;
                *applyToAll = all;
                return choice;
            };
        };

        tab.setConflictResolver(answer(FilesTab::Conflict::KeepBoth, true));
        tab.upload(both, folder);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + QStringLiteral("/b (2).txt")).size(), 20,
                                  20000);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + QStringLiteral("/a (2).txt")).size(), 10,
                                  20000);
        QCOMPARE(asked, QStringList{QStringLiteral("a.txt")}); // "apply to all" asked once
        QCOMPARE(QFileInfo(folder + QStringLiteral("/a.txt")).size(), 1);

        asked.clear();
        tab.setConflictResolver(answer(FilesTab::Conflict::Skip, false));
        const int queued = tab.transfers()->rowCount();
        tab.upload({both.first()}, folder);
        QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 10000);
        QCOMPARE(tab.transfers()->rowCount(), queued); // skipped: nothing was queued
        QCOMPARE(QFileInfo(folder + QStringLiteral("/a.txt")).size(), 1);

        tab.setConflictResolver(answer(FilesTab::Conflict::Overwrite, false));
        tab.upload({both.first()}, folder);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(folder + QStringLiteral("/a.txt")).size(), 10, 20000);
    }

    void parallelTransfersFollowPreferences() {
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
};

QTEST_MAIN(TestFilesTab)
#include "tst_filestab.moc"
