#pragma once

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sbx {

// One container engine the console can speak to: a local socket, tcp:// (with TLS or not) or
// ssh://, as the Docker CLI names its endpoints. Holds paths to TLS material, never its content.
struct EngineEndpoint {
    enum class Kind { Unix, Tcp, Ssh };
    QString name; // "default" or a Docker context's name
    QString description;
    QString host; // as given: unix:///run/podman/podman.sock, tcp://h:2376, ssh://u@h:22
    Kind kind = Kind::Unix;
    QString socketPath; // Unix; Ssh: the local end of the link's forward of the engine socket
    QString address;    // Tcp, Ssh: the host name or address
    int port = -1;      // Tcp, Ssh: -1 when the default
    QString user;       // Ssh
    bool tls = false;   // Tcp: TLS is used (a CA, a certificate or DOCKER_TLS_VERIFY)
    bool verify = true; // Tcp with TLS: the server's certificate is checked
    QString caFile;
    QString certFile;
    QString keyFile;
    QString remoteSocket;   // Ssh: the engine's socket on the far side (podman's ssh://u@h/PATH)
    QStringList sshOptions; // Ssh: the user's extra options for ssh (-i KEY, -F FILE)
    bool plainConfirmed = false; // the user accepted plainRemote()
    // The address for messages: the socket path, or the host without any secret.
    QString where() const;
    // A tcp:// endpoint on this machine's loopback (or "localhost").
    bool onLoopback() const;
    // True for a tcp:// endpoint without TLS on an address that is not loopback: the user must
    // confirm it, since anyone on the path can drive the engine.
    bool plainRemote() const;
};

// Parses an endpoint's host (DOCKER_HOST's syntax) into endpoint; false with why when it is not
// one the console can reach.
bool parseEngineHost(const QString &host, EngineEndpoint *endpoint, QString *why);

// What the Docker CLI's configuration names: its contexts and which is current.
struct DockerContexts {
    QList<EngineEndpoint> endpoints; // "default" first, then the contexts by name
    QString current;                 // the name of the current one
    QStringList problems;            // contexts that could not be read, each with why
};

// Reads the Docker CLI's contexts as the CLI does: the folder is $DOCKER_CONFIG or ~/.docker;
// contexts/meta/*/meta.json name the endpoints, contexts/tls/<same>/docker/ holds their TLS
// files; the current one is $DOCKER_CONTEXT, else "default" when $DOCKER_HOST is set, else
// config.json's currentContext. "default" is $DOCKER_HOST (with $DOCKER_TLS_VERIFY and
// $DOCKER_CERT_PATH), else defaultSocket.
DockerContexts readDockerContexts(const QProcessEnvironment &env, const QString &defaultSocket);

} // namespace sbx
