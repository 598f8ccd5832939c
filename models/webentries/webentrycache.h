#pragma once

#include "client/providers/sandboxprovider.h"
#include "client/transport/status.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace sbx {

class SandboxClient;
class SandboxRegistry;
class WebEntryProbeJob;

// What the console knows of the web entries one sandbox serves.
struct WebEntryAvailability {
    enum class State {
        Offline,  // the sandbox is not online, or nobody asked yet: nothing probed
        Checking, // a probe is running
        Known,    // served holds what the last probe found
        Failed,   // the last probe got no answer; error says why
    };
    State state = State::Offline;
    // Ids of the entries served (client/api/webentry.h), in webEntries() order.
    QStringList served;
    Status error;
};

// Which web entries each sandbox serves: probed when first asked for while the sandbox is
// online, again when it comes back online or its connection changes, and once what is known is
// older than the expiry. The registry owns the connections; this only borrows them.
class WebEntryCache final : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultExpiryMs = 3 * 60 * 1000;

    explicit WebEntryCache(SandboxRegistry *registry, QObject *parent = nullptr);
    ~WebEntryCache() override;

    // What is known now; never starts a probe.
    WebEntryAvailability availability(const QString &sandboxId) const;
    // Probes the sandbox where nothing fresh is known of it (never probed, expired, failed) and
    // it is online. A menu calls it as it opens.
    void request(const QString &sandboxId);
    // Forgets what is known of the sandbox and probes it now ("Check again").
    void refresh(const QString &sandboxId);

    void setExpiryMs(int ms) { m_expiryMs = ms; }
    int expiryMs() const { return m_expiryMs; }

Q_SIGNALS:
    // The sandbox's availability changed: a probe started or ended, or what was known is gone.
    void changed(const QString &sandboxId);

private:
    struct Known {
        WebEntryAvailability availability;
        QElapsedTimer probedAt; // invalid until a probe ended
        QPointer<WebEntryProbeJob> job;
        QPointer<SandboxClient> client; // whose connectionSettingsChanged is followed
    };
    bool online(const QString &sandboxId) const;
    Known &track(const QString &sandboxId);
    void probe(const QString &sandboxId);
    // Stops its running probe, whose answer no one wants any more.
    void abortProbe(Known &known);
    // Drops what is known (and a running probe) but keeps following the sandbox.
    void forget(const QString &sandboxId);
    void onStateChanged(const QString &sandboxId, SandboxState state);
    void onRemoved(const QString &sandboxId);

    SandboxRegistry *m_registry;
    // Sandboxes asked about since they were listed; O(1) by id.
    QHash<QString, Known> m_known;
    int m_expiryMs = kDefaultExpiryMs;
};

} // namespace sbx
