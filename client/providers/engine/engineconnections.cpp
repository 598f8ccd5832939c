#include "client/providers/engine/engineconnections.h"

#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/sandboxregistry.h"

#include <QSettings>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr auto kEnabledKey = "engines/enabled";
constexpr auto kAddedGroup = "engines/added";

bool byName(const EngineChoice &a, const EngineChoice &b) {
    return a.endpoint.name < b.endpoint.name;
}

} // namespace

EngineConnections::EngineConnections(QSettings *settings, SecretStore *secrets,
                                     SandboxRegistry *registry, EngineSandboxes *defaultEngine,
                                     QProcessEnvironment env, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_registry(registry)
    , m_default(defaultEngine)
    , m_env(std::move(env)) {
    connect(m_default, &SandboxProvider::statusChanged, this, &EngineConnections::changed);
    load();
    sync();
}

EngineConnections::~EngineConnections() {
    for (auto &[name, provider] : m_providers)
        m_registry->removeProvider(provider);
}

void EngineConnections::load() {
    const DockerContexts contexts = readDockerContexts(m_env, m_default->socketPath());
    m_current = contexts.current;
    // Until the user chooses, the Docker CLI's current context is on, as `docker ps` would use it.
    const QStringList enabled = m_settings->contains(QLatin1String(kEnabledKey))
                                    ? m_settings->value(QLatin1String(kEnabledKey)).toStringList()
                                    : QStringList{contexts.current};
    m_contextProblems = contexts.problems;
    m_contexts.clear();
    for (const EngineEndpoint &endpoint : contexts.endpoints) {
        if (endpoint.name == u"default"_s)
            continue; // the default engine is the provider already in the list
        m_contexts.append(
            {endpoint, EngineChoice::Origin::DockerContext, enabled.contains(endpoint.name)});
    }
    m_added.clear();
    m_settings->beginGroup(QLatin1String(kAddedGroup));
    const QStringList keys = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &key : keys) {
        m_settings->beginGroup(QLatin1String(kAddedGroup) + u'/' + key);
        EngineEndpoint endpoint;
        QString why;
        const bool parsed =
            parseEngineHost(m_settings->value(u"host"_s).toString(), &endpoint, &why);
        endpoint.name = m_settings->value(u"name"_s).toString();
        endpoint.description = m_settings->value(u"description"_s).toString();
        endpoint.tls = m_settings->value(u"tls"_s, endpoint.tls).toBool();
        endpoint.verify = m_settings->value(u"verify"_s, true).toBool();
        endpoint.caFile = m_settings->value(u"caFile"_s).toString();
        endpoint.certFile = m_settings->value(u"certFile"_s).toString();
        endpoint.keyFile = m_settings->value(u"keyFile"_s).toString();
        endpoint.sshOptions = m_settings->value(u"sshOptions"_s).toStringList();
        endpoint.plainConfirmed = m_settings->value(u"plainConfirmed"_s).toBool();
        m_settings->endGroup();
        if (parsed && !endpoint.name.isEmpty())
            m_added.append(
                {endpoint, EngineChoice::Origin::Added, enabled.contains(endpoint.name)});
    }
    std::sort(m_contexts.begin(), m_contexts.end(), byName);
    std::sort(m_added.begin(), m_added.end(), byName);
}

void EngineConnections::saveAdded() const {
    m_settings->remove(QLatin1String(kAddedGroup));
    int index = 0;
    for (const EngineChoice &choice : m_added) {
        const EngineEndpoint &e = choice.endpoint;
        m_settings->beginGroup(QLatin1String(kAddedGroup) + u'/' + QString::number(index++));
        m_settings->setValue(u"name"_s, e.name);
        m_settings->setValue(u"description"_s, e.description);
        m_settings->setValue(u"host"_s, e.host);
        m_settings->setValue(u"tls"_s, e.tls);
        m_settings->setValue(u"verify"_s, e.verify);
        m_settings->setValue(u"caFile"_s, e.caFile);
        m_settings->setValue(u"certFile"_s, e.certFile);
        m_settings->setValue(u"keyFile"_s, e.keyFile);
        m_settings->setValue(u"sshOptions"_s, e.sshOptions);
        m_settings->setValue(u"plainConfirmed"_s, e.plainConfirmed);
        m_settings->endGroup();
    }
    m_settings->sync();
}

