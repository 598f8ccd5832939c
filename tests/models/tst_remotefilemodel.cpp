// RemoteFileModel over a real sandbox-server: lazy listing, big folders, refresh that keeps rows.
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"

#include <QAbstractItemModelTester>
#include <QCollator>
#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

void touch(const QString &path) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("x");
}

QModelIndex childNamed(const RemoteFileModel &model, const QModelIndex &parent,
                       const QString &name) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        if (i.data().toString() == name)
            return i;
    }
    return {};
}

// Waits until folderListed was emitted for path (a tester or view may list other folders too).
bool waitListed(QSignalSpy &spy, const QString &path) {
    auto seen = [&] {
        for (const QList<QVariant> &args : std::as_const(spy)) {
            if (args.first().toString() == path)
                return true;
        }
        return false;
    };
    QDeadlineTimer deadline(20000);
    while (!seen() && !deadline.hasExpired())
        spy.wait(200);
    const bool ok = seen();
    spy.clear();
    return ok;
}

// Shows root in the model and waits until it is listed (spy records folderListed).
bool listRoot(RemoteFileModel &model, const QString &root, QSignalSpy &spy) {
    model.setRootPath(root);
    return waitListed(spy, root);
}

} // namespace

class TestRemoteFileModel final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void listsLazilyOncePerFolder();
    void unexpandedFoldersAreNotListed();
    void refreshKeepsRowsThatStayed();
    void refreshRemovesScatteredRows();
    void refreshReplacingEveryRow();
    void bigFolderArrivesAtOnce();
    void refreshWithManyNewRows();
    void changeDuringARefreshListsAgain();
    void slowListingShowsItsFirstRowsEarly();
    void rowsKeepTheViewsOrder();
    void sortingKeepsSelectionAndExpansion();
    void mimeDataDescribesRemoteItems();
    void failedListingIsReported();
};

void TestRemoteFileModel::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    const QString ws = m_server.workspace();
    QDir().mkpath(ws + u"/tree/a/deep"_s);
    QDir().mkpath(ws + u"/tree/b"_s);
    QDir().mkpath(ws + u"/tree/empty"_s);
    touch(ws + u"/tree/a/one.txt"_s);
    touch(ws + u"/tree/b/two.txt"_s);
    touch(ws + u"/tree/top.txt"_s);
}

void TestRemoteFileModel::listsLazilyOncePerFolder() {
    SandboxClient client({m_server.url(), {}}, {});
    QSignalSpy requests(&client, &SandboxClient::trafficLogged);
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, m_server.workspace() + u"/tree"_s, listed));
    QCOMPARE(model.rowCount(), 4);

    const QModelIndex a = childNamed(model, {}, u"a"_s);
    const QModelIndex b = childNamed(model, {}, u"b"_s);
    const QModelIndex empty = childNamed(model, {}, u"empty"_s);
    const QModelIndex top = childNamed(model, {}, u"top.txt"_s);
    QVERIFY(a.isValid() && b.isValid() && empty.isValid() && top.isValid());
    // Unlisted folders say they have children; files do not.
    QVERIFY(!model.hasChildren(top));
    // Each folder is listed once, only when asked for (here by the model tester, which
    // expands everything it can, as a view does for the folders a user opens).
    QTRY_VERIFY(!model.isLoading());
    // Five folders (the root, a, a/deep, b, empty), each listed exactly once.
    QCOMPARE(requests.count(), 5);
    QCOMPARE(model.rowCount(a), 2);
    QVERIFY(!model.canFetchMore(a));
    QVERIFY(!model.hasChildren(empty)); // listed and empty: no expander any more
    Q_UNUSED(b);
}

void TestRemoteFileModel::unexpandedFoldersAreNotListed() {
    SandboxClient client({m_server.url(), {}}, {});
    QSignalSpy requests(&client, &SandboxClient::trafficLogged);
    RemoteFileModel model(&client);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, m_server.workspace() + u"/tree"_s, listed));
    QCOMPARE(requests.count(), 1);
    const QModelIndex a = childNamed(model, {}, u"a"_s);
    const QModelIndex empty = childNamed(model, {}, u"empty"_s);
    const QModelIndex top = childNamed(model, {}, u"top.txt"_s);
    QVERIFY(model.hasChildren(a));
    QVERIFY(model.hasChildren(empty));
    QVERIFY(model.canFetchMore(a));
    QCOMPARE(model.rowCount(a), 0);
    model.fetchMore(a); // expanding "a"
    model.fetchMore(a); // a second expand while it is listed asks nothing more
    QVERIFY(waitListed(listed, model.pathOf(a)));
    QCOMPARE(model.rowCount(a), 2);
    QCOMPARE(requests.count(), 2); // "b" and "empty" were never expanded, so never listed
    model.fetchMore(empty);
    QVERIFY(waitListed(listed, model.pathOf(empty)));
    QVERIFY(!model.hasChildren(empty)); // listed and empty: no expander any more
    QCOMPARE(model.index(top.row(), RemoteFileModel::SizeColumn)
                 .data(RemoteFileModel::SizeRole)
                 .toLongLong(),
             1);
}

