// What the desktop is told: a working sandbox lost and back (not one that never came up, not a
// stop the user asked for), runs and transfers only in the background, a JWT once before it
// expires, and nothing the user turned off.
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/providers/secretstore.h"
#include "models/notifications/notificationcenter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QList<Notification> taken(QSignalSpy &spy) {
    QList<Notification> out;
    for (const QList<QVariant> &args : std::as_const(spy))
        out << args.at(0).value<Notification>();
    spy.clear();
    return out;
}

// An unsigned JWT whose exp is secs from now (the console reads exp; it never verifies).
QString jwtExpiringIn(qint64 secs) {
    auto part = [](const QJsonObject &o) {
        return QJsonDocument(o)
            .toJson(QJsonDocument::Compact)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    };
    const qint64 exp = QDateTime::currentSecsSinceEpoch() + secs;
    return QString::fromLatin1(part({{u"alg"_s, u"RS256"_s}}) + '.' + part({{u"exp"_s, exp}}) +
                               ".c2ln");
}

} // namespace

class TestNotificationCenter final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Notification>(); }
    void lostAndBackOnlyForAWorkingSandbox();
    void runsAndTransfersOnlyInTheBackground();
    void jwtWarnedOncePerToken();
    void settingsTurnKindsOff();
};

void TestNotificationCenter::lostAndBackOnlyForAWorkingSandbox() {
    NotificationCenter center(nullptr);
    QSignalSpy spy(&center, &NotificationCenter::notify);
    center.onStateChanged(u"a"_s, SandboxState::Starting);
    center.onStateChanged(u"a"_s, SandboxState::Unreachable); // never came up: the list says so
    QCOMPARE(spy.count(), 0);
    center.onStateChanged(u"a"_s, SandboxState::Online);
    QCOMPARE(spy.count(), 0); // first contact is not "back"
    center.onStateChanged(u"a"_s, SandboxState::Unreachable);
    center.onStateChanged(u"a"_s, SandboxState::Unreachable); // once, not at every probe
    QList<Notification> got = taken(spy);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.at(0).kind, Notification::Kind::Sandbox);
    QVERIFY2(got.at(0).title.contains(u"unreachable"_s), qPrintable(got.at(0).title));
    QVERIFY(got.at(0).urgent);
    center.onStateChanged(u"a"_s, SandboxState::Online);
    got = taken(spy);
    QCOMPARE(got.size(), 1);
    QVERIFY2(got.at(0).title.contains(u"back"_s), qPrintable(got.at(0).title));
    // A stop the user asked for is not news.
    center.onStateChanged(u"a"_s, SandboxState::Stopping);
    center.onStateChanged(u"a"_s, SandboxState::Stopped);
    center.onStateChanged(u"a"_s, SandboxState::Unreachable);
    QCOMPARE(spy.count(), 0);
}

void TestNotificationCenter::runsAndTransfersOnlyInTheBackground() {
    NotificationCenter center(nullptr);
    bool active = true;
    center.setWindowActive([&active] { return active; });
    QSignalSpy spy(&center, &NotificationCenter::notify);
    center.runFinished(u"a"_s, u"make test"_s, 0, false);
    center.transfersFinished(u"a"_s, 3, 0);
    QCOMPARE(spy.count(), 0); // the user is looking
    active = false;
    center.runFinished(u"a"_s, u"make   test\n"_s, 2, false);
    center.transfersFinished(u"a"_s, 3, 1);
    center.transfersFinished(u"a"_s, 0, 0); // nothing finished: nothing to say
    const QList<Notification> got = taken(spy);
    QCOMPARE(got.size(), 2);
    QCOMPARE(got.at(0).kind, Notification::Kind::Run);
    QVERIFY2(got.at(0).title.contains(u"2"_s), qPrintable(got.at(0).title));
    QCOMPARE(got.at(0).body, u"make test"_s);
    QVERIFY(got.at(0).urgent);
    QCOMPARE(got.at(1).kind, Notification::Kind::Transfers);
    QVERIFY2(got.at(1).title.contains(u"failed"_s), qPrintable(got.at(1).title));
}

void TestNotificationCenter::jwtWarnedOncePerToken() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"s.conf"_s), QSettings::IniFormat);
    MemorySecretStore secrets;
    SandboxRegistry registry;
    auto *saved = new SavedEndpoints(&settings, &secrets, &registry);
    registry.addProvider(saved);
    const QString soon = jwtExpiringIn(120);
    const QString later = jwtExpiringIn(3600);
    const QString a = saved->add({QString(),
                                  u"Soon"_s,
                                  {QUrl(u"http://127.0.0.1:9"_s), {}},
                                  {Credentials::Kind::Jwt, soon},
                                  SandboxState::Online,
                                  {}});
    saved->add({QString(),
                u"Later"_s,
                {QUrl(u"http://127.0.0.1:8"_s), {}},
                {Credentials::Kind::Jwt, later},
                SandboxState::Online,
                {}});
    NotificationCenter center(&registry);
    QSignalSpy spy(&center, &NotificationCenter::notify);
    center.checkExpiry();
    center.checkExpiry();
    QList<Notification> got = taken(spy);
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.at(0).kind, Notification::Kind::Jwt);
    QVERIFY2(got.at(0).title.contains(u"Soon"_s), qPrintable(got.at(0).title));
    QVERIFY(!got.at(0).title.contains(soon) && !got.at(0).body.contains(soon));
    // A new token for the same sandbox is warned about again when it too runs short.
    SandboxEntry entry = registry.entry(a);
    entry.credentials.secret = jwtExpiringIn(60);
    saved->update(entry);
    center.checkExpiry();
    QCOMPARE(taken(spy).size(), 1);
}

void TestNotificationCenter::settingsTurnKindsOff() {
    NotificationCenter center(nullptr);
    center.setWindowActive([] { return false; });
    NotificationSettings off;
    off.sandboxes = off.runs = off.transfers = off.jwtExpiry = false;
    center.setSettings(off);
    QSignalSpy spy(&center, &NotificationCenter::notify);
    center.onStateChanged(u"a"_s, SandboxState::Online);
    center.onStateChanged(u"a"_s, SandboxState::Unreachable);
    center.runFinished(u"a"_s, u"x"_s, 1, false);
    center.transfersFinished(u"a"_s, 1, 1);
    QCOMPARE(spy.count(), 0);
    NotificationSettings onlyRuns = off;
    onlyRuns.runs = true;
    center.setSettings(onlyRuns);
    center.runFinished(u"a"_s, u"x"_s, 0, false);
    center.onStateChanged(u"a"_s, SandboxState::Online); // back, but sandboxes are off
    QCOMPARE(spy.count(), 1);
}

QTEST_GUILESS_MAIN(TestNotificationCenter)
#include "tst_notificationcenter.moc"
