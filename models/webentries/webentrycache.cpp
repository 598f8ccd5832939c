#include "models/webentries/webentrycache.h"

#include "client/api/webentry.h"
#include "client/providers/sandboxregistry.h"
#include "client/sandboxclient.h"

namespace sbx {

WebEntryCache::WebEntryCache(SandboxRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry) {
    connect(registry, &SandboxRegistry::stateChanged, this, &WebEntryCache::onStateChanged);
    connect(registry, &SandboxRegistry::removed, this, &WebEntryCache::onRemoved);
}

WebEntryCache::~WebEntryCache() {
    for (const Known &known : std::as_const(m_known)) {
        if (known.job)
            known.job->abort();
    }
}

WebEntryAvailability WebEntryCache::availability(const QString &sandboxId) const {
    const auto it = m_known.constFind(sandboxId);
    if (it == m_known.cend() || !online(sandboxId))
        return {};
    return it->availability;
}

bool WebEntryCache::online(const QString &sandboxId) const {
    return m_registry->contains(sandboxId) && m_registry->state(sandboxId) == SandboxState::Online;
}

WebEntryCache::Known &WebEntryCache::track(const QString &sandboxId) {
    Known &known = m_known[sandboxId];
    SandboxClient *client = m_registry->client(sandboxId);
    if (known.client != client) {
        if (known.client)
            known.client->disconnect(this);
        known.client = client;
        if (client) {
            // Another address or key: what the old one served says nothing. The registry probes
            // the sandbox again, and its return to online probes the pages.
            connect(client, &SandboxClient::connectionSettingsChanged, this,
                    [this, sandboxId] { forget(sandboxId); });
        }
    }
    return known;
}

void WebEntryCache::request(const QString &sandboxId) {
    if (!online(sandboxId))
        return;
    Known &known = track(sandboxId);
    if (known.job)
        return;
    const bool fresh = known.availability.state == WebEntryAvailability::State::Known &&
                       known.probedAt.isValid() && !known.probedAt.hasExpired(m_expiryMs);
    if (!fresh)
        probe(sandboxId);
}

void WebEntryCache::refresh(const QString &sandboxId) {
    forget(sandboxId);
    request(sandboxId);
}

void WebEntryCache::probe(const QString &sandboxId) {
    Known &known = track(sandboxId);
    if (!known.client)
        return;
    auto *job = new WebEntryProbeJob(known.client);
    known.job = job;
    known.availability.state = WebEntryAvailability::State::Checking;
    known.availability.served.clear();
    known.availability.error = {};
    connect(job, &WebEntryProbeJob::succeeded, this,
            [this, sandboxId](const QList<WebEntryProbe> &probes) {
                const auto it = m_known.find(sandboxId);
                if (it == m_known.end())
                    return;
                QStringList served;
                for (const WebEntryProbe &page : probes) {
                    if (page.served)
                        served << page.id;
                }
                it->availability = {WebEntryAvailability::State::Known, served, {}};
                it->probedAt.start();
                Q_EMIT changed(sandboxId);
            });
    connect(job, &Job::failed, this, [this, sandboxId](const Status &status) {
        const auto it = m_known.find(sandboxId);
        if (it == m_known.end())
            return;
        it->availability = {WebEntryAvailability::State::Failed, {}, status};
        it->probedAt.start();
        Q_EMIT changed(sandboxId);
    });
    job->start();
    Q_EMIT changed(sandboxId);
}

void WebEntryCache::abortProbe(Known &known) {
    if (known.job) {
        known.job->disconnect(this);
        known.job->abort();
    }
    known.job = nullptr;
}

void WebEntryCache::forget(const QString &sandboxId) {
    const auto it = m_known.find(sandboxId);
    if (it == m_known.end())
        return;
    abortProbe(*it);
    it->availability = {};
    it->probedAt.invalidate();
    Q_EMIT changed(sandboxId);
}

void WebEntryCache::onStateChanged(const QString &sandboxId, SandboxState state) {
    if (!m_known.contains(sandboxId))
        return;
    // Back online (after a restart, a pause, a lost network, new credentials): the pages may
    // have changed with it. Gone offline: nothing is known until it is back.
    forget(sandboxId);
    if (state == SandboxState::Online)
        probe(sandboxId);
}

void WebEntryCache::onRemoved(const QString &sandboxId) {
    const auto it = m_known.find(sandboxId);
    if (it == m_known.end())
        return;
    abortProbe(*it);
    if (it->client)
        it->client->disconnect(this);
    m_known.erase(it);
}

} // namespace sbx
