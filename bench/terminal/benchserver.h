#pragma once

// What the terminal benchmarks that talk to a real sandbox-server share: starting it on a free
// loopback port, and running the event loop until something holds.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStringList>
#include <QUrl>

#include <functional>

namespace sbxbench {

// Starts the server with its workspace; the URL it listens on, or an invalid one. The
// workspace is also the shells' home: they start without the machine's ~/.bashrc, which may
// take any time (a pyenv init waiting on a lock took a minute here) and is not what is measured.
inline QUrl startServer(QProcess &server, const QString &binary, const QString &workspace) {
    using namespace Qt::StringLiterals;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"HOME"_s, workspace);
    environment.remove(u"BASH_ENV"_s);
    server.setProcessEnvironment(environment);
    server.start(binary,
                 {u"--host"_s, u"127.0.0.1"_s, u"--port"_s, u"0"_s, u"--workspace"_s, workspace});
    if (!server.waitForStarted(10000))
        return {};
    static const QRegularExpression listening(u"^sandbox-server listening on (http://\\S+)$"_s);
    QByteArray out;
    QElapsedTimer timer;
    timer.start();
    while (!out.contains('\n') && timer.elapsed() < 20000 && server.state() == QProcess::Running) {
        server.waitForReadyRead(200);
        out += server.readAllStandardOutput();
    }
    const auto match = listening.match(QString::fromUtf8(out.left(out.indexOf('\n'))).trimmed());
    return match.hasMatch() ? QUrl(match.captured(1)) : QUrl();
}

inline bool waitFor(const std::function<bool()> &condition, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return true;
}

inline void idle(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
}

} // namespace sbxbench
