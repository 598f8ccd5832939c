// The session file: written when the snapshot changes, atomically, never with a credential, and
// a damaged file set aside rather than trusted.
#include "models/session/sessionstore.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

class TestSessionStore final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesOnlyWhatChanged();
    void periodicWritesFollowChanges();
    void damagedFileIsSetAside();
    void refusesCredentials();
    void unwritableFolderIsReported();
};

void TestSessionStore::writesOnlyWhatChanged() {
    QTemporaryDir dir;
    const QString path = dir.filePath(u"state/session.json"_s);
    QJsonObject state{{u"selected"_s, u"local:default"_s}};
    {
        SessionStore store(path);
        QVERIFY(store.load().isEmpty()); // none yet: a clean start, no error
        QVERIFY(store.loadError().isEmpty());
        store.setCapture([&state] { return state; });
        QVERIFY(store.flush());
        QCOMPARE(store.writes(), 1);
        QVERIFY(store.flush()); // the same snapshot: no write
        QCOMPARE(store.writes(), 1);
        state.insert(u"selected"_s, u"saved:abc"_s);
        QVERIFY(store.flush());
        QCOMPARE(store.writes(), 2);
    }
    SessionStore again(path);
    QCOMPARE(again.load(), state);
    again.setCapture([&state] { return state; });
    QVERIFY(again.flush()); // what was read counts as written
    QCOMPARE(again.writes(), 0);
}

void TestSessionStore::periodicWritesFollowChanges() {
    QTemporaryDir dir;
    SessionStore store(dir.filePath(u"session.json"_s));
    int counter = 0;
    store.setCapture([&counter] { return QJsonObject{{u"n"_s, counter}}; });
    QSignalSpy written(&store, &SessionStore::written);
    store.start(20);
    QVERIFY(written.wait(2000));
    counter = 1;
    QVERIFY(written.wait(2000));
    SessionStore reader(dir.filePath(u"session.json"_s));
    QCOMPARE(reader.load().value(u"n"_s).toInt(), 1);
}

void TestSessionStore::damagedFileIsSetAside() {
    QTemporaryDir dir;
    const QString path = dir.filePath(u"session.json"_s);
    for (const QByteArray &bad :
         {QByteArray("{\"selected\": "), QByteArray("[1, 2]"), QByteArray("\xff\xfe garbage")}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bad);
        file.close();
        SessionStore store(path);
        QVERIFY(store.load().isEmpty());
        QVERIFY2(store.loadError().contains(u"damaged"_s), qPrintable(store.loadError()));
        QVERIFY(!QFile::exists(path));
        QFile aside(path + u".bad"_s);
        QVERIFY(aside.open(QIODevice::ReadOnly));
        QCOMPARE(aside.readAll(), bad); // kept for a look, nothing lost
    }
}

void TestSessionStore::refusesCredentials() {
    QTemporaryDir dir;
    const QString path = dir.filePath(u"session.json"_s);
    SessionStore store(path);
    const QString jwt = u"eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLWJ5dGVz"_s;
    for (const QString &secret : QStringList{jwt, u"-----BEGIN PRIVATE KEY-----\nMIIE"_s,
                                             u"http://h/vnc?ticket=x&token="_s + jwt}) {
        store.setCapture([&secret] {
            return QJsonObject{{u"workspaces"_s, QJsonObject{{u"a"_s, QJsonArray{secret}}}}};
        });
        QVERIFY(!store.flush());
        QVERIFY(!store.writeError().isEmpty());
        QVERIFY(!store.writeError().contains(secret));
        QVERIFY(!QFile::exists(path));
    }
    QVERIFY(!looksLikeSecret(u"/home/user/project/eyJ.txt"_s));
    QVERIFY(!looksLikeSecret(u"local:default"_s));
}

void TestSessionStore::unwritableFolderIsReported() {
    QTemporaryDir dir;
    QFile blocker(dir.filePath(u"file"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    SessionStore store(dir.filePath(u"file/session.json"_s)); // a folder that is a file
    store.setCapture([] { return QJsonObject{{u"a"_s, 1}}; });
    QVERIFY(!store.flush());
    QVERIFY2(store.writeError().contains(u"Cannot save"_s), qPrintable(store.writeError()));
}

QTEST_GUILESS_MAIN(TestSessionStore)
#include "tst_sessionstore.moc"
