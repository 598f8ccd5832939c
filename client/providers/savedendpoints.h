#pragma once

#include "client/providers/sandboxprovider.h"

#include <QSet>

class QSettings;

namespace sbx {

using namespace Qt::StringLiterals;

class SecretStore;

// Sandboxes the user added by address. Settings hold names, URLs and TLS choices; secrets go to
// the SecretStore and never into the settings file.
class SavedEndpoints final : public SandboxProvider {
    Q_OBJECT
public:
    SavedEndpoints(QSettings *settings, SecretStore *secrets, QObject *parent = nullptr);

    QString id() const override { return u"saved"_s; }
    QString displayName() const override { return tr("Saved"); }
    QList<SandboxEntry> sandboxes() const override { return m_entries; }
    LifecycleActions actions(const SandboxEntry &entry) const override;
    void remove(const QString &id) override;
    bool credentialsPending(const SandboxEntry &entry) const override {
        return m_pendingReads.contains(entry.id);
    }

    // Adds a sandbox and returns its id.
    QString add(SandboxEntry entry);
    void update(const SandboxEntry &entry);
    void forget(const QString &id);
    const SandboxEntry *find(const QString &id) const;

private:
    void load();
    void save(const SandboxEntry &entry);

    QSettings *m_settings;
    SecretStore *m_secrets;
    QList<SandboxEntry> m_entries;
    // Saved sandboxes whose secret is still being read from the store.
    QSet<QString> m_pendingReads;
};

} // namespace sbx
