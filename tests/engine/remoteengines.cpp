#include "tests/engine/remoteengines.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>

#include <unistd.h>

namespace sbxtest {

using namespace Qt::StringLiterals;

namespace {
constexpr int kToolBoundMs = 30000;

bool writeText(const QString &path, const QString &text, QString *why) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0) {
        *why = path + u": "_s + file.errorString();
        return false;
    }
    return true;
}

// Reads a child's stderr until pattern matches or it ends; the first capture, else empty.
QString awaitLine(QProcess *process, const QRegularExpression &pattern, QByteArray *seen) {
    const QDeadlineTimer deadline(kToolBoundMs);
    while (!deadline.hasExpired() && process->state() != QProcess::NotRunning) {
        process->waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
        *seen += process->readAllStandardError();
        const QRegularExpressionMatch match = pattern.match(QString::fromUtf8(*seen));
        if (match.hasMatch()) {
            // The child logs on: read and drop it, so its pipe never fills.
            QObject::connect(process, &QProcess::readyReadStandardError, process,
                             [process] { process->readAllStandardError(); });
            return match.captured(1);
        }
    }
    return {};
}

void stopChild(QProcess *process) {
    if (!process || process->state() == QProcess::NotRunning)
        return;
    process->terminate();
    if (!process->waitForFinished(5000))
        process->kill();
    process->waitForFinished(5000);
}
} // namespace

bool TestCertificates::openssl(const QStringList &args, QString *why) {
    const QString tool = QStandardPaths::findExecutable(u"openssl"_s);
    if (tool.isEmpty()) {
        *why = u"openssl is not installed"_s;
        return false;
    }
    QProcess process;
    process.setWorkingDirectory(m_dir.path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(tool, args);
    if (!process.waitForFinished(kToolBoundMs) || process.exitCode() != 0) {
        *why = u"openssl %1: %2"_s.arg(args.join(u' '), QString::fromUtf8(process.readAll()));
        return false;
    }
    return true;
}

// A key and a certificate signed by the CA, with the given X.509v3 extensions.
bool TestCertificates::issue(const QString &name, const QString &subject, const QString &extensions,
                             QString *why) {
    const QString ext = m_dir.filePath(name + u".ext"_s);
    QFile file(ext);
    if (!file.open(QIODevice::WriteOnly) || file.write(extensions.toUtf8()) < 0) {
        *why = file.errorString();
        return false;
    }
    file.close();
    return openssl({u"req"_s, u"-new"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s,
                    name + u".key"_s, u"-out"_s, name + u".csr"_s, u"-subj"_s, subject},
                   why) &&
           openssl({u"x509"_s, u"-req"_s, u"-in"_s, name + u".csr"_s, u"-CA"_s, u"ca.pem"_s,
                    u"-CAkey"_s, u"ca.key"_s, u"-CAcreateserial"_s, u"-days"_s, u"2"_s, u"-out"_s,
                    name + u".pem"_s, u"-extfile"_s, ext},
                   why);
}

bool TestCertificates::make(QString *why) {
    if (!m_dir.isValid()) {
        *why = u"no temporary folder"_s;
        return false;
    }
    const auto ca = [this, why](const QString &name, const QString &subject) {
        return openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s,
                        u"-keyout"_s, name + u".key"_s, u"-out"_s, name + u".pem"_s, u"-days"_s,
                        u"2"_s, u"-subj"_s, subject},
                       why);
    };
    return ca(u"ca"_s, u"/CN=sbx test CA"_s) && ca(u"other-ca"_s, u"/CN=sbx other CA"_s) &&
           issue(u"server"_s, u"/CN=127.0.0.1"_s,
                 u"subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"_s,
                 why) &&
           issue(u"client"_s, u"/CN=sbx console"_s, u"extendedKeyUsage=clientAuth\n"_s, why);
}

TlsTerminator::~TlsTerminator() {
    stopChild(m_process.get());
}

bool TlsTerminator::start(const TestCertificates &certs, const QString &unixSocket, QString *why) {
    const QString socat = QStandardPaths::findExecutable(u"socat"_s);
    if (socat.isEmpty()) {
        *why = u"socat is not installed"_s;
        return false;
    }
    m_process = std::make_unique<QProcess>();
    // Port 0: the kernel picks a free one; socat names it in its listening line (-d -d).
    const QString listen =
        u"OPENSSL-LISTEN:0,bind=127.0.0.1,reuseaddr,fork,cert=%1,key=%2,cafile=%3,verify=1"_s.arg(
            certs.serverCert(), certs.serverKey(), certs.caFile());
    m_process->start(socat, {u"-d"_s, u"-d"_s, listen, u"UNIX-CONNECT:"_s + unixSocket});
    static const QRegularExpression listening(u"listening on AF=2 127\\.0\\.0\\.1:(\\d+)"_s);
    QByteArray seen;
    m_port = awaitLine(m_process.get(), listening, &seen).toInt();
    if (m_port > 0)
        return true;
    *why = u"socat did not listen: "_s + QString::fromUtf8(seen);
    return false;
}

