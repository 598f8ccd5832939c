// The sandbox-console binary as a user starts it: command line without a display, and its local
// sandbox dying with it.
#include "app/commandline.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// Children of pid, from /proc.
QList<qint64> childrenOf(qint64 pid) {
    QList<qint64> out;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 candidate = entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile stat(u"/proc/%1/stat"_s.arg(candidate));
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
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    return text.mid(text.lastIndexOf(')') + 2, 1) != "Z";
}

} // namespace

class TestConsoleProcess final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsing();
    void helpAndVersionNeedNoDisplay();
    void startLoadsNoTransferLibraries();
    void localSandboxDiesWithCrashedConsole();
};

void TestConsoleProcess::parsing() {
    const QString bin = u"sandbox-console"_s;
    CommandLineResult r = parseCommandLine({bin});
    QCOMPARE(r.action, CommandLineResult::Action::Run);
    QVERIFY(!r.options.noLocal);
    r = parseCommandLine({bin, u"--no-local"_s, u"--connect"_s, u"http://h:1"_s});
    QCOMPARE(r.action, CommandLineResult::Action::Run);
    QVERIFY(r.options.noLocal);
    QCOMPARE(r.options.connectUrl, u"http://h:1"_s);
    r = parseCommandLine({bin, u"--log"_s, u"/tmp/a.log"_s, u"--log=b.log"_s});
    QCOMPARE(r.action, CommandLineResult::Action::Run);
    QCOMPARE(r.options.logFiles, (QStringList{u"/tmp/a.log"_s, u"b.log"_s}));
    r = parseCommandLine({bin, u"--bogus"_s});
    QCOMPARE(r.action, CommandLineResult::Action::Exit);
    QCOMPARE(r.exitCode, 2);
    r = parseCommandLine(
        {bin, u"--connect"_s, u"http://h:1"_s, u"--api-key-env"_s, u"SBX_TEST_SURELY_UNSET_VAR"_s});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.output.contains(u"SBX_TEST_SURELY_UNSET_VAR"_s));
}

void TestConsoleProcess::helpAndVersionNeedNoDisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SBX_CONSOLE_BINARY), {u"--help"_s});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QString help = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY(help.contains(u"--connect"_s));
    QVERIFY(help.contains(u"--api-key-env"_s));
    QVERIFY(help.contains(u"--no-local"_s));
    QVERIFY(help.contains(u"--log"_s));
    // The usage line names the program, as the man page made from this text shows it.
    QVERIFY2(help.startsWith(u"Usage: sandbox-console [options]"_s), qPrintable(help.left(80)));
    p.start(QStringLiteral(SBX_CONSOLE_BINARY), {u"--version"_s});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(p.readAllStandardOutput().startsWith("sandbox-console "));
}

// libcurl, libcrypto and libjwt (with some thirty libraries they need) cost the start-up ~25 ms
// of loading and relocation; the console opens libcurl and libcrypto when first used instead.
// The dynamic loader's own trace of a start that ends in main() names every library it loaded.
void TestConsoleProcess::startLoadsNoTransferLibraries() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LD_DEBUG"_s, u"files"_s);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SBX_CONSOLE_BINARY), {u"--version"_s});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QString trace = QString::fromLocal8Bit(p.readAllStandardError());
    QVERIFY2(trace.contains(u"file=libQt6Core.so.6"_s), qPrintable(trace.left(400)));
    for (const QString &library : {u"libcurl"_s, u"libcrypto"_s, u"libssl"_s, u"libjwt"_s})
        QVERIFY2(!trace.contains(u"file="_s + library), qPrintable(library));
}

void TestConsoleProcess::localSandboxDiesWithCrashedConsole() {
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    env.insert(u"SBX_NO_KEYCHAIN"_s, u"1"_s);
    env.insert(u"SBX_SERVER_BINARY"_s, QStringLiteral(SBX_SERVER_BINARY));
    QProcess console;
    console.setProcessEnvironment(env);
    console.start(QStringLiteral(SBX_CONSOLE_BINARY), {});
    QVERIFY(console.waitForStarted());
    QList<qint64> children;
    QTRY_VERIFY_WITH_TIMEOUT(!(children = childrenOf(console.processId())).isEmpty(), 20000);
    const qint64 server = children.first();
    QVERIFY(QFile::symLinkTarget(u"/proc/%1/exe"_s.arg(server)).endsWith(u"sandbox-server"_s));
    ::kill(static_cast<pid_t>(console.processId()), SIGKILL);
    QVERIFY(console.waitForFinished(5000));
    QTRY_VERIFY_WITH_TIMEOUT(!isAlive(server), 10000);
}

QTEST_GUILESS_MAIN(TestConsoleProcess)
#include "tst_consoleprocess.moc"
