#pragma once

#include "client/providers/engine/enginecontexts.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>
#include <memory>

namespace sbx {

// How ssh's words on stderr read to a person, and whether trying again may help.
struct SshFailure {
    enum class Kind { None, HostKeyUnknown, HostKeyChanged, AuthRefused, Unreachable, Other };
    Kind kind = Kind::None;
    QString message;
};
// Classifies the stderr of a failed ssh run against target (user@host:port, for messages).
SshFailure classifySshFailure(const QString &stderrText, const QString &target);
// The shell command, run on the engine host, that prints the first engine socket there:
// $DOCKER_HOST's when unix://, Docker's, the user's podman one, the system podman one.
QString remoteSocketProbe();

// One SSH connection to an engine host through the system ssh client (the user's keys, agent,
// config and known_hosts apply; BatchMode, so it never asks for or keeps a password): a
// ControlMaster whose mux socket carries the engine socket's forward to a local Unix socket and
// each sandbox's port forward, added and cancelled while it runs.
class SshLink final : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Connecting, HostKeyUnknown, Up, Failed };
    using ForwardDone = std::function<void(int localPort, const QString &why)>;

    explicit SshLink(EngineEndpoint endpoint, QObject *parent = nullptr);
    // Ends the master (and so every forward) and removes the local socket.
    ~SshLink() override;

    const EngineEndpoint &endpoint() const { return m_endpoint; }
    State state() const { return m_state; }
    // Why the link is HostKeyUnknown or Failed, for a person.
    QString problem() const { return m_problem; }
    // Whether connecting again may succeed without the user doing something (a dropped or
    // refused connection, not a refused key or an unknown host key).
    bool retryable() const { return m_retryable; }
    // What the last failure was (a refused login, an unknown or changed key, ...).
    SshFailure::Kind failureKind() const { return m_failureKind; }
    // The engine's socket, forwarded here once Up; fixed for the link's life.
    QString localSocket() const;
    // The engine's socket on the host, once found.
    QString remoteSocket() const { return m_remoteSocket; }
    // When HostKeyUnknown: the host's keys as ssh-keygen -l prints them (SHA256:...).
    QStringList hostKeyFingerprints() const { return m_fingerprints; }

    // Starts the master, finds the engine socket, forwards it; stateChanged reports each step.
    void connectToHost();
    // Adds the scanned keys (those hostKeyFingerprints() shows) to the user's known_hosts file
    // and connects again.
    void trustHostKey();
    // Forwards a free local loopback port to remoteHost:remotePort as seen from the engine host;
    // done gets the local port, or -1 and why. done runs on context's thread unless it is gone.
    void forwardPort(const QString &remoteHost, int remotePort, QObject *context, ForwardDone done);
    void cancelForward(int localPort);
    // Where a local port leads, "127.0.0.1:N -> host:port", for the sandbox's detail line.
    QString describeForward(int localPort) const;

Q_SIGNALS:
    void stateChanged(sbx::SshLink::State state);

private:
    struct Forward {
        QString remoteHost;
        int remotePort = 0;
    };
    QStringList baseArgs() const;
    QString destination() const;
    // Runs ssh (or another tool) with args, bounded; done gets the exit code (-1: did not run or
    // timed out), stdout and stderr.
    void run(const QString &program, const QStringList &args, const QByteArray &input,
             std::function<void(int code, const QByteArray &out, const QByteArray &err)> done);
    void setState(State state, const QString &problem = {}, bool retryable = false);
    void pollMaster();
    void onMasterFinished();
    void findSocket();
    void forwardSocket();
    void scanHostKeys();
    void stopMaster();

    EngineEndpoint m_endpoint;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_master;
    QByteArray m_masterErr;
    QTimer m_check;
    int m_checks = 0;
    bool m_checking = false;
    State m_state = State::Idle;
    QString m_problem;
    bool m_retryable = false;
    SshFailure::Kind m_failureKind = SshFailure::Kind::None;
    QString m_remoteSocket;
    QStringList m_fingerprints;
    QByteArray m_scannedKeys;
    QString m_knownHostsFile; // where ssh -G says the trusted keys go
    std::map<int, Forward> m_forwards;
};

} // namespace sbx
