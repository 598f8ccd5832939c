// RemoteFileModel over a real sandbox-server: lazy listing, batches, refresh that keeps rows.
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "tests/support/testserver.h"

#include <QAbstractItemModelTester>
#include <QDeadlineTimer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;

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

} // namespace

class TestRemoteFileModel final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        const QString ws = m_server.workspace();
        QDir().mkpath(ws + QStringLiteral("/tree/a/deep"));
        QDir().mkpath(ws + QStringLiteral("/tree/b"));
        QDir().mkpath(ws + QStringLiteral("/tree/empty"));
        touch(ws + QStringLiteral("/tree/a/one.txt"));
        touch(ws + QStringLiteral("/tree/b/two.txt"));
        touch(ws + QStringLiteral("/tree/top.txt"));
    }

    void listsLazilyOncePerFolder() {
        SandboxClient client({m_server.url(), {}}, {});
        QSignalSpy requests(&client, &SandboxClient::trafficLogged);
        RemoteFileModel model(&client);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(m_server.workspace() + QStringLiteral("/tree"));
        QVERIFY(waitListed(listed, model.rootPath()));
        QCOMPARE(model.rowCount(), 4);

        const QModelIndex a = childNamed(model, {}, QStringLiteral("a"));
        const QModelIndex b = childNamed(model, {}, QStringLiteral("b"));
        const QModelIndex empty = childNamed(model, {}, QStringLiteral("empty"));
        const QModelIndex top = childNamed(model, {}, QStringLiteral("top.txt"));
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

    void unexpandedFoldersAreNotListed() {
        SandboxClient client({m_server.url(), {}}, {});
        QSignalSpy requests(&client, &SandboxClient::trafficLogged);
        RemoteFileModel model(&client);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(m_server.workspace() + QStringLiteral("/tree"));
        QVERIFY(waitListed(listed, model.rootPath()));
        QCOMPARE(requests.count(), 1);
        const QModelIndex a = childNamed(model, {}, QStringLiteral("a"));
        const QModelIndex empty = childNamed(model, {}, QStringLiteral("empty"));
        const QModelIndex top = childNamed(model, {}, QStringLiteral("top.txt"));
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

    void refreshKeepsRowsThatStayed() {
        const QString root = m_server.workspace() + QStringLiteral("/tree");
        SandboxClient client({m_server.url(), {}}, {});
        RemoteFileModel model(&client);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(root);
        QVERIFY(waitListed(listed, root));
        const QPersistentModelIndex a = childNamed(model, {}, QStringLiteral("a"));
        model.fetchMore(a);
        QTRY_VERIFY(!model.isLoading());
        listed.clear();
        const QPersistentModelIndex deep = childNamed(model, a, QStringLiteral("deep"));
        QVERIFY(deep.isValid());

        touch(root + QStringLiteral("/new.txt"));
        QFile::remove(root + QStringLiteral("/top.txt"));
        model.refresh();
        QVERIFY(waitListed(listed, root));
        QVERIFY(childNamed(model, {}, QStringLiteral("new.txt")).isValid());
        QVERIFY(!childNamed(model, {}, QStringLiteral("top.txt")).isValid());
        // The folder that stayed is the same row, with its listed children (expansion survives).
        QVERIFY(a.isValid() && deep.isValid());
        QCOMPARE(model.rowCount(a), 2);
        QCOMPARE(model.indexForPath(root + QStringLiteral("/a/deep")), QModelIndex(deep));
        touch(root + QStringLiteral("/top.txt"));
        QFile::remove(root + QStringLiteral("/new.txt"));
    }

    void refreshRemovesScatteredRows() {
        const QString root = m_server.workspace() + QStringLiteral("/scattered");
        QDir().mkpath(root + QStringLiteral("/d3"));
        for (int i = 0; i < 10; ++i) {
            if (i != 3)
                touch(root + QStringLiteral("/f%1").arg(i));
        }
        touch(root + QStringLiteral("/d3/inner.txt"));
        SandboxClient client({m_server.url(), {}}, {});
        RemoteFileModel model(&client);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(root);
        QVERIFY(waitListed(listed, root));
        QTRY_VERIFY(!model.isLoading());
        QVERIFY(model.indexForPath(root + QStringLiteral("/d3/inner.txt")).isValid());
        // Rows gone in three separate ranges, one of them a listed folder.
        for (const char *name : {"f1", "f2", "f5", "f9"})
            QFile::remove(root + QLatin1Char('/') + QLatin1String(name));
        QDir(root + QStringLiteral("/d3")).removeRecursively();
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
        QCOMPARE(names,
                 QStringList({QStringLiteral("f0"), QStringLiteral("f4"), QStringLiteral("f6"),
                              QStringLiteral("f7"), QStringLiteral("f8")}));
        QVERIFY(!model.indexForPath(root + QStringLiteral("/f5")).isValid());
        QVERIFY(!model.indexForPath(root + QStringLiteral("/d3/inner.txt")).isValid());
    }

    void bigFolderArrivesInBatches() {
        const QString dir = m_server.workspace() + QStringLiteral("/big");
        QDir().mkpath(dir);
        for (int i = 0; i < 12000; ++i)
            QFile(dir + QStringLiteral("/f%1").arg(i)).open(QIODevice::WriteOnly);
        SandboxClient client({m_server.url(), {}}, {});
        RemoteFileModel model(&client);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(dir);
        QVERIFY(waitListed(listed, dir));
        QCOMPARE(model.rowCount(), 12000);
        QVERIFY(inserted.count() >= 6); // at most 2000 rows per turn of the event loop
        QVERIFY(!model.isLoading());
    }

    void mimeDataDescribesRemoteItems() {
        SandboxClient client({m_server.url(), {}}, {});
        RemoteFileModel model(&client);
        QSignalSpy listed(&model, &RemoteFileModel::folderListed);
        model.setRootPath(m_server.workspace() + QStringLiteral("/tree"));
        QVERIFY(waitListed(listed, model.rootPath()));
        const QModelIndex a = childNamed(model, {}, QStringLiteral("a"));
        const QModelIndex top = childNamed(model, {}, QStringLiteral("top.txt"));
        std::unique_ptr<QMimeData> mime(model.mimeData({a, top}));
        const QJsonArray items =
            QJsonDocument::fromJson(mime->data(QString::fromLatin1(RemoteFileModel::kMimeType)))
                .array();
        QCOMPARE(items.size(), 2);
        QCOMPARE(items.at(0).toObject().value(QStringLiteral("isDirectory")).toBool(), true);
        QCOMPARE(items.at(1).toObject().value(QStringLiteral("path")).toString(),
                 model.pathOf(top));
        QVERIFY(model.flags(a).testFlag(Qt::ItemIsDropEnabled));
        QVERIFY(!model.flags(top).testFlag(Qt::ItemIsDropEnabled));
    }

    void failedListingIsReported() {
        SandboxClient client({m_server.url(), {}}, {});
        RemoteFileModel model(&client);
        QSignalSpy failed(&model, &RemoteFileModel::listingFailed);
        model.setRootPath(m_server.workspace() + QStringLiteral("/no-such-folder"));
        QVERIFY(failed.wait(10000));
        QVERIFY(!failed.first().at(1).value<Status>().message.isEmpty());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.isLoading());
    }
};

QTEST_GUILESS_MAIN(TestRemoteFileModel)
#include "tst_remotefilemodel.moc"
