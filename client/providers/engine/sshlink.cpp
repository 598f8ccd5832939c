#include "client/providers/engine/sshlink.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QPointer>
#include <QStandardPaths>
#include <QTcpServer>

#include <csignal>
#include <sys/prctl.h>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kRunBoundMs = 20000;
constexpr int kCheckEveryMs = 100;
// ConnectTimeout (10 s) plus the time a slow host takes to authenticate.
constexpr int kConnectBoundMs = 30000;

QString lastLine(const QString &text) {
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QString line = it->trimmed();
        // ssh's notes about the mux and warnings are not the reason.
        // Its own full stop would end the console's sentence early.
        if (!line.isEmpty() && !line.startsWith(u"Warning:"_s))
            return line.endsWith(u'.') ? line.chopped(1) : line;
    }
    return text.trimmed();
}

// What a failed helper run says, or how it ended when it said nothing.
QString runFailure(int code, const QByteArray &err) {
    const QString said = lastLine(QString::fromUtf8(err));
    if (!said.isEmpty())
        return said;
    if (code < 0)
        return QCoreApplication::translate("sbx::SshLink", "ssh did not finish in time");
    return QCoreApplication::translate("sbx::SshLink", "ssh ended with status %1").arg(code);
}

// A free loopback port, for ssh to bind next (it cannot report one it picked for -L itself).
int freeLoopbackPort() {
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return -1;
    return probe.serverPort();
}

} // namespace

SshFailure classifySshFailure(const QString &text, const QString &target) {
    const auto has = [&text](const char *words) {
        return text.contains(QLatin1String(words), Qt::CaseInsensitive);
    };
    SshFailure failure;
    if (has("REMOTE HOST IDENTIFICATION HAS CHANGED")) {
        failure.kind = SshFailure::Kind::HostKeyChanged;
        failure.message =
            QCoreApplication::translate(
                "sbx::SshLink",
                "The host key of %1 has changed since you trusted it: someone may be "
                "intercepting the connection. If the host was reinstalled, remove its old key "
                "(ssh-keygen -R) and connect again.")
                .arg(target);
    } else if (has("Host key verification failed") || has("host key is known")) {
        failure.kind = SshFailure::Kind::HostKeyUnknown;
        failure.message =
            QCoreApplication::translate("sbx::SshLink", "The host key of %1 is not known yet")
                .arg(target);
    } else if (has("Permission denied") || has("Too many authentication failures")) {
        failure.kind = SshFailure::Kind::AuthRefused;
        failure.message =
            QCoreApplication::translate(
                "sbx::SshLink", "%1 refused the login (%2). The console signs in with your SSH "
                                "keys and agent, never a password: add the key to the agent, or "
                                "name it with -i in the engine's SSH options.")
                .arg(target, lastLine(text));
    } else if (has("Connection refused")) {
        failure.kind = SshFailure::Kind::Unreachable;
        failure.message =
            QCoreApplication::translate(
                "sbx::SshLink", "Nothing accepts SSH connections at %1 (is sshd running there, "
                                "and is the port right?)")
                .arg(target);
    } else if (has("Could not resolve hostname")) {
        failure.kind = SshFailure::Kind::Unreachable;
        failure.message =
            QCoreApplication::translate("sbx::SshLink", "The host of %1 is not known (%2)")
                .arg(target, lastLine(text));
    } else if (has("timed out") || has("No route to host") || has("Network is unreachable") ||
               has("closed by remote host") || has("Connection closed") || has("Broken pipe") ||
               has("Connection reset")) {
        failure.kind = SshFailure::Kind::Unreachable;
        failure.message =
            QCoreApplication::translate("sbx::SshLink", "%1 cannot be reached over SSH: %2")
                .arg(target, lastLine(text));
    } else {
        failure.kind = SshFailure::Kind::Other;
        failure.message = QCoreApplication::translate("sbx::SshLink", "SSH to %1 failed: %2")
                              .arg(target, lastLine(text));
    }
    return failure;
}