void EngineConnections::saveEnabled() const {
    QStringList enabled;
    for (const QList<EngineChoice> *list : {&m_contexts, &m_added}) {
        for (const EngineChoice &choice : *list) {
            if (choice.enabled)
                enabled << choice.endpoint.name;
        }
    }
    m_settings->setValue(QLatin1String(kEnabledKey), enabled);
    m_settings->sync();
}

// One provider for each engine that is on, none for the others.
void EngineConnections::sync() {
    std::map<QString, const EngineChoice *> wanted;
    for (const QList<EngineChoice> *list : {&m_contexts, &m_added}) {
        for (const EngineChoice &choice : *list) {
            if (choice.enabled)
                wanted.emplace(choice.endpoint.name, &choice);
        }
    }
    for (auto it = m_providers.begin(); it != m_providers.end();) {
        const auto want = wanted.find(it->first);
        // An engine whose address changed gets a new provider.
        if (want != wanted.end() && want->second->endpoint.host == it->second->endpoint().host) {
            ++it;
            continue;
        }
        m_registry->removeProvider(it->second);
        delete it->second;
        it = m_providers.erase(it);
    }
    for (const auto &[name, choice] : wanted) {
        if (m_providers.count(name))
            continue;
        auto *provider = new EngineSandboxes(m_secrets, choice->endpoint, this);
        connect(provider, &SandboxProvider::statusChanged, this, &EngineConnections::changed);
        m_providers.emplace(name, provider);
        m_registry->addProvider(provider);
    }
}

QList<EngineChoice> EngineConnections::choices() const {
    QList<EngineChoice> out;
    EngineChoice local{m_default->endpoint(), EngineChoice::Origin::Default, true};
    out << local << m_contexts << m_added;
    return out;
}

EngineSandboxes *EngineConnections::provider(const QString &name) const {
    if (name.isEmpty() || name == u"default"_s)
        return m_default;
    const auto it = m_providers.find(name);
    return it == m_providers.end() ? nullptr : it->second;
}

void EngineConnections::setEnabled(const QString &name, bool enabled) {
    for (QList<EngineChoice> *list : {&m_contexts, &m_added}) {
        for (EngineChoice &choice : *list) {
            if (choice.endpoint.name == name)
                choice.enabled = enabled;
        }
    }
    saveEnabled();
    sync();
    Q_EMIT changed();
}

bool EngineConnections::add(const EngineEndpoint &endpoint, QString *why) {
    EngineEndpoint checked;
    if (!parseEngineHost(endpoint.host, &checked, why))
        return false;
    const QString name = endpoint.name.trimmed();
    if (name.isEmpty() || name == u"default"_s) {
        *why = tr("Give the engine a name other than \"default\".");
        return false;
    }
    const QList<EngineChoice> all = choices();
    if (std::any_of(all.cbegin(), all.cend(),
                    [&](const EngineChoice &c) { return c.endpoint.name == name; })) {
        *why = tr("An engine named %1 is already in the list.").arg(name);
        return false;
    }
    EngineEndpoint added = endpoint;
    added.name = name;
    added.kind = checked.kind;
    added.socketPath = checked.socketPath;
    added.address = checked.address;
    added.port = checked.port;
    added.user = checked.user;
    added.remoteSocket = checked.remoteSocket;
    if (added.kind == EngineEndpoint::Kind::Tcp && !added.caFile.isEmpty())
        added.tls = true;
    if (added.plainRemote() && !added.plainConfirmed) {
        *why = tr("%1 is plain TCP to another machine: anyone on the way could drive the "
                  "engine. Give a CA for TLS, or confirm plain TCP.")
                   .arg(added.where());
        return false;
    }
    m_added.append({added, EngineChoice::Origin::Added, true});
    std::sort(m_added.begin(), m_added.end(), byName);
    saveAdded();
    saveEnabled();
    sync();
    Q_EMIT changed();
    return true;
}

void EngineConnections::remove(const QString &name) {
    const auto gone = std::remove_if(m_added.begin(), m_added.end(), [&](const EngineChoice &c) {
        return c.endpoint.name == name;
    });
    if (gone == m_added.end())
        return;
    m_added.erase(gone, m_added.end());
    saveAdded();
    saveEnabled();
    sync();
    Q_EMIT changed();
}

void EngineConnections::reload() {
    load();
    sync();
    Q_EMIT changed();
}

} // namespace sbx
