#pragma once

#include "client/providers/secretstore.h"

#include <QHash>
#include <QObject>

namespace sbx {

// Secrets in the OS keychain through QtKeychain, mirrored in memory. Without a keychain backend
// (headless, CI) it keeps them in memory for this session and says so.
class KeychainSecretStore final : public QObject, public SecretStore {
    Q_OBJECT
public:
    // useKeychain false: memory only (SBX_NO_KEYCHAIN=1, tests).
    explicit KeychainSecretStore(bool useKeychain, QObject *parent = nullptr);

    // Asks the keychain once whether it works; persistenceKnown() follows.
    void probe();

    void read(const QString &key, QObject *context, ReadCallback done) override;
    void write(const QString &key, const QString &secret) override;
    void remove(const QString &key) override;
    bool isPersistent() const override { return m_available; }

Q_SIGNALS:
    void persistenceKnown(bool persistent);

private:
    void markUnavailable();

    bool m_available;
    QHash<QString, QString> m_memory;
};

} // namespace sbx
