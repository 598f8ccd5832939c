#include "client/providers/sandboxprovider.h"

#include "client/providers/secretstore.h"

#include <QPointer>
#include <QTimer>

QString sandboxStateName(SandboxState state) {
    switch (state) {
    case SandboxState::Starting:
        return QStringLiteral("starting");
    case SandboxState::Online:
        return QStringLiteral("online");
    case SandboxState::AuthFailed:
        return QStringLiteral("auth failed");
    case SandboxState::Unreachable:
        return QStringLiteral("unreachable");
    case SandboxState::Paused:
        return QStringLiteral("paused");
    case SandboxState::Stopping:
        return QStringLiteral("stopping");
    case SandboxState::Stopped:
        return QStringLiteral("stopped");
    }
    return {};
}

void MemorySecretStore::read(const QString &key, QObject *context, ReadCallback done) {
    const bool found = m_secrets.contains(key);
    const QString secret = m_secrets.value(key);
    // Asynchronous like a keychain, so callers cannot come to rely on an immediate answer.
    QTimer::singleShot(0, context,
                       [found, secret, done = std::move(done)] { done(found, secret); });
}