void TestRemoteFileModel::refreshKeepsRowsThatStayed() {
    const QString root = m_server.workspace() + u"/tree"_s;
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, root, listed));
    const QPersistentModelIndex a = childNamed(model, {}, u"a"_s);
    model.fetchMore(a);
    QTRY_VERIFY(!model.isLoading());
    listed.clear();
    const QPersistentModelIndex deep = childNamed(model, a, u"deep"_s);
    QVERIFY(deep.isValid());

    touch(root + u"/new.txt"_s);
    QFile::remove(root + u"/top.txt"_s);
    model.refresh();
    QVERIFY(waitListed(listed, root));
    QVERIFY(childNamed(model, {}, u"new.txt"_s).isValid());
    QVERIFY(!childNamed(model, {}, u"top.txt"_s).isValid());
    // The folder that stayed is the same row, with its listed children (expansion survives).
    QVERIFY(a.isValid() && deep.isValid());
    QCOMPARE(model.rowCount(a), 2);
    QCOMPARE(model.indexForPath(root + u"/a/deep"_s), QModelIndex(deep));
    touch(root + u"/top.txt"_s);
    QFile::remove(root + u"/new.txt"_s);
}

void TestRemoteFileModel::refreshRemovesScatteredRows() {
    const QString root = m_server.workspace() + u"/scattered"_s;
    QDir().mkpath(root + u"/d3"_s);
    for (int i = 0; i < 10; ++i) {
        if (i != 3)
            touch(root + u"/f%1"_s.arg(i));
    }
    touch(root + u"/d3/inner.txt"_s);
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, root, listed));
    QTRY_VERIFY(!model.isLoading());
    QVERIFY(model.indexForPath(root + u"/d3/inner.txt"_s).isValid());
    // Rows gone in three separate ranges, one of them a listed folder.
    for (const char *name : {"f1", "f2", "f5", "f9"})
        QFile::remove(root + QLatin1Char('/') + QLatin1String(name));
    QDir(root + u"/d3"_s).removeRecursively();
    model.refresh();
    QVERIFY(waitListed(listed, root));
    QTRY_VERIFY(!model.isLoading());
    QStringList names;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex at = model.index(r, 0);
        names << at.data().toString();
        // Every row knows its place: its path finds it, and its parent is the root.
        QCOMPARE(model.indexForPath(model.pathOf(at)), at);
        QCOMPARE(model.parent(at), QModelIndex());
    }
    names.sort();
    QCOMPARE(names, QStringList({u"f0"_s, u"f4"_s, u"f6"_s, u"f7"_s, u"f8"_s}));
    QVERIFY(!model.indexForPath(root + u"/f5"_s).isValid());
    QVERIFY(!model.indexForPath(root + u"/d3/inner.txt"_s).isValid());
}

void TestRemoteFileModel::refreshReplacingEveryRow() {
    const QString root = m_server.workspace() + u"/replaced"_s;
    QDir().mkpath(root);
    for (int i = 0; i < 5; ++i)
        touch(root + u"/old%1"_s.arg(i));
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, root, listed));
    QCOMPARE(model.rowCount(), 5);
    for (int i = 0; i < 5; ++i) {
        QFile::remove(root + u"/old%1"_s.arg(i));
        touch(root + u"/new%1"_s.arg(i));
    }
    model.refresh();
    QVERIFY(waitListed(listed, root));
    QCOMPARE(model.rowCount(), 5);
    // Rows that all arrived in a refresh are found by their paths as a first listing's are.
    for (int i = 0; i < 5; ++i) {
        const QModelIndex at = model.indexForPath(root + u"/new%1"_s.arg(i));
        QVERIFY2(at.isValid(), qPrintable(u"new%1"_s.arg(i)));
        QCOMPARE(at.data().toString(), u"new%1"_s.arg(i));
    }
    QVERIFY(!model.indexForPath(root + u"/old0"_s).isValid());
}

