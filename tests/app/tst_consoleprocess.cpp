// The sandbox-console binary as a user starts it: command line without a display, and its local
// sandbox dying with it.
#include "app/commandline.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace sbx;

namespace {

// Children of pid, from /proc.
QList<qint64> childrenOf(qint64 pid) {
    QList<qint64> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 candidate = entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(candidate));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toLongLong() == pid)
            out << candidate;
    }
    return out;
}

bool isAlive(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    return text.mid(text.lastIndexOf(')') + 2, 1) != "Z";
}

} // namespace

class TestConsoleProcess final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsing() {
        const QString bin = QStringLiteral("sandbox-console");
        CommandLineResult r = parseCommandLine({bin});
        QCOMPARE(r.action, CommandLineResult::Action::Run);
        QVERIFY(!r.options.noLocal);
        r = parseCommandLine({bin, QStringLiteral("--no-local"), QStringLiteral("--connect"),
                              QStringLiteral("http://h:1")});
        QCOMPARE(r.action, CommandLineResult::Action::Run);
        QVERIFY(r.options.noLocal);
        QCOMPARE(r.options.connectUrl, QStringLiteral("http://h:1"));
        r = parseCommandLine({bin, QStringLiteral("--bogus")});
        QCOMPARE(r.action, CommandLineResult::Action::Exit);
        QCOMPARE(r.exitCode, 2);
        r = parseCommandLine({bin, QStringLiteral("--connect"), QStringLiteral("http://h:1"),
                              QStringLiteral("--api-key-env"),
                              QStringLiteral("SBX_TEST_SURELY_UNSET_VAR")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.output.contains(QStringLiteral("SBX_TEST_SURELY_UNSET_VAR")));
    }

    void helpAndVersionNeedNoDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SBX_CONSOLE_BINARY), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        const QString help = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY(help.contains(QStringLiteral("--connect")));
        QVERIFY(help.contains(QStringLiteral("--api-key-env")));
        QVERIFY(help.contains(QStringLiteral("--no-local")));
        p.start(QStringLiteral(SBX_CONSOLE_BINARY), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("sandbox-console "));
    }

    void localSandboxDiesWithCrashedConsole() {
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("SBX_NO_KEYCHAIN"), QStringLiteral("1"));
        env.insert(QStringLiteral("SBX_SERVER_BINARY"), QStringLiteral(SBX_SERVER_BINARY));
        QProcess console;
        console.setProcessEnvironment(env);
        console.start(QStringLiteral(SBX_CONSOLE_BINARY), {});
        QVERIFY(console.waitForStarted());
        QList<qint64> children;
        QTRY_VERIFY_WITH_TIMEOUT(!(children = childrenOf(console.processId())).isEmpty(), 20000);
        const qint64 server = children.first();
        QVERIFY(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(server))
                    .endsWith(QStringLiteral("sandbox-server")));
        ::kill(static_cast<pid_t>(console.processId()), SIGKILL);
        QVERIFY(console.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!isAlive(server), 10000);
    }
};

QTEST_GUILESS_MAIN(TestConsoleProcess)
#include "tst_consoleprocess.moc"
