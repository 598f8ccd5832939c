#include "client/providers/sandboxregistry.h"

#include "client/api/observejobs.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/traffic/trafficrecorder.h"

namespace sbx {

struct SandboxRegistry::Sandbox {
    SandboxEntry entry;
    QPointer<SandboxProvider> provider;
    SandboxClient *client = nullptr;
    QPointer<ProbeJob> probe;
    QPointer<ObserveLiveJob> usage;
    SandboxHealth health;
};

SandboxRegistry::SandboxRegistry(QObject *parent)
    : QObject(parent)
    , m_traffic(new TrafficRecorder(this)) {
    m_timer.setInterval(5000);
    connect(&m_timer, &QTimer::timeout, this, &SandboxRegistry::probeAll);
    m_timer.start();
}

SandboxRegistry::~SandboxRegistry() {
    for (const auto &sandbox : std::as_const(m_sandboxes)) {
        if (sandbox->probe)
            sandbox->probe->abort();
    }
}

void SandboxRegistry::addProvider(SandboxProvider *provider) {
    m_providers.append(provider);
    connect(provider, &SandboxProvider::sandboxAdded, this,
            [this, provider](const SandboxEntry &entry) { onAdded(provider, entry); });
    connect(provider, &SandboxProvider::sandboxChanged, this, &SandboxRegistry::onChanged);
    connect(provider, &SandboxProvider::sandboxRemoved, this, &SandboxRegistry::onRemoved);
    const QList<SandboxEntry> entries = provider->sandboxes();
    for (const SandboxEntry &entry : entries)
        onAdded(provider, entry);
}

QList<SandboxProvider *> SandboxRegistry::providers() const {
    QList<SandboxProvider *> out;
    for (const auto &p : m_providers) {
        if (p)
            out << p;
    }
    return out;
}

SandboxProvider *SandboxRegistry::provider(const QString &providerId) const {
    for (const auto &p : m_providers) {
        if (p && p->id() == providerId)
            return p;
    }
    return nullptr;
}

SandboxEntry SandboxRegistry::entry(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it == m_sandboxes.cend() ? SandboxEntry{} : (*it)->entry;
}

SandboxProvider *SandboxRegistry::providerOf(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it == m_sandboxes.cend() ? nullptr : (*it)->provider.data();
}

SandboxClient *SandboxRegistry::client(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it == m_sandboxes.cend() ? nullptr : (*it)->client;
}

SandboxHealth SandboxRegistry::health(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it == m_sandboxes.cend() ? SandboxHealth{} : (*it)->health;
}

SandboxState SandboxRegistry::stateOf(const Sandbox &sandbox) const {
    if (sandbox.entry.providerState != SandboxState::Online)
        return sandbox.entry.providerState;
    if (!sandbox.entry.endpoint.isValid() || !sandbox.health.probed)
        return SandboxState::Starting;
    if (sandbox.health.status.ok())
        return SandboxState::Online;
    if (sandbox.health.status.kind == Status::Kind::Auth)
        return SandboxState::AuthFailed;
    return SandboxState::Unreachable;
}

SandboxState SandboxRegistry::state(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it == m_sandboxes.cend() ? SandboxState::Stopped : stateOf(**it);
}

QString SandboxRegistry::lastError(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend())
        return {};
    const Sandbox &s = **it;
    if (!s.entry.detail.isEmpty())
        return s.entry.detail;
    if (s.entry.providerState == SandboxState::Online && s.health.probed && !s.health.status.ok())
        return s.health.status.message;
    return {};
}

LifecycleActions SandboxRegistry::actions(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend() || !(*it)->provider)
        return {};
    return (*it)->provider->actions((*it)->entry);
}

void SandboxRegistry::setPollInterval(int ms) {
    m_timer.setInterval(qMax(500, ms));
}

int SandboxRegistry::pollInterval() const {
    return m_timer.interval();
}

void SandboxRegistry::onAdded(SandboxProvider *provider, const SandboxEntry &entry) {
    if (m_sandboxes.contains(entry.id)) {
        onChanged(entry);
        return;
    }
    auto sandbox = std::make_shared<Sandbox>();
    sandbox->entry = entry;
    sandbox->provider = provider;
    sandbox->client = new SandboxClient(entry.endpoint, entry.credentials, this);
    sandbox->client->setTrafficRecorder(m_traffic, entry.name);
    m_sandboxes.insert(entry.id, sandbox);
    m_order.append(entry.id);
    Q_EMIT added(entry.id);
    probe(entry.id);
}