void TestRemoteFileModel::bigFolderArrivesAtOnce() {
    const QString dir = m_server.workspace() + u"/big"_s;
    QDir().mkpath(dir);
    for (int i = 0; i < 25000; ++i)
        QFile(dir + u"/f%1"_s.arg(i)).open(QIODevice::WriteOnly);
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, dir, listed));
    QCOMPARE(model.rowCount(), 25000);
    // Built on a worker as the rows arrived, inserted up to 100 000 rows a turn of the event
    // loop (a slow machine may have shown a preview of single rows first).
    QList<int> chunks;
    for (const QList<QVariant> &args : std::as_const(inserted)) {
        const int rows = args.at(2).toInt() - args.at(1).toInt() + 1;
        if (rows > 1)
            chunks << rows;
    }
    QCOMPARE(chunks, QList<int>({25000}));
    QVERIFY(!model.isLoading());
    for (int i : {0, 12345, 24999})
        QCOMPARE(model.indexForPath(dir + u"/f%1"_s.arg(i)).data().toString(), u"f%1"_s.arg(i));
    // A refresh of the same folder (matched on the worker) changes nothing a view sees.
    inserted.clear();
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.refresh();
    QVERIFY(waitListed(listed, dir));
    QCOMPARE(model.rowCount(), 25000);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(changed.count(), 0);
    // One gone, one new, one grown: each seen as such, the rest kept.
    const QPersistentModelIndex kept = model.indexForPath(dir + u"/f500"_s);
    QFile::remove(dir + u"/f7"_s);
    touch(dir + u"/zz-new"_s);
    touch(dir + u"/f100"_s);
    model.refresh();
    QVERIFY(waitListed(listed, dir));
    QCOMPARE(model.rowCount(), 25000);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QVERIFY(!model.indexForPath(dir + u"/f7"_s).isValid());
    QVERIFY(model.indexForPath(dir + u"/zz-new"_s).isValid());
    QCOMPARE(model.indexForPath(dir + u"/f100"_s).data(RemoteFileModel::SizeRole).toLongLong(), 1);
    QVERIFY(kept.isValid());
    QCOMPARE(QModelIndex(kept), model.indexForPath(dir + u"/f500"_s));
}

// More new rows than a partial refresh places one by one (64): every row gets its node and the
// listing's rank, and the rows stay in the collator's order, with the old ones kept.
void TestRemoteFileModel::refreshWithManyNewRows() {
    const QString dir = m_server.workspace() + u"/grown"_s;
    QDir().mkpath(dir);
    for (int i = 0; i < 6000; ++i)
        QFile(dir + u"/f%1"_s.arg(i)).open(QIODevice::WriteOnly);
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, dir, listed));
    QCOMPARE(model.rowCount(), 6000);
    const QPersistentModelIndex kept = model.indexForPath(dir + u"/f4321"_s);
    for (int i = 0; i < 300; ++i)
        touch(dir + u"/F-new-%1"_s.arg(i)); // a capital: collated among the old ones
    QFile::remove(dir + u"/f10"_s);
    touch(dir + u"/f11"_s);
    model.refresh();
    QVERIFY(waitListed(listed, dir));
    QCOMPARE(model.rowCount(), 6299);
    QVERIFY(kept.isValid());
    QCOMPARE(QModelIndex(kept), model.indexForPath(dir + u"/f4321"_s));
    QVERIFY(!model.indexForPath(dir + u"/f10"_s).isValid());
    QCOMPARE(model.indexForPath(dir + u"/f11"_s).data(RemoteFileModel::SizeRole).toLongLong(), 1);
    QCollator collator;
    for (int r = 1; r < model.rowCount(); ++r) {
        const QString before = model.index(r - 1, 0).data().toString();
        const QString after = model.index(r, 0).data().toString();
        QVERIFY2(collator.compare(before, after) <= 0, qPrintable(before + u" > "_s + after));
    }
    for (int i : {0, 150, 299})
        QVERIFY(model.indexForPath(dir + u"/F-new-%1"_s.arg(i)).isValid());
}

