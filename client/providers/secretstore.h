#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace sbx {

// Where credentials live: the OS keychain, or memory only for this session.
class SecretStore {
public:
    using ReadCallback = std::function<void(bool found, const QString &secret)>;

    virtual ~SecretStore() = default;
    // done runs later on context's thread, unless context is destroyed first.
    virtual void read(const QString &key, QObject *context, ReadCallback done) = 0;
    virtual void write(const QString &key, const QString &secret) = 0;
    virtual void remove(const QString &key) = 0;
    // False when secrets are lost at exit (no keychain backend): the UI says so.
    virtual bool isPersistent() const = 0;
};

// Session-only secrets: the fallback without a keychain, and the store tests use.
class MemorySecretStore final : public SecretStore {
public:
    void read(const QString &key, QObject *context, ReadCallback done) override;
    void write(const QString &key, const QString &secret) override {
        m_secrets.insert(key, secret);
    }
    void remove(const QString &key) override { m_secrets.remove(key); }
    bool isPersistent() const override { return false; }

private:
    QHash<QString, QString> m_secrets;
};

} // namespace sbx
