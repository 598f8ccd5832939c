// The Files tab live: files a shell in the sandbox creates, grows, renames and removes show in
// the tree without a refresh and in the Events view (filterable, click reveals); events lost to
// an overflow relist the tree; a sandbox without file watch says so and still refreshes; the
// watcher goes with the tab. Plus the poll answer's parsing, as AIO's rows give it.
#include "client/api/bashjobs.h"
#include "client/api/filewatch.h"
#include "client/sandboxclient.h"
#include "models/files/fileeventmodel.h"
#include "models/files/remotefilemodel.h"
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"
#include "widgets/files/fileeventsview.h"
#include "widgets/files/filestab.h"
#include "widgets/files/remotetreeview.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QJsonArray>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// Runs a command in the sandbox, as an agent would, and waits for it to end.
bool sandboxShell(SandboxClient *client, const QString &command) {
    BashExecRequest request;
    request.command = command;
    request.asyncMode = false;
    auto *job = new BashExecJob(client, request);
    bool ok = false;
    QObject::connect(job, &BashExecJob::succeeded, job,
                     [&ok](const BashCommandState &s) { ok = s.exitCode == 0; });
    QSignalSpy done(job, &Job::finished);
    job->start();
    return done.wait(20000) && ok;
}

qint64 sizeIn(RemoteFileModel *model, const QString &path) {
    const QModelIndex index = model->indexForPath(path);
    return index.isValid() ? index.data(RemoteFileModel::SizeRole).toLongLong() : -2;
}

QStringList eventTypes(FileEventModel *events, const QString &path) {
    QStringList types;
    for (int row = events->rowCount() - 1; row >= 0; --row) {
        if (events->change(row)->path == path)
            types << events->change(row)->type;
    }
    return types;
}

} // namespace

class TestFilesWatch final : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<FilesTab> shownTab(SandboxClient *client, const QString &folder) {
        auto tab = std::make_unique<FilesTab>(client);
        tab->resize(1100, 700);
        tab->show();
        if (!QTest::qWaitForWindowExposed(tab.get()))
            return nullptr;
        tab->setFolder(folder);
        QDeadlineTimer deadline(15000);
        while (!deadline.hasExpired() &&
               !(tab->watch() && tab->watch()->state() == FileWatch::State::Live))
            QTest::qWait(10);
        return tab->watch() && tab->watch()->state() == FileWatch::State::Live ? std::move(tab)
                                                                               : nullptr;
    }

private Q_SLOTS:
    void pollAnswersParseAsAioSendsThem();
    void treeFollowsAShellWithoutRefresh();
    void eventsFilterAndReveal();
    void overflowRelistsTheTree();
    void sandboxWithoutWatchSaysSoAndStillRefreshes();
    void watcherGoesWithTheTab();
};

void TestFilesWatch::pollAnswersParseAsAioSendsThem() {
    const auto [status, batch] = parseFileWatchBatch(
        R"({"events":[{"seq":3,"type":"rename","path":"/w/b","old_path":"/w/a","is_dir":0,)"
        R"("timestamp":1700000000.5,"mtime":1700000000,"size":12,"inode":9,"watcher_id":"x"},)"
        R"({"seq":4,"type":"create","path":"/w/d","is_dir":true}],"cursor":4,"overflow":false})");
    QVERIFY(status.ok());
    QCOMPARE(batch.changes.size(), 2);
    QCOMPARE(batch.changes[0].oldPath, u"/w/a"_s);
    QVERIFY(!batch.changes[0].isDirectory);
    QCOMPARE(batch.changes[0].size, 12);
    QCOMPARE(batch.changes[0].time.toMSecsSinceEpoch(), 1700000000500LL);
    QVERIFY(batch.changes[1].isDirectory);
    QCOMPARE(batch.cursor, 4);
    const auto [bad, none] = parseFileWatchBatch("[1,2]");
    QVERIFY(!bad.ok());
    const auto [noEvents, empty] = parseFileWatchBatch(R"({"cursor":1})");
    QCOMPARE(noEvents.kind, Status::Kind::BadResponse);
}