QString remoteSocketProbe() {
    // POSIX sh, whatever the user's login shell: the first of the usual places that is a socket.
    return uR"(sh -c 'for s in "${DOCKER_HOST#unix://}" /var/run/docker.sock )"
           uR"("${XDG_RUNTIME_DIR:-/run/user/$(id -u)}/podman/podman.sock" )"
           uR"(/run/podman/podman.sock; do [ -S "$s" ] && { echo "$s"; exit 0; }; done; exit 3')"_s;
}

SshLink::SshLink(EngineEndpoint endpoint, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_dir(QDir::tempPath() + u"/sbx-ssh-XXXXXX"_s) {
    m_check.setInterval(kCheckEveryMs);
    connect(&m_check, &QTimer::timeout, this, &SshLink::pollMaster);
}

SshLink::~SshLink() {
    // Helpers first, so none reports into a half-destroyed link.
    const QList<QProcess *> helpers = findChildren<QProcess *>(Qt::FindDirectChildrenOnly);
    for (QProcess *helper : helpers) {
        helper->disconnect(this);
        delete helper;
    }
    stopMaster();
}

QString SshLink::localSocket() const {
    return m_dir.filePath(u"engine.sock"_s);
}

QString SshLink::destination() const {
    return m_endpoint.user.isEmpty() ? m_endpoint.address
                                     : m_endpoint.user + u'@' + m_endpoint.address;
}

QStringList SshLink::baseArgs() const {
    QStringList args{u"-S"_s, m_dir.filePath(u"mux"_s),       u"-o"_s, u"BatchMode=yes"_s,
                     u"-o"_s, u"StrictHostKeyChecking=yes"_s, u"-o"_s, u"ConnectTimeout=10"_s};
    if (m_endpoint.port > 0)
        args << u"-p"_s << QString::number(m_endpoint.port);
    args << m_endpoint.sshOptions;
    return args;
}

void SshLink::run(const QString &program, const QStringList &args, const QByteArray &input,
                  std::function<void(int, const QByteArray &, const QByteArray &)> done) {
    auto *process = new QProcess(this);
    auto *bound = new QTimer(process);
    bound->setSingleShot(true);
    connect(bound, &QTimer::timeout, process, [process] { process->kill(); });
    const auto finish = [process, done](int code) {
        const QByteArray out = process->readAllStandardOutput();
        const QByteArray err = process->readAllStandardError();
        process->disconnect();
        process->deleteLater();
        done(code, out, err);
    };
    connect(process, &QProcess::finished, this,
            [process, finish](int code, QProcess::ExitStatus status) {
                finish(status == QProcess::NormalExit ? code : -1);
            });
    connect(process, &QProcess::errorOccurred, this, [finish](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            finish(-1);
    });
    process->start(program, args);
    if (!input.isEmpty())
        process->write(input);
    process->closeWriteChannel();
    bound->start(kRunBoundMs);
}

void SshLink::setState(State state, const QString &problem, bool retryable) {
    if (state != State::Failed)
        m_failureKind = state == State::HostKeyUnknown ? SshFailure::Kind::HostKeyUnknown
                                                       : SshFailure::Kind::None;
    m_problem = problem;
    m_retryable = retryable;
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void SshLink::connectToHost() {
    if (m_state == State::Connecting || m_state == State::Up)
        return;
    if (!m_dir.isValid()) {
        setState(State::Failed, tr("Cannot make a private folder for the SSH link"));
        return;
    }
    const QString ssh = QStandardPaths::findExecutable(u"ssh"_s);
    if (ssh.isEmpty()) {
        setState(State::Failed, tr("The ssh client is not installed (openssh-client)"));
        return;
    }
    stopMaster();
    m_forwards.clear();
    m_masterErr.clear();
    m_master = std::make_unique<QProcess>();
    QStringList args = baseArgs();
    args << u"-M"_s << u"-N"_s << u"-o"_s << u"ControlPersist=no"_s << u"-o"_s
         << u"ServerAliveInterval=10"_s << u"-o"_s << u"ServerAliveCountMax=3"_s << u"-o"_s
         << u"StreamLocalBindUnlink=yes"_s << u"--"_s << destination();
    connect(m_master.get(), &QProcess::readyReadStandardError, this,
            [this] { m_masterErr += m_master->readAllStandardError().right(64 * 1024); });
    connect(m_master.get(), &QProcess::finished, this, &SshLink::onMasterFinished);
    // The master and its forwards end with the console, even when it crashes.
    m_master->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    setState(State::Connecting);
    m_master->start(ssh, args);
    m_checks = 0;
    m_check.start();
}

void SshLink::stopMaster() {
    m_check.stop();
    if (!m_master)
        return;
    m_master->disconnect(this);
    if (m_master->state() != QProcess::NotRunning) {
        m_master->terminate();
        if (!m_master->waitForFinished(3000))
            m_master->kill();
        m_master->waitForFinished(3000);
    }
    m_master.reset();
    QFile::remove(localSocket());
}

void SshLink::pollMaster() {
    if (m_checking)
        return;
    if (++m_checks * kCheckEveryMs > kConnectBoundMs) {
        stopMaster();
        setState(State::Failed,
                 tr("%1 did not finish signing in within %2 s")
                     .arg(m_endpoint.where())
                     .arg(kConnectBoundMs / 1000),
                 true);
        return;
    }
    m_checking = true;
    QStringList args = baseArgs();
    args << u"-O"_s << u"check"_s << u"--"_s << destination();
    run(u"ssh"_s, args, {}, [this](int code, const QByteArray &, const QByteArray &) {
        m_checking = false;
        if (code != 0 || m_state != State::Connecting || !m_check.isActive())
            return;
        m_check.stop();
        findSocket();
    });
}

void SshLink::onMasterFinished() {
    m_check.stop();
    m_masterErr += m_master->readAllStandardError();
    const SshFailure failure =
        classifySshFailure(QString::fromUtf8(m_masterErr), m_endpoint.where());
    m_forwards.clear();
    QFile::remove(localSocket());
    if (failure.kind == SshFailure::Kind::HostKeyUnknown) {
        setState(State::Connecting); // still asking: the fingerprints come next
        scanHostKeys();
        return;
    }
    const bool wasUp = m_state == State::Up;
    m_failureKind = failure.kind;
    QString message = failure.message;
    if (wasUp)
        message =
            tr("The SSH connection to %1 dropped: %2").arg(m_endpoint.where(), failure.message);
    setState(State::Failed, message,
             wasUp || failure.kind == SshFailure::Kind::Unreachable ||
                 failure.kind == SshFailure::Kind::Other);
}

void SshLink::findSocket() {
    if (!m_endpoint.remoteSocket.isEmpty()) {
        m_remoteSocket = m_endpoint.remoteSocket;
        forwardSocket();
        return;
    }
    QStringList args = baseArgs();
    args << u"--"_s << destination() << remoteSocketProbe();
    run(u"ssh"_s, args, {}, [this](int code, const QByteArray &out, const QByteArray &err) {
        if (m_state != State::Connecting)
            return;
        const QString found = QString::fromUtf8(out).trimmed();
        if (code != 0 || !found.startsWith(u'/')) {
            setState(State::Failed,
                     code == 3 ? tr("No container engine socket on %1 ($DOCKER_HOST, "
                                    "/var/run/docker.sock and the podman sockets were "
                                    "looked at). Start the engine there, or name its "
                                    "socket: ssh://user@host/path/to/engine.sock")
                                     .arg(m_endpoint.where())
                               : tr("Cannot look for the engine on %1: %2")
                                     .arg(m_endpoint.where(), runFailure(code, err)),
                     code != 3);
            return;
        }
        m_remoteSocket = found;
        forwardSocket();
    });
}

void SshLink::forwardSocket() {
    QStringList args = baseArgs();
    args << u"-O"_s << u"forward"_s << u"-L"_s << localSocket() + u':' + m_remoteSocket << u"--"_s
         << destination();
    run(u"ssh"_s, args, {}, [this](int code, const QByteArray &, const QByteArray &err) {
        if (m_state != State::Connecting)
            return;
        if (code != 0) {
            setState(State::Failed, tr("%1 would not forward the engine socket %2: %3")
                                        .arg(m_endpoint.where(), m_remoteSocket,
                                             lastLine(QString::fromUtf8(err))));
            return;
        }
        setState(State::Up);
    });
}

void SshLink::scanHostKeys() {
    // ssh's own view of the destination (an alias resolved, its port, its known_hosts file),
    // so the keys scanned are those it will check.
    QStringList args = baseArgs();
    args << u"-G"_s << u"--"_s << destination();
    run(u"ssh"_s, args, {}, [this](int, const QByteArray &out, const QByteArray &) {
        QString host = m_endpoint.address;
        QString port = m_endpoint.port > 0 ? QString::number(m_endpoint.port) : u"22"_s;
        m_knownHostsFile = QDir::homePath() + u"/.ssh/known_hosts"_s;
        for (const QByteArray &line : out.split('\n')) {
            if (line.startsWith("hostname "))
                host = QString::fromUtf8(line.mid(9)).trimmed();
            else if (line.startsWith("port "))
                port = QString::fromUtf8(line.mid(5)).trimmed();
            else if (line.startsWith("userknownhostsfile "))
                m_knownHostsFile = QString::fromUtf8(line.mid(19)).trimmed().section(u' ', 0, 0);
        }
        if (m_knownHostsFile.startsWith(u"~/"_s))
            m_knownHostsFile = QDir::homePath() + m_knownHostsFile.mid(1);
        run(u"ssh-keyscan"_s, {u"-T"_s, u"10"_s, u"-p"_s, port, u"--"_s, host}, {},
            [this](int, const QByteArray &keys, const QByteArray &err) {
                m_scannedKeys.clear();
                for (const QByteArray &line : keys.split('\n')) {
                    if (!line.trimmed().isEmpty() && !line.startsWith('#'))
                        m_scannedKeys += line.trimmed() + '\n';
                }
                if (m_scannedKeys.isEmpty()) {
                    setState(State::Failed,
                             tr("The host key of %1 is not known, and it cannot be read "
                                "to show you: %2")
                                 .arg(m_endpoint.where(), lastLine(QString::fromUtf8(err))),
                             true);
                    return;
                }
                run(u"ssh-keygen"_s, {u"-l"_s, u"-f"_s, u"-"_s}, m_scannedKeys,
                    [this](int, const QByteArray &listed, const QByteArray &) {
                        m_fingerprints.clear();
                        for (const QByteArray &line : listed.split('\n')) {
                            if (!line.trimmed().isEmpty())
                                m_fingerprints << QString::fromUtf8(line.trimmed());
                        }
                        setState(State::HostKeyUnknown,
                                 tr("The host key of %1 is not known yet. Trust it if "
                                    "its fingerprint is the host's: %2")
                                     .arg(m_endpoint.where(), m_fingerprints.join(u"; "_s)));
                    });
            });
    });
}

void SshLink::trustHostKey() {
    if (m_state != State::HostKeyUnknown || m_scannedKeys.isEmpty())
        return;
    // The file ssh -G named when the keys were scanned: the one ssh will check.
    const QString file = m_knownHostsFile;
    QDir().mkpath(QFileInfo(file).path());
    QFile knownHosts(file);
    const bool fresh = !knownHosts.exists();
    QByteArray lines = m_scannedKeys;
    if (!fresh && knownHosts.open(QIODevice::ReadOnly) && knownHosts.size() > 0 &&
        knownHosts.seek(knownHosts.size() - 1) && knownHosts.read(1) != "\n")
        lines.prepend('\n'); // the last line of the file stays a line of its own
    knownHosts.close();
    if (!knownHosts.open(QIODevice::Append) || knownHosts.write(lines) < 0) {
        setState(State::Failed,
                 tr("Cannot add the host key to %1: %2").arg(file, knownHosts.errorString()));
        return;
    }
    if (fresh)
        knownHosts.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    knownHosts.close();
    m_scannedKeys.clear();
    m_fingerprints.clear();
    setState(State::Idle);
    connectToHost();
}

void SshLink::forwardPort(const QString &remoteHost, int remotePort, QObject *context,
                          ForwardDone done) {
    QPointer<QObject> guard(context);
    if (m_state != State::Up) {
        done(-1, tr("The SSH connection to %1 is not up").arg(m_endpoint.where()));
        return;
    }
    const int local = freeLoopbackPort();
    const QString spec = u"127.0.0.1:%1:%2:%3"_s.arg(local).arg(remoteHost).arg(remotePort);
    QStringList args = baseArgs();
    args << u"-O"_s << u"forward"_s << u"-L"_s << spec << u"--"_s << destination();
    run(u"ssh"_s, args, {},
        [this, guard, done, local, remoteHost, remotePort](int code, const QByteArray &,
                                                           const QByteArray &err) {
            if (!guard)
                return;
            if (code != 0 || local <= 0) {
                done(-1, tr("%1 would not forward a port to %2:%3: %4")
                             .arg(m_endpoint.where(), remoteHost)
                             .arg(remotePort)
                             .arg(runFailure(code, err)));
                return;
            }
            m_forwards[local] = {remoteHost, remotePort};
            done(local, {});
        });
}

void SshLink::cancelForward(int localPort) {
    const auto it = m_forwards.find(localPort);
    if (it == m_forwards.end())
        return;
    const QString spec = u"127.0.0.1:%1:%2:%3"_s.arg(localPort)
                             .arg(it->second.remoteHost)
                             .arg(it->second.remotePort);
    m_forwards.erase(it);
    if (m_state != State::Up)
        return; // gone with the master already
    QStringList args = baseArgs();
    args << u"-O"_s << u"cancel"_s << u"-L"_s << spec << u"--"_s << destination();
    run(u"ssh"_s, args, {}, [](int, const QByteArray &, const QByteArray &) {});
}

QString SshLink::describeForward(int localPort) const {
    const auto it = m_forwards.find(localPort);
    if (it == m_forwards.end())
        return {};
    // The engine host's own loopback is that host, as the user knows it.
    const QHostAddress target(it->second.remoteHost);
    const QString host =
        !target.isNull() && target.isLoopback() ? m_endpoint.address : it->second.remoteHost;
    return u"127.0.0.1:%1 \u2192 %2:%3"_s.arg(localPort).arg(host).arg(it->second.remotePort);
}

} // namespace sbx
