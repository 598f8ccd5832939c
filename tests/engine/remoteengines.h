#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace sbxtest {

// A throwaway PKI made with the openssl CLI: a CA, a server certificate for 127.0.0.1 and
// localhost, a client certificate, and a second CA that signed neither.
class TestCertificates final {
public:
    // False with why where openssl cannot make them.
    bool make(QString *why);
    QString dir() const { return m_dir.path(); }
    QString caFile() const { return path("ca.pem"); }
    QString otherCaFile() const { return path("other-ca.pem"); }
    QString serverCert() const { return path("server.pem"); }
    QString serverKey() const { return path("server.key"); }
    QString clientCert() const { return path("client.pem"); }
    QString clientKey() const { return path("client.key"); }

private:
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }
    bool openssl(const QStringList &args, QString *why);
    bool issue(const QString &name, const QString &subject, const QString &extensions,
               QString *why);

    QTemporaryDir m_dir;
};

// A real TLS terminator in front of an engine's Unix socket: socat listening on a loopback port
// with the server certificate, requiring a client certificate from the CA, as a TLS-protected
// engine does (podman's service itself speaks plain TCP only).
class TlsTerminator final {
public:
    TlsTerminator() = default;
    ~TlsTerminator();
    TlsTerminator(const TlsTerminator &) = delete;
    TlsTerminator &operator=(const TlsTerminator &) = delete;

    // Starts socat and waits (bounded) for its listening line; false with why.
    bool start(const TestCertificates &certs, const QString &unixSocket, QString *why);
    int port() const { return m_port; }

private:
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
};

// Debian's sshd on a loopback port with a throwaway host key, one authorised test key and a
// config file of its own (root only: sshd needs it for privilege separation). The client side
// is a config file for `ssh -F` naming the test key and a known_hosts file of the test's own.
class SshServer final {
public:
    SshServer() = default;
    ~SshServer();
    SshServer(const SshServer &) = delete;
    SshServer &operator=(const SshServer &) = delete;

    // Starts sshd (its remote sessions get DOCKER_HOST=unix://dockerSocket when that is given)
    // and waits (bounded) for its listening line; false with why.
    bool start(const QString &dockerSocket, QString *why);
    int port() const { return m_port; }
    // ssh -F this: the test key, the test's known_hosts, nothing from the machine.
    QString clientConfig() const { return path("ssh_config"); }
    QString knownHosts() const { return path("known_hosts"); }
    QString hostPublicKey() const { return path("host_key.pub"); }
    // A client config whose key sshd does not accept.
    QString strangerConfig() const { return path("stranger_config"); }
    // The host key's SHA256 fingerprint as ssh-keygen -l prints it.
    QString hostFingerprint() const;

private:
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }
    bool tool(const QString &program, const QStringList &args, QString *why,
              QByteArray *out = nullptr) const;

    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
};

} // namespace sbxtest
