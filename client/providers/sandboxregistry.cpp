#include "client/providers/sandboxregistry.h"

#include "client/api/observejobs.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/traffic/trafficrecorder.h"

namespace sbx {

namespace {
// A probe (its round trip and the server building the context) from which answers are asked
// for compressed.
constexpr qint64 kCompressAboveMs = 20;
} // namespace

struct SandboxRegistry::Sandbox {
    SandboxEntry entry;
    QPointer<SandboxProvider> provider;
    SandboxClient *client = nullptr;
    QPointer<ProbeJob> probe;
    QPointer<ObserveLiveJob> usage;
    bool providerUsage = false; // a provider reading in flight
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

void SandboxRegistry::removeProvider(SandboxProvider *provider) {
    if (!m_providers.removeOne(provider))
        return;
    provider->disconnect(this);
    const QStringList ids = m_order;
    for (const QString &id : ids) {
        const auto it = m_sandboxes.constFind(id);
        if (it != m_sandboxes.cend() && (*it)->provider == provider)
            onRemoved(id);
    }
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
    // A stream that went silent, or came back while the list says unreachable: look now,
    // rather than at the next poll, so the list and the stream agree.
    connect(sandbox->client, &SandboxClient::linkSilent, this,
            [this, id = entry.id] { probe(id); });
    connect(sandbox->client, &SandboxClient::reachabilityChanged, this,
            [this, id = entry.id](bool reachable) {
                if (reachable && state(id) == SandboxState::Unreachable)
                    probe(id);
            });
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
    // The streams of this sandbox hear it too: the list and its terminals agree.
    if (status.ok())
        (*it)->client->reportReachable(true);
    else if (status.transient())
        (*it)->client->reportReachable(false);
    if (status.ok()) {
        h.latencyMs = result.latencyMs;
        h.version = result.version;
        // Compression pays where the round trip is long; next door it costs more than it saves.
        (*it)->client->setCompression(result.latencyMs >= kCompressAboveMs);
    }
    if (!same)
        publish(id, before);
    if (status.ok())
        askUsage(id);
}

void SandboxRegistry::askUsage(const QString &id) {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend() || (*it)->usage)
        return;
    if ((*it)->health.noObserve) {
        askProviderUsage(id);
        return;
    }
    auto *job = new ObserveLiveJob((*it)->client, 0);
    (*it)->usage = job;
    connect(job, &ObserveLiveJob::succeeded, this, [this, id](const ObserveSnapshot &snapshot) {
        setUsage(id, snapshot.cpuPct, snapshot.memCurrentBytes);
    });
    connect(job, &ApiJob::failed, this, [this, id](const Status &status) {
        const auto found = m_sandboxes.constFind(id);
        if (found == m_sandboxes.cend())
            return;
        // No observe API (an older AIO): the provider's figures where it has them, else nothing
        // rather than a wrong figure.
        (*found)->health.noObserve = status.kind == Status::Kind::NotFound;
        setUsage(id, std::nullopt, std::nullopt);
        if ((*found)->health.noObserve)
            askProviderUsage(id);
    });
    job->start();
}

void SandboxRegistry::askProviderUsage(const QString &id) {
    const auto it = m_sandboxes.constFind(id);
    if (it == m_sandboxes.cend() || (*it)->providerUsage || !hasResourceFigures(id))
        return;
    (*it)->providerUsage = true;
    readResourceFigures(id, this, [this, id](const ResourceFigures &figures, const Status &status) {
        const auto found = m_sandboxes.constFind(id);
        if (found == m_sandboxes.cend())
            return;
        (*found)->providerUsage = false;
        if (status.ok())
            setUsage(id, figures.cpuPct, figures.memBytes);
        else
            setUsage(id, std::nullopt, std::nullopt);
    });
}

void SandboxRegistry::setUsage(const QString &id, std::optional<double> cpuPct,
                               std::optional<qint64> memBytes) {
    const auto found = m_sandboxes.constFind(id);
    if (found == m_sandboxes.cend())
        return;
    SandboxHealth &h = (*found)->health;
    if (h.cpuPct == cpuPct && h.memBytes == memBytes)
        return;
    h.cpuPct = cpuPct;
    h.memBytes = memBytes;
    publish(id, stateOf(**found));
}

bool SandboxRegistry::hasResourceFigures(const QString &id) const {
    const auto it = m_sandboxes.constFind(id);
    return it != m_sandboxes.cend() && (*it)->provider &&
           (*it)->provider->hasResourceFigures((*it)->entry);
}

void SandboxRegistry::readResourceFigures(const QString &id, QObject *context,
                                          ResourceFiguresDone done) {
    const auto it = m_sandboxes.constFind(id);
    SandboxProvider *provider = it == m_sandboxes.cend() ? nullptr : (*it)->provider.data();
    if (provider) {
        provider->readResourceFigures(id, context, std::move(done));
        return;
    }
    QMetaObject::invokeMethod(
        context,
        [done = std::move(done)] {
            done({}, Status::error(Status::Kind::NotFound, tr("The sandbox is no longer listed.")));
        },
        Qt::QueuedConnection);
}

void SandboxRegistry::publish(const QString &id, SandboxState before) {
    Q_EMIT changed(id);
    const SandboxState now = state(id);
    if (now != before)
        Q_EMIT stateChanged(id, now);
}

} // namespace sbx
