#include "tests/support/testserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRegularExpression>

#include <csignal>
#include <sys/prctl.h>
#include <sys/resource.h>

namespace sbxtest {

using namespace Qt::StringLiterals;

TestServer::~TestServer() {
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

TestServer::Options TestServer::withApiKey(const QString &key) {
    Options options;
    options.env.insert(u"SANDBOX_API_KEY"_s, key);
    return options;
}

TestServer::Options TestServer::withArgs(const QStringList &args) {
    Options options;
    options.extraArgs = args;
    return options;
}

bool TestServer::start(const Options &options) {
    m_workspace = options.workspace;
    if (m_workspace.isEmpty()) {
        m_tempDir = std::make_unique<QTemporaryDir>();
        m_workspace = m_tempDir->path();
    }
    m_process = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : {u"SANDBOX_API_KEY"_s, u"JWT_PUBLIC_KEY"_s, u"TICKET_TTL_SECONDS"_s})
        env.remove(key);
    const QStringList keys = options.env.keys();
    for (const QString &key : keys)
        env.insert(key, options.env.value(key));
    // The sandbox's shells must not run this machine's ~/.bashrc: it can be slow (pyenv) and
    // a shell killed while it runs can leave its locks behind for every later shell.
    if (!options.env.contains(u"HOME"_s)) {
        m_homeDir = std::make_unique<QTemporaryDir>();
        env.insert(u"HOME"_s, m_homeDir->path());
    }
#ifdef __SANITIZE_ADDRESS__
    // AddressSanitizer keeps 256 MB of freed memory in quarantine by default, which would
    // measure ASan, not the server.
    const QString asan = env.value(u"ASAN_OPTIONS"_s);
    if (!asan.contains(u"quarantine_size_mb"_s))
        env.insert(u"ASAN_OPTIONS"_s,
                   (asan.isEmpty() ? QString() : asan + u":"_s) + u"quarantine_size_mb=8"_s);
#endif
    m_process->setProcessEnvironment(env);
    // A test process that is killed (a timeout) must not leave its server running.
    const int maxOpenFiles = options.maxOpenFiles;
    m_process->setChildProcessModifier([maxOpenFiles] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (maxOpenFiles > 0) {
            const rlimit limit{static_cast<rlim_t>(maxOpenFiles),
                               static_cast<rlim_t>(maxOpenFiles)};
            ::setrlimit(RLIMIT_NOFILE, &limit);
        }
    });
    QStringList args{u"--host"_s, u"127.0.0.1"_s,   u"--port"_s,
                     u"0"_s,      u"--workspace"_s, m_workspace};
    args += options.extraArgs;
    m_process->start(options.binary.isEmpty() ? QStringLiteral(SBX_SERVER_BINARY) : options.binary,
                     args);
    if (!m_process->waitForStarted(10000)) {
        m_error = u"sandbox-server did not start"_s;
        return false;
    }
    // The listening line is the server's rendezvous: it is printed once connections are accepted.
    static const QRegularExpression listening(u"^sandbox-server listening on (http://\\S+)$"_s);
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        if (m_stdout.contains('\n')) {
            const QString line = QString::fromUtf8(m_stdout.left(m_stdout.indexOf('\n'))).trimmed();
            const auto match = listening.match(line);
            if (!match.hasMatch()) {
                m_error = u"unexpected first line: "_s + line;
                return false;
            }
            m_url = QUrl(match.captured(1));
            return true;
        }
        if (m_process->state() == QProcess::NotRunning) {
            m_error = u"sandbox-server exited: "_s + QString::fromUtf8(stderrText());
            return false;
        }
        m_process->waitForReadyRead(static_cast<int>(qMax<qint64>(1, deadline.remainingTime())));
        m_stdout += m_process->readAllStandardOutput();
    }
    m_error = u"no listening line within 20 s"_s;
    return false;
}

QUrl TestServer::url(const QString &path, const QString &query, bool webSocket) const {
    QUrl result = m_url;
    result.setPath(path);
    if (!query.isEmpty())
        result.setQuery(query);
    if (webSocket)
        result.setScheme(u"ws"_s);
    return result;
}

void TestServer::terminate() {
    if (m_process && m_process->state() != QProcess::NotRunning)
        ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
}

int TestServer::stop() {
    if (!m_process)
        return -1;
    terminate();
    // The event loop of a QTRY may already have seen the exit; waitForFinished is then false.
    if (m_process->state() != QProcess::NotRunning && !m_process->waitForFinished(30000))
        return -1;
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}

void TestServer::kill() {
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

qint64 TestServer::residentKiB() const {
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return -1;
    QFile status(u"/proc/%1/status"_s.arg(m_process->processId()));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

qint64 TestServer::memoryBoundKiB(qint64 kib) {
#ifdef __SANITIZE_ADDRESS__
    Q_UNUSED(kib);
    return 300 * 1024;
#else
    return kib;
#endif
}

QByteArray TestServer::stdoutText() {
    if (m_process)
        m_stdout += m_process->readAllStandardOutput();
    return m_stdout;
}

QByteArray TestServer::stderrText() {
    if (m_process)
        m_stderr += m_process->readAllStandardError();
    return m_stderr;
}

} // namespace sbxtest