SshServer::~SshServer() {
    stopChild(m_process.get());
}

bool SshServer::tool(const QString &program, const QStringList &args, QString *why,
                     QByteArray *out) const {
    QProcess process;
    process.start(program, args);
    if (!process.waitForFinished(kToolBoundMs) || process.exitCode() != 0) {
        *why = u"%1 %2: %3"_s.arg(program, args.join(u' '),
                                  QString::fromUtf8(process.readAllStandardError()));
        return false;
    }
    if (out)
        *out = process.readAllStandardOutput();
    return true;
}

QString SshServer::hostFingerprint() const {
    QString why;
    QByteArray out;
    if (!tool(u"ssh-keygen"_s, {u"-l"_s, u"-f"_s, hostPublicKey()}, &why, &out))
        return {};
    return QString::fromUtf8(out).section(u' ', 1, 1);
}

bool SshServer::start(const QString &dockerSocket, QString *why) {
    const QString sshd = u"/usr/sbin/sshd"_s;
    if (!QFile::exists(sshd) || QStandardPaths::findExecutable(u"ssh"_s).isEmpty()) {
        *why = u"sshd or ssh is not installed (openssh-server, openssh-client)"_s;
        return false;
    }
    if (geteuid() != 0) {
        *why = u"sshd needs root for its privilege separation; the suite runs as a user"_s;
        return false;
    }
    // sshd's privilege separation folder, as its package would make it.
    QDir().mkpath(u"/run/sshd"_s);
    if (!tool(u"ssh-keygen"_s,
              {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u""_s, u"-f"_s, path("host_key")}, why) ||
        !tool(u"ssh-keygen"_s,
              {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u""_s, u"-f"_s, path("id_test")}, why) ||
        !tool(u"ssh-keygen"_s,
              {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u""_s, u"-f"_s, path("id_stranger")},
              why) ||
        !QFile::copy(path("id_test.pub"), path("authorized_keys")))
        return false;
    // sshd cannot pick a port and say which: take a free one and hand it over at once.
    int port = 0;
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0)) {
            *why = u"no free loopback port"_s;
            return false;
        }
        port = probe.serverPort();
    }
    QString config = u"ListenAddress 127.0.0.1\nPort %1\nHostKey %2\nAuthorizedKeysFile %3\n"
                     u"PermitRootLogin prohibit-password\nPasswordAuthentication no\n"
                     u"KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
                     u"PidFile none\nAllowTcpForwarding yes\nAllowStreamLocalForwarding yes\n"
                     u"LogLevel VERBOSE\n"_s.arg(port)
                         .arg(path("host_key"), path("authorized_keys"));
    // A home of the test's own: the machine's rc files (a pyenv rehash waiting on a lock, say)
    // are not the engine host under test.
    // sshd takes only its first SetEnv line: every variable goes on it.
    config += u"SetEnv HOME=%1"_s.arg(m_dir.path());
    if (!dockerSocket.isEmpty())
        config += u" DOCKER_HOST=unix://%1"_s.arg(dockerSocket);
    config += u'\n';
    const auto configFor = [this](const char *key) {
        return u"Host *\n  IdentityFile %1\n  IdentitiesOnly yes\n  IdentityAgent none\n"
               u"  UserKnownHostsFile %2\n  GlobalKnownHostsFile /dev/null\n"
               u"  UpdateHostKeys no\n"_s.arg(path(key), knownHosts());
    };
    if (!writeText(path("sshd_config"), config, why) ||
        !writeText(clientConfig(), configFor("id_test"), why) ||
        !writeText(strangerConfig(), configFor("id_stranger"), why) ||
        !writeText(knownHosts(), {}, why))
        return false;
    m_process = std::make_unique<QProcess>();
    m_process->start(sshd, {u"-D"_s, u"-e"_s, u"-f"_s, path("sshd_config")});
    static const QRegularExpression listening(u"Server listening on 127\\.0\\.0\\.1 port (\\d+)"_s);
    QByteArray seen;
    m_port = awaitLine(m_process.get(), listening, &seen).toInt();
    if (m_port > 0)
        return true;
    *why = u"sshd did not listen: "_s + QString::fromUtf8(seen);
    return false;
}

} // namespace sbxtest
