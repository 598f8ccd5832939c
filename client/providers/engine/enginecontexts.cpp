#include "client/providers/engine/enginecontexts.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// meta.json and config.json are a few hundred bytes; a huge one is not the CLI's.
constexpr qint64 kMaxConfigBytes = 1 << 20;

QJsonObject readObject(const QString &path, QString *why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = file.errorString();
        return {};
    }
    if (file.size() > kMaxConfigBytes) {
        *why =
            QCoreApplication::translate("sbx::EngineContexts", "%1 is larger than 1 MiB").arg(path);
        return {};
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isObject()) {
        *why = error.error != QJsonParseError::NoError
                   ? QCoreApplication::translate("sbx::EngineContexts", "%1 is not valid JSON: %2")
                         .arg(path, error.errorString())
                   : QCoreApplication::translate("sbx::EngineContexts", "%1 holds no JSON object")
                         .arg(path);
        return {};
    }
    return doc.object();
}

// The TLS files a folder holds, by the CLI's names.
void takeTlsFiles(const QString &folder, EngineEndpoint *endpoint) {
    const auto present = [&](const char *name) {
        const QString path = folder + u'/' + QLatin1String(name);
        return QFileInfo::exists(path) ? path : QString();
    };
    endpoint->caFile = present("ca.pem");
    endpoint->certFile = present("cert.pem");
    endpoint->keyFile = present("key.pem");
    if (endpoint->kind == EngineEndpoint::Kind::Tcp &&
        !(endpoint->caFile.isEmpty() && endpoint->certFile.isEmpty()))
        endpoint->tls = true;
}

} // namespace