void TestFilesWatch::treeFollowsAShellWithoutRefresh() {
    TestServer server;
    QVERIFY(server.start());
    SandboxClient client({server.url(), {}}, {});
    const QString root = server.workspace() + u"/live"_s;
    QVERIFY(QDir().mkpath(root));
    auto tab = shownTab(&client, root);
    QVERIFY(tab);
    QAbstractItemModelTester tester(tab->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester eventsTester(tab->events(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    RemoteFileModel *model = tab->model();
    QVERIFY(tab->eventsView()->watchStateText().contains(u"live"_s));

    QVERIFY(sandboxShell(&client, u"cd '%1' && echo hello > notes.txt && mkdir sub"_s.arg(root)));
    QTRY_VERIFY_WITH_TIMEOUT(model->indexForPath(root + u"/notes.txt"_s).isValid(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(model->indexForPath(root + u"/sub"_s).isValid(), 10000);
    QVERIFY(model->isDirectory(model->indexForPath(root + u"/sub"_s)));
    QTRY_COMPARE_WITH_TIMEOUT(sizeIn(model, root + u"/notes.txt"_s), 6, 10000);

    // A file being written shows its growing size.
    QVERIFY(sandboxShell(&client, u"head -c 100000 /dev/zero >> '%1/notes.txt'"_s.arg(root)));
    QTRY_COMPARE_WITH_TIMEOUT(sizeIn(model, root + u"/notes.txt"_s), 100006, 10000);

    QVERIFY(sandboxShell(&client, u"mv '%1/notes.txt' '%1/renamed.txt'"_s.arg(root)));
    QTRY_VERIFY_WITH_TIMEOUT(model->indexForPath(root + u"/renamed.txt"_s).isValid(), 10000);
    QVERIFY(!model->indexForPath(root + u"/notes.txt"_s).isValid());
    QCOMPARE(sizeIn(model, root + u"/renamed.txt"_s), 100006);

    QVERIFY(sandboxShell(&client, u"rm '%1/renamed.txt'"_s.arg(root)));
    QTRY_VERIFY_WITH_TIMEOUT(!model->indexForPath(root + u"/renamed.txt"_s).isValid(), 10000);

    // Nested: the new folder, once opened, follows too.
    const QModelIndex sub = tab->view()->model()->index(0, 0);
    Q_UNUSED(sub);
    model->fetchMore(model->indexForPath(root + u"/sub"_s));
    QTRY_VERIFY(!model->isLoading());
    QVERIFY(sandboxShell(&client, u"echo deep > '%1/sub/deep.log'"_s.arg(root)));
    QTRY_VERIFY_WITH_TIMEOUT(model->indexForPath(root + u"/sub/deep.log"_s).isValid(), 10000);

    // The Events view has each change, in order.
    const QStringList notes = eventTypes(tab->events(), root + u"/notes.txt"_s);
    QVERIFY2(notes.first() == "create"_L1, qPrintable(notes.join(u',')));
    QVERIFY(notes.contains(u"write"_s));
    const QStringList renamed = eventTypes(tab->events(), root + u"/renamed.txt"_s);
    QCOMPARE(renamed.first(), u"rename"_s);
    QCOMPARE(renamed.last(), u"remove"_s);
}

void TestFilesWatch::eventsFilterAndReveal() {
    TestServer server;
    QVERIFY(server.start());
    SandboxClient client({server.url(), {}}, {});
    const QString root = server.workspace() + u"/filter"_s;
    QVERIFY(QDir().mkpath(root));
    auto tab = shownTab(&client, root);
    QVERIFY(tab);
    QVERIFY(sandboxShell(&client, u"cd '%1' && touch a.txt b.log && rm a.txt"_s.arg(root)));
    QTRY_COMPARE_WITH_TIMEOUT(eventTypes(tab->events(), root + u"/a.txt"_s).size(), 2, 10000);
    FileEventsView *view = tab->eventsView();
    view->setTypeFilter(u"remove"_s);
    QCOMPARE(view->filter()->rowCount(), 1);
    QCOMPARE(view->filter()->index(0, 0).data(FileEventModel::PathRole).toString(),
             root + u"/a.txt"_s);
    view->setTypeFilter(QString());
    view->setPathFilter(u"b.lo"_s);
    QCOMPARE(view->filter()->rowCount(), 1);
    // Activating the row selects the file in the tree.
    QSignalSpy reveal(view, &FileEventsView::revealRequested);
    const QModelIndex row = view->filter()->index(0, 0);
    view->list()->setCurrentIndex(row);
    emit view->list()->activated(row);
    QCOMPARE(reveal.count(), 1);
    QTRY_COMPARE(tab->view()->currentIndex().data(RemoteFileModel::PathRole).toString(),
                 root + u"/b.log"_s);
}

void TestFilesWatch::overflowRelistsTheTree() {
    TestServer server;
    QVERIFY(server.start(TestServer::Options{}.set(u"AIO_FILE_WATCH_BUFFER_SIZE"_s, u"5"_s)));
    SandboxClient client({server.url(), {}}, {});
    const QString root = server.workspace() + u"/burst"_s;
    QVERIFY(QDir().mkpath(root));
    auto tab = shownTab(&client, root);
    QVERIFY(tab);
    // 200 files in one debounce window overrun the server's buffer of 5 events.
    QVERIFY(sandboxShell(
        &client, u"cd '%1' && for i in $(seq 1 200); do echo $i > f$i.txt; done"_s.arg(root)));
    QTRY_COMPARE_WITH_TIMEOUT(tab->model()->rowCount(), 200, 20000);
    QVERIFY(!eventTypes(tab->events(), QString()).isEmpty());
    QCOMPARE(eventTypes(tab->events(), QString()).first(), u"overflow"_s);
    for (int i = 1; i <= 200; i += 37)
        QVERIFY(tab->model()->indexForPath(root + u"/f%1.txt"_s.arg(i)).isValid());
}

void TestFilesWatch::sandboxWithoutWatchSaysSoAndStillRefreshes() {
    TestServer older;
    QVERIFY(older.start(TestServer::withArgs({u"--without"_s, u"watch"_s})));
    SandboxClient client({older.url(), {}}, {});
    auto tab = std::make_unique<FilesTab>(&client);
    tab->show();
    const QString root = older.workspace() + u"/plain"_s;
    QVERIFY(QDir().mkpath(root));
    tab->setFolder(root);
    QTRY_VERIFY_WITH_TIMEOUT(tab->watch() && tab->watch()->state() == FileWatch::State::Unavailable,
                             15000);
    QVERIFY(tab->eventsView()->watchStateText().contains(u"no file watch"_s));
    QVERIFY(sandboxShell(&client, u"touch '%1/made.txt'"_s.arg(root)));
    tab->model()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(tab->model()->indexForPath(root + u"/made.txt"_s).isValid(), 10000);
}

void TestFilesWatch::watcherGoesWithTheTab() {
    TestServer server;
    QVERIFY(server.start());
    SandboxClient client({server.url(), {}}, {});
    const auto watchers = [&server] {
        int running = 0;
        const QJsonArray list =
            request("GET", server.url(u"/v1/file/watch"_s)).json().value(u"data"_s).toArray();
        for (const QJsonValue &w : list)
            running += w.toObject().value(u"status"_s) == u"running"_s;
        return running;
    };
    {
        auto tab = shownTab(&client, server.workspace());
        QVERIFY(tab);
        QCOMPARE(watchers(), 1);
    }
    QTRY_COMPARE_WITH_TIMEOUT(watchers(), 0, 10000);
}

QTEST_MAIN(TestFilesWatch)
#include "tst_fileswatch.moc"