void SandboxRegistry::onChanged(const SandboxEntry &entry) {
    const auto it = m_sandboxes.constFind(entry.id);
    if (it == m_sandboxes.cend())
        return;
    Sandbox &s = **it;
    const SandboxState before = stateOf(s);
    const bool connectionChanged =
        !(s.entry.endpoint == entry.endpoint) || !(s.entry.credentials == entry.credentials);
    s.entry = entry;
    s.client->setTrafficRecorder(m_traffic, entry.name);
    if (connectionChanged) {
        s.client->setEndpoint(entry.endpoint);
        s.client->setCredentials(entry.credentials);
        s.health.probed = false;
        if (s.probe)
            s.probe->abort();
    }
    publish(entry.id, before);
    if (connectionChanged)
        probe(entry.id);
}

void SandboxRegistry::onRemoved(const QString &id) {
    const std::shared_ptr<Sandbox> sandbox = m_sandboxes.take(id);
    if (!sandbox)
        return;
    m_order.removeOne(id);
    if (sandbox->probe)
        sandbox->probe->abort();
    if (sandbox->usage)
        sandbox->usage->abort();
    // Workspaces that borrowed it drop their pointers when it is destroyed, on the next turn.
    sandbox->client->deleteLater();
    Q_EMIT removed(id);
}

void SandboxRegistry::probeAll() {
    const QStringList ids = m_order;
    for (const QString &id : ids)
        probe(id);
}

void SandboxRegistry::probe(const QString &id) {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend())
        return;
    Sandbox &s = **it;
    if (s.probe || s.entry.providerState != SandboxState::Online || !s.entry.endpoint.isValid())
        return;
    // A credential still being read from the keychain would only produce a false auth failure.
    if (s.provider && s.provider->credentialsPending(s.entry))
        return;
    auto *job = new ProbeJob(s.client, qMin(5000, qMax(1000, m_timer.interval())));
    s.probe = job;
    connect(job, &ProbeJob::succeeded, this,
            [this, id](const ProbeResult &r) { onProbeFinished(id, Status::success(), r); });
    connect(job, &ApiJob::failed, this,
            [this, id](const Status &status) { onProbeFinished(id, status, {}); });
    job->start();
}

void SandboxRegistry::onProbeFinished(const QString &id, const Status &status,
                                      const ProbeResult &result) {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend())
        return;
    SandboxHealth &h = (*it)->health;
    const SandboxState before = stateOf(**it);
    const bool same =
        h.probed && h.status.kind == status.kind && h.status.message == status.message &&
        (!status.ok() || (h.latencyMs == result.latencyMs && h.version == result.version));
    h.probed = true;
    h.status = status;
    if (status.ok()) {
        h.latencyMs = result.latencyMs;
        h.version = result.version;
    }
    if (!same)
        publish(id, before);
    if (status.ok())
        askUsage(id);
}

void SandboxRegistry::askUsage(const QString &id) {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend() || (*it)->usage || (*it)->health.noObserve)
        return;
    auto *job = new ObserveLiveJob((*it)->client, 0);
    (*it)->usage = job;
    connect(job, &ObserveLiveJob::succeeded, this, [this, id](const ObserveSnapshot &snapshot) {
        const auto found = m_sandboxes.constFind(id);
        if (found == m_sandboxes.cend())
            return;
        SandboxHealth &h = (*found)->health;
        const std::optional<qint64> mem = snapshot.memCurrentBytes;
        if (h.cpuPct == snapshot.cpuPct && h.memBytes == mem)
            return;
        h.cpuPct = snapshot.cpuPct;
        h.memBytes = mem;
        publish(id, stateOf(**found));
    });
    connect(job, &ApiJob::failed, this, [this, id](const Status &status) {
        const auto found = m_sandboxes.constFind(id);
        if (found == m_sandboxes.cend())
            return;
        SandboxHealth &h = (*found)->health;
        // No observe API (an older AIO): say nothing rather than a wrong figure.
        h.noObserve = status.kind == Status::Kind::NotFound;
        if (h.cpuPct || h.memBytes) {
            h.cpuPct.reset();
            h.memBytes.reset();
            publish(id, stateOf(**found));
        }
    });
    job->start();
}

void SandboxRegistry::publish(const QString &id, SandboxState before) {
    Q_EMIT changed(id);
    const SandboxState now = state(id);
    if (now != before)
        Q_EMIT stateChanged(id, now);
}

} // namespace sbx