// A file change that reaches the folder while its refresh is on the way: the refresh, matched
// against rows as they were, is not applied over it; the folder is listed again and ends as the
// sandbox has it.
void TestRemoteFileModel::changeDuringARefreshListsAgain() {
    const QString dir = m_server.workspace() + u"/raced"_s;
    QDir().mkpath(dir);
    for (int i = 0; i < 20000; ++i)
        QFile(dir + u"/f%1"_s.arg(i)).open(QIODevice::WriteOnly);
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, dir, listed));
    QFile::remove(dir + u"/f5"_s);
    touch(dir + u"/zz-late"_s);
    model.refresh();
    // As the file watch would report it, before the refresh's answer is in.
    FileChange gone;
    gone.type = u"remove"_s;
    gone.path = dir + u"/f5"_s;
    model.applyChanges({gone});
    QVERIFY(!model.indexForPath(dir + u"/f5"_s).isValid());
    QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), 20000);
    int listings = 0;
    for (const QList<QVariant> &args : std::as_const(listed))
        listings += args.first().toString() == dir ? 1 : 0;
    QCOMPARE(listings, 2); // the refresh, not applied, and the listing after it
    QCOMPARE(model.rowCount(), 20000);
    QVERIFY(model.indexForPath(dir + u"/zz-late"_s).isValid());
    QVERIFY(model.indexForPath(dir + u"/f19999"_s).isValid());
    QVERIFY(!model.indexForPath(dir + u"/f5"_s).isValid());
}

// A far sandbox (25 ms each way, 512 bytes per 10 ms): rows show while the listing still arrives,
// in order; then the listing replaces them, all of it, and nothing is left loading.
void TestRemoteFileModel::slowListingShowsItsFirstRowsEarly() {
    const QString dir = m_server.workspace() + u"/slow"_s;
    QDir().mkpath(dir);
    for (int i = 0; i < 3000; ++i)
        QFile(dir + u"/n%1"_s.arg(i, 4, 10, QChar(u'0'))).open(QIODevice::WriteOnly);
    FaultProxy proxy(m_server.port());
    QVERIFY(proxy.listen());
    proxy.setLatency(25);
    proxy.setBytesPerTick(512);
    SandboxClient client({proxy.url(), {}}, {});
    RemoteFileModel model(&client);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    model.setRootPath(dir);
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() > 0 || !listed.isEmpty(), 20000);
    QVERIFY2(listed.isEmpty(), "the listing came whole: no preview to see");
    QVERIFY(model.isLoading());
    const int shown = model.rowCount();
    QVERIFY(shown <= 400);
    for (int row = 1; row < shown; ++row)
        QVERIFY(model.index(row - 1, 0).data().toString() < model.index(row, 0).data().toString());
    QVERIFY(waitListed(listed, dir));
    QCOMPARE(model.rowCount(), 3000);
    QCOMPARE(model.index(0, 0).data().toString(), u"n0000"_s);
    QCOMPARE(model.index(2999, 0).data().toString(), u"n2999"_s);
    QVERIFY(!model.isLoading());
}

void TestRemoteFileModel::rowsKeepTheViewsOrder() {
    const QString root = m_server.workspace() + u"/collated"_s;
    const QStringList files = {u"b.txt"_s, u"A.txt"_s,         u"a10"_s,
                               u"a2"_s,    u"\u00c9t\u00e9"_s, u"_x"_s,
                               u"Zeta"_s,  u"\u4e2d\u6587"_s,  u"e"_s};
    const QStringList folders = {u"zdir"_s, u"Bdir"_s};
    QDir().mkpath(root);
    for (const QString &f : files)
        touch(root + u'/' + f);
    for (const QString &d : folders)
        QDir().mkpath(root + u'/' + d);
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, root, listed));
    // Folders first, each group as QCollator orders it, whether a row came with the listing
    // (ranked) or from a file change (compared by name).
    const auto expected = [](QStringList dirs, QStringList names) {
        const QCollator collator;
        const auto less = [&](const QString &a, const QString &b) {
            return collator.compare(a, b) < 0;
        };
        std::sort(dirs.begin(), dirs.end(), less);
        std::sort(names.begin(), names.end(), less);
        return dirs + names;
    };
    const auto shown = [&] {
        QStringList names;
        for (int r = 0; r < model.rowCount(); ++r)
            names << model.index(r, 0).data().toString();
        return names;
    };
    QCOMPARE(shown(), expected(folders, files));
    FileChange created;
    created.type = u"create"_s;
    created.path = root + u"/a3"_s;
    created.size = 5;
    FileChange dir = created;
    dir.path = root + u"/Adir"_s;
    dir.isDirectory = true;
    model.applyChanges({created, dir});
    QCOMPARE(shown(), expected(folders + QStringList{u"Adir"_s}, files + QStringList{u"a3"_s}));
    model.sort(RemoteFileModel::NameColumn, Qt::DescendingOrder);
    QStringList down = expected(folders + QStringList{u"Adir"_s}, {});
    std::reverse(down.begin(), down.end());
    QStringList downFiles = expected({}, files + QStringList{u"a3"_s});
    std::reverse(downFiles.begin(), downFiles.end());
    // Descending: still folders first, each group reversed.
    QCOMPARE(shown(), down + downFiles);

    // By size, largest first, names breaking ties: a3 (5 bytes) leads the files, which are
    // 1 byte each; a file growing to 9 bytes moves to the top of them. (Folders stay first;
    // their own sizes are the server's.)
    const auto shownFiles = [&] {
        return shown().mid(folders.size() + 1);
    };
    model.sort(RemoteFileModel::SizeColumn, Qt::DescendingOrder);
    QCOMPARE(shownFiles(), QStringList{u"a3"_s} + expected({}, files));
    FileChange grew;
    grew.type = u"write"_s;
    grew.path = root + u"/e"_s;
    grew.size = 9;
    QSignalSpy moved(&model, &QAbstractItemModel::rowsMoved);
    model.applyChanges({grew});
    QCOMPARE(moved.count(), 1);
    QStringList rest = expected({}, files);
    rest.removeOne(u"e"_s);
    QCOMPARE(shownFiles(), QStringList({u"e"_s, u"a3"_s}) + rest);
    // A refresh takes what is on disk (every file 1 byte again, Adir and a3 never there) and
    // keeps the order.
    model.refresh();
    QVERIFY(waitListed(listed, root));
    QCOMPARE(shown().mid(folders.size()), expected({}, files));
}

