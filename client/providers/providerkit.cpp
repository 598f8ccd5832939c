#include "client/providers/providerkit.h"

#include <QFutureWatcher>
#include <QRandomGenerator>
#include <QtConcurrent/QtConcurrentRun>

namespace sbx {

using namespace Qt::StringLiterals;

QString generateApiKey() {
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(bytes.toHex());
}

QString sandboxSecretKey(const QString &sandboxId) {
    return u"sandbox/"_s + sandboxId;
}

void readSandboxSecret(SecretStore *store, const QString &sandboxId, QObject *context,
                       SecretStore::ReadCallback done, const QString &legacyKey) {
    const QString key = sandboxSecretKey(sandboxId);
    store->read(key, context,
                [store, key, legacyKey, context, done = std::move(done)](bool found,
                                                                         const QString &secret) {
                    if (found || legacyKey.isEmpty()) {
                        done(found, secret);
                        return;
                    }
                    store->read(legacyKey, context,
                                [store, key, legacyKey, done](bool old, const QString &oldSecret) {
                                    if (old) {
                                        store->write(key, oldSecret);
                                        store->remove(legacyKey);
                                    }
                                    done(old, oldSecret);
                                });
                });
}

void generateKeyPairLater(QObject *context, std::function<void(const JwtKeyPair &keys)> done) {
    auto *watcher = new QFutureWatcher<JwtKeyPair>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done)] {
                         watcher->deleteLater();
                         done(watcher->result());
                     });
    watcher->setFuture(QtConcurrent::run([] { return generateRsaKeyPair(); }));
}

} // namespace sbx
