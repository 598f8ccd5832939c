// Desktop notifications over a real D-Bus session bus (a private dbus-daemon): what a
// freedesktop notification server receives, the fallback while none runs, and a sandbox lost
// for real (its sandbox-server killed) reaching the desktop.
#include "app/consolecontext.h"
#include "app/desktopnotifier.h"
#include "app/mainwindow.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "tests/support/testserver.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

const QString kService = u"org.freedesktop.Notifications"_s;

struct Received {
    QString appName;
    QString icon;
    QString summary;
    QString body;
    QVariantMap hints;
};

} // namespace

// The server side of org.freedesktop.Notifications, on its own bus connection, recording what
// each Notify call carried as a notification daemon would show it.
class NotificationServer final : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QList<Received> received;

public Q_SLOTS:
    uint Notify(const QString &appName, uint replacesId, const QString &appIcon,
                const QString &summary, const QString &body, const QStringList &actions,
                const QVariantMap &hints, int expireTimeout) {
        Q_UNUSED(replacesId)
        Q_UNUSED(actions)
        Q_UNUSED(expireTimeout)
        received.append({appName, appIcon, summary, body, hints});
        return uint(received.size());
    }
    QStringList GetCapabilities() { return {u"body"_s}; }
    QString GetServerInformation(QString &vendor, QString &version, QString &specVersion) {
        vendor = u"sbxtest"_s;
        version = u"1"_s;
        specVersion = u"1.2"_s;
        return u"tst_app_notifier"_s;
    }
};

class TestNotifier final : public QObject {
    Q_OBJECT
private:
    QProcess m_bus;
    QString m_address;
    QTemporaryDir m_dir;
    NotificationServer m_server;
    bool m_serving = false;

    // Registers the notification server on the bus, as a desktop session has one.
    bool serve() {
        if (m_serving)
            return true;
        QDBusConnection connection = QDBusConnection::connectToBus(m_address, u"server"_s);
        m_serving = connection.isConnected() && connection.registerService(kService) &&
                    connection.registerObject(u"/org/freedesktop/Notifications"_s, &m_server,
                                              QDBusConnection::ExportAllSlots);
        return m_serving;
    }

private Q_SLOTS:
    void initTestCase();
    void statusBarWhileNoServerRuns();
    void busCarriesTitleBodyAndUrgency();
    void lostSandboxReachesTheDesktop();
    void cleanupTestCase();
};

void TestNotifier::initTestCase() {
    const QString daemon = QStandardPaths::findExecutable(u"dbus-daemon"_s);
    if (daemon.isEmpty())
        QSKIP("dbus-daemon is not installed (install-deps installs the dbus-daemon package)");
    m_bus.start(daemon, {u"--session"_s, u"--nofork"_s, u"--nopidfile"_s, u"--print-address=1"_s});
    QVERIFY(m_bus.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(m_bus.canReadLine(), 10000);
    m_address = QString::fromUtf8(m_bus.readLine()).trimmed();
    QVERIFY(!m_address.isEmpty());
    // Before anything asks for the session bus, so that sessionBus() is this one.
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
    QVERIFY(QDBusConnection::sessionBus().isConnected());
}

void TestNotifier::statusBarWhileNoServerRuns() {
    QStatusBar bar;
    DesktopNotifier notifier(&bar);
    // Offscreen there is no tray either: the window's status bar is what is left.
    QCOMPARE(notifier.route(), DesktopNotifier::Route::StatusBar);
    notifier.show({Notification::Kind::Transfers, u"Transfers finished"_s, u"3 files"_s, false});
    QCOMPARE(bar.currentMessage(), u"Transfers finished: 3 files"_s);
}

void TestNotifier::busCarriesTitleBodyAndUrgency() {
    QVERIFY(serve());
    QStatusBar bar;
    DesktopNotifier notifier(&bar);
    QCOMPARE(notifier.route(), DesktopNotifier::Route::Bus);
    const qsizetype before = m_server.received.size();
    notifier.show({Notification::Kind::Run, u"Run failed"_s, u"make test exited with 2"_s, true});
    notifier.show({Notification::Kind::Sandbox, u"Box is back"_s, u"It answers."_s, false});
    QTRY_COMPARE_WITH_TIMEOUT(m_server.received.size(), before + 2, 10000);
    const Received urgent = m_server.received.at(before);
    QCOMPARE(urgent.appName, u"Sandbox Console"_s);
    QCOMPARE(urgent.icon, u"sandbox-console"_s);
    QCOMPARE(urgent.summary, u"Run failed"_s);
    QCOMPARE(urgent.body, u"make test exited with 2"_s);
    QCOMPARE(urgent.hints.value(u"urgency"_s).toInt(), 2);
    QCOMPARE(urgent.hints.value(u"desktop-entry"_s).toString(), u"sandbox-console"_s);
    QCOMPARE(m_server.received.at(before + 1).hints.value(u"urgency"_s).toInt(), 1);
    QVERIFY(bar.currentMessage().isEmpty()); // shown once, on the desktop
}

void TestNotifier::lostSandboxReachesTheDesktop() {
    QVERIFY(serve());
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    ConsoleContext context({m_dir.filePath(u"lost.conf"_s), m_dir.filePath(u"lost-data"_s),
                            QStringLiteral(SBX_SERVER_BINARY), false});
    MainWindow window(&context);
    const QString id = context.saved()->add(
        {QString(), u"Faraway"_s, {server.url(), {}}, {}, SandboxState::Online, {}});
    window.selectSandbox(id);
    // Only a sandbox that was working can be lost.
    QTRY_COMPARE_WITH_TIMEOUT(context.registry()->state(id), SandboxState::Online, 20000);
    const qsizetype before = m_server.received.size();
    server.kill();
    context.registry()->probe(id); // the user's refresh: no waiting for the next poll
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(m_server.received.cbegin() + before, m_server.received.cend(),
                    [](const Received &r) { return r.summary == u"Faraway is unreachable"_s; }),
        30000);
}

void TestNotifier::cleanupTestCase() {
    if (m_bus.state() == QProcess::Running) {
        m_bus.terminate();
        m_bus.waitForFinished(5000);
    }
}

QTEST_MAIN(TestNotifier)
#include "tst_notifier.moc"