bool EngineEndpoint::onLoopback() const {
    if (kind != Kind::Tcp)
        return false;
    if (address.compare(u"localhost"_s, Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress ip(address);
    return !ip.isNull() && ip.isLoopback();
}

bool EngineEndpoint::plainRemote() const {
    return kind == Kind::Tcp && !tls && !onLoopback();
}

QString EngineEndpoint::where() const {
    if (kind == Kind::Unix)
        return socketPath;
    QUrl url(host);
    return url.isValid() ? url.toString(QUrl::RemovePassword) : host;
}

bool parseEngineHost(const QString &host, EngineEndpoint *endpoint, QString *why) {
    endpoint->host = host;
    if (host.startsWith(u"unix://"_s)) {
        endpoint->kind = EngineEndpoint::Kind::Unix;
        endpoint->socketPath = host.mid(7);
        if (!endpoint->socketPath.startsWith(u'/')) {
            *why = QCoreApplication::translate("sbx::EngineContexts",
                                               "%1: a socket path must be absolute")
                       .arg(host);
            return false;
        }
        return true;
    }
    const QUrl url(host, QUrl::StrictMode);
    const QString scheme = url.scheme();
    if (!url.isValid() || url.host().isEmpty() || (scheme != u"tcp"_s && scheme != u"ssh"_s)) {
        *why = QCoreApplication::translate(
                   "sbx::EngineContexts",
                   "%1 is not an engine address the console can reach (unix://PATH, "
                   "tcp://HOST:PORT or ssh://USER@HOST[:PORT])")
                   .arg(host);
        return false;
    }
    if (!url.password().isEmpty()) {
        // The console never keeps a password; ssh asks for it, or better uses a key.
        *why = QCoreApplication::translate(
                   "sbx::EngineContexts",
                   "%1: a password in the address is refused; use an SSH key or agent")
                   .arg(url.toString(QUrl::RemovePassword));
        return false;
    }
    // Only ssh:// has a path: the socket on the far side, as podman's connections name it.
    const bool sshSocket =
        scheme == u"ssh"_s && url.path().startsWith(u'/') && url.path().size() > 1;
    if ((!url.path().isEmpty() && url.path() != u"/"_s && !sshSocket) || url.hasQuery()) {
        *why =
            QCoreApplication::translate("sbx::EngineContexts", "%1: an engine address has no path")
                .arg(host);
        return false;
    }
    endpoint->kind = scheme == u"tcp"_s ? EngineEndpoint::Kind::Tcp : EngineEndpoint::Kind::Ssh;
    endpoint->address = url.host();
    endpoint->port = url.port(-1);
    endpoint->user = url.userName();
    if (sshSocket)
        endpoint->remoteSocket = url.path();
    if (endpoint->kind == EngineEndpoint::Kind::Tcp && endpoint->port < 0) {
        *why =
            QCoreApplication::translate(
                "sbx::EngineContexts", "%1: a tcp:// address needs its port (2375 plain, 2376 TLS)")
                .arg(host);
        return false;
    }
    return true;
}

DockerContexts readDockerContexts(const QProcessEnvironment &env, const QString &defaultSocket) {
    DockerContexts out;
    QString configDir = env.value(u"DOCKER_CONFIG"_s);
    if (configDir.isEmpty())
        configDir = env.value(u"HOME"_s, QDir::homePath()) + u"/.docker"_s;

    EngineEndpoint fallback;
    fallback.name = u"default"_s;
    const QString dockerHost = env.value(u"DOCKER_HOST"_s);
    QString why;
    if (dockerHost.isEmpty() || !parseEngineHost(dockerHost, &fallback, &why)) {
        if (!dockerHost.isEmpty())
            out.problems
                << QCoreApplication::translate("sbx::EngineContexts", "DOCKER_HOST: %1").arg(why);
        fallback = {};
        fallback.name = u"default"_s;
        parseEngineHost(u"unix://"_s + defaultSocket, &fallback, &why);
        fallback.description =
            QCoreApplication::translate("sbx::EngineContexts", "The local engine");
    } else {
        fallback.description = QCoreApplication::translate("sbx::EngineContexts", "DOCKER_HOST");
        if (fallback.kind == EngineEndpoint::Kind::Tcp) {
            const QString verify = env.value(u"DOCKER_TLS_VERIFY"_s);
            const QString certs = env.value(u"DOCKER_CERT_PATH"_s, configDir);
            // As the CLI: any non-empty DOCKER_TLS_VERIFY turns verification on.
            if (!verify.isEmpty()) {
                fallback.tls = true;
                takeTlsFiles(certs, &fallback);
            }
        }
    }
    out.endpoints << fallback;

    const QDir meta(configDir + u"/contexts/meta"_s);
    QList<EngineEndpoint> named;
    const QStringList ids = meta.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &id : ids) {
        const QString file = meta.filePath(id + u"/meta.json"_s);
        const QJsonObject object = readObject(file, &why);
        if (object.isEmpty()) {
            out.problems << why;
            continue;
        }
        EngineEndpoint endpoint;
        endpoint.name = object.value(u"Name"_s).toString();
        endpoint.description =
            object.value(u"Metadata"_s).toObject().value(u"Description"_s).toString();
        const QJsonObject docker =
            object.value(u"Endpoints"_s).toObject().value(u"docker"_s).toObject();
        const QString host = docker.value(u"Host"_s).toString();
        if (endpoint.name.isEmpty() || endpoint.name == u"default"_s) {
            out.problems << QCoreApplication::translate("sbx::EngineContexts",
                                                        "%1: no usable context name")
                                .arg(file);
            continue;
        }
        if (host.isEmpty()) {
            // A context for another orchestrator only (the CLI's old kubernetes endpoint).
            out.problems << QCoreApplication::translate("sbx::EngineContexts",
                                                        "Context %1 has no Docker endpoint")
                                .arg(endpoint.name);
            continue;
        }
        if (!parseEngineHost(host, &endpoint, &why)) {
            out.problems << QCoreApplication::translate("sbx::EngineContexts", "Context %1: %2")
                                .arg(endpoint.name, why);
            continue;
        }
        endpoint.verify = !docker.value(u"SkipTLSVerify"_s).toBool();
        takeTlsFiles(configDir + u"/contexts/tls/"_s + id + u"/docker"_s, &endpoint);
        if (!endpoint.verify && endpoint.kind == EngineEndpoint::Kind::Tcp)
            endpoint.tls = true; // skipping verification only means anything over TLS
        named << endpoint;
    }
    std::sort(named.begin(), named.end(),
              [](const EngineEndpoint &a, const EngineEndpoint &b) { return a.name < b.name; });
    out.endpoints << named;

    QString current = env.value(u"DOCKER_CONTEXT"_s);
    if (current.isEmpty() && !dockerHost.isEmpty())
        current = u"default"_s;
    if (current.isEmpty()) {
        const QString config = configDir + u"/config.json"_s;
        if (QFileInfo::exists(config)) {
            const QJsonObject object = readObject(config, &why);
            if (object.isEmpty())
                out.problems << why;
            current = object.value(u"currentContext"_s).toString();
        }
    }
    const bool known = std::any_of(out.endpoints.cbegin(), out.endpoints.cend(),
                                   [&](const EngineEndpoint &e) { return e.name == current; });
    if (!current.isEmpty() && !known)
        out.problems << QCoreApplication::translate("sbx::EngineContexts",
                                                    "The current context %1 does not exist")
                            .arg(current);
    out.current = known ? current : u"default"_s;
    return out;
}

} // namespace sbx