void TestRemoteFileModel::sortingKeepsSelectionAndExpansion() {
    const QString root = m_server.workspace() + u"/resorted"_s;
    QDir().mkpath(root + u"/m-dir"_s);
    touch(root + u"/m-dir/inner.txt"_s);
    for (const char *name : {"c", "a", "b"}) {
        QFile f(root + u'/' + QLatin1String(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(name[0] - 'a' + 1, 'x')); // a: 1 byte, b: 2, c: 3
    }
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, root, listed));
    const QPersistentModelIndex dir = childNamed(model, {}, u"m-dir"_s);
    model.fetchMore(dir);
    QTRY_VERIFY(!model.isLoading());
    const QPersistentModelIndex a = childNamed(model, {}, u"a"_s);
    const QPersistentModelIndex inner = childNamed(model, dir, u"inner.txt"_s);
    QCOMPARE(a.row(), 1);
    model.sort(RemoteFileModel::SizeColumn, Qt::DescendingOrder);
    // What a view holds (its selection, its expanded folders) follows the rows.
    QCOMPARE(a.row(), 3);
    QCOMPARE(a.data().toString(), u"a"_s);
    QCOMPARE(inner.data().toString(), u"inner.txt"_s);
    QCOMPARE(dir.row(), 0);
    QCOMPARE(model.index(1, 0).data().toString(), u"c"_s);
}

void TestRemoteFileModel::mimeDataDescribesRemoteItems() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QSignalSpy listed(&model, &RemoteFileModel::folderListed);
    QVERIFY(listRoot(model, m_server.workspace() + u"/tree"_s, listed));
    const QModelIndex a = childNamed(model, {}, u"a"_s);
    const QModelIndex top = childNamed(model, {}, u"top.txt"_s);
    std::unique_ptr<QMimeData> mime(model.mimeData({a, top}));
    const QJsonArray items =
        QJsonDocument::fromJson(mime->data(QString::fromLatin1(RemoteFileModel::kMimeType)))
            .array();
    QCOMPARE(items.size(), 2);
    QCOMPARE(items.at(0).toObject().value(u"isDirectory"_s).toBool(), true);
    QCOMPARE(items.at(1).toObject().value(u"path"_s).toString(), model.pathOf(top));
    QVERIFY(model.flags(a).testFlag(Qt::ItemIsDropEnabled));
    QVERIFY(!model.flags(top).testFlag(Qt::ItemIsDropEnabled));
}

void TestRemoteFileModel::failedListingIsReported() {
    SandboxClient client({m_server.url(), {}}, {});
    RemoteFileModel model(&client);
    QSignalSpy failed(&model, &RemoteFileModel::listingFailed);
    model.setRootPath(m_server.workspace() + u"/no-such-folder"_s);
    QVERIFY(failed.wait(10000));
    QVERIFY(!failed.first().at(1).value<Status>().message.isEmpty());
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.isLoading());
}

QTEST_GUILESS_MAIN(TestRemoteFileModel)
#include "tst_remotefilemodel.moc"
