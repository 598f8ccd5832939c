#include "app/keychainstore.h"

#include <qt6keychain/keychain.h>

#include <QPointer>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
const QString kService = u"sandbox-console"_s;

bool backendMissing(QKeychain::Error error) {
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented ||
           error == QKeychain::OtherError || error == QKeychain::AccessDenied;
}
} // namespace

KeychainSecretStore::KeychainSecretStore(bool useKeychain, QObject *parent)
    : QObject(parent)
    , m_available(useKeychain) {}

void KeychainSecretStore::probe() {
    if (!m_available) {
        QTimer::singleShot(0, this, [this] { Q_EMIT persistenceKnown(false); });
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(kService, this);
    job->setKey(u"probe"_s);
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job *j) {
        if (backendMissing(j->error()))
            markUnavailable();
        Q_EMIT persistenceKnown(m_available);
    });
    job->start();
}

void KeychainSecretStore::markUnavailable() {
    m_available = false;
}

void KeychainSecretStore::read(const QString &key, QObject *context, ReadCallback done) {
    if (m_memory.contains(key) || !m_available) {
        const bool found = m_memory.contains(key);
        const QString secret = m_memory.value(key);
        QTimer::singleShot(0, context,
                           [found, secret, done = std::move(done)] { done(found, secret); });
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(kService, this);
    job->setKey(key);
    QPointer<QObject> guard(context);
    connect(job, &QKeychain::Job::finished, this,
            [this, key, guard, done = std::move(done)](QKeychain::Job *j) {
                auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
                const bool found = read->error() == QKeychain::NoError;
                if (found)
                    m_memory.insert(key, read->textData());
                else if (backendMissing(read->error()))
                    markUnavailable();
                if (guard)
                    done(found, found ? read->textData() : QString());
            });
    job->start();
}

void KeychainSecretStore::write(const QString &key, const QString &secret) {
    m_memory.insert(key, secret);
    if (!m_available)
        return;
    auto *job = new QKeychain::WritePasswordJob(kService, this);
    job->setKey(key);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job *j) {
        if (backendMissing(j->error())) {
            markUnavailable();
            Q_EMIT persistenceKnown(false);
        }
    });
    job->start();
}

void KeychainSecretStore::remove(const QString &key) {
    m_memory.remove(key);
    if (!m_available)
        return;
    auto *job = new QKeychain::DeletePasswordJob(kService, this);
    job->setKey(key);
    job->start();
}

} // namespace sbx
