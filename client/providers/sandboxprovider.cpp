#include "client/providers/sandboxprovider.h"

#include "client/providers/secretstore.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

namespace sbx {

QString sandboxStateName(SandboxState state) {
    switch (state) {
    case SandboxState::Starting:
        return QCoreApplication::translate("sbx::SandboxProvider", "starting");
    case SandboxState::Online:
        return QCoreApplication::translate("sbx::SandboxProvider", "online");
    case SandboxState::AuthFailed:
        return QCoreApplication::translate("sbx::SandboxProvider", "auth failed");
    case SandboxState::Unreachable:
        return QCoreApplication::translate("sbx::SandboxProvider", "unreachable");
    case SandboxState::Paused:
        return QCoreApplication::translate("sbx::SandboxProvider", "paused");
    case SandboxState::Stopping:
        return QCoreApplication::translate("sbx::SandboxProvider", "stopping");
    case SandboxState::Stopped:
        return QCoreApplication::translate("sbx::SandboxProvider", "stopped");
    }
    return {};
}

void SandboxProvider::perform(const QString &id, LifecycleAction action) {
    switch (action) {
    case LifecycleAction::Start:
        return start(id);
    case LifecycleAction::Pause:
        return pause(id);
    case LifecycleAction::Resume:
        return resume(id);
    case LifecycleAction::Stop:
        return stop(id);
    case LifecycleAction::Delete:
        return remove(id);
    default:
        Q_EMIT actionFailed(id, tr("%1 sandboxes cannot do that").arg(displayName()));
    }
}

void SandboxProvider::start(const QString &id) {
    Q_EMIT actionFailed(id,
                        tr("%1 sandboxes cannot be started from the console").arg(displayName()));
}

void SandboxProvider::pause(const QString &id) {
    Q_EMIT actionFailed(id,
                        tr("%1 sandboxes cannot be paused from the console").arg(displayName()));
}

void SandboxProvider::resume(const QString &id) {
    Q_EMIT actionFailed(id,
                        tr("%1 sandboxes cannot be resumed from the console").arg(displayName()));
}

void SandboxProvider::stop(const QString &id) {
    Q_EMIT actionFailed(id,
                        tr("%1 sandboxes cannot be stopped from the console").arg(displayName()));
}

void SandboxProvider::remove(const QString &id) {
    Q_EMIT actionFailed(id,
                        tr("%1 sandboxes cannot be deleted from the console").arg(displayName()));
}

QString SandboxProvider::deleteEffect(const SandboxEntry &) const {
    return tr("forgotten here; the sandbox itself keeps running");
}

bool SandboxProvider::credentialsPending(const SandboxEntry &) const {
    return false;
}

bool SandboxProvider::hasLog(const SandboxEntry &) const {
    return false;
}

LogSource *SandboxProvider::openLog(const QString &, QObject *) {
    return nullptr;
}

void SandboxProvider::readResourceFigures(const QString &, QObject *context,
                                          ResourceFiguresDone done) {
    QMetaObject::invokeMethod(
        context,
        [done = std::move(done)] {
            done({}, Status::error(Status::Kind::NotFound,
                                   tr("This kind of sandbox has no resource figures of its own.")));
        },
        Qt::QueuedConnection);
}

QString SandboxProvider::createProblem(const SandboxCreateOptions &options) const {
    return options.name.trimmed().isEmpty() ? tr("Give the sandbox a name.") : QString();
}

QString SandboxProvider::create(const SandboxCreateOptions &) {
    Q_EMIT actionFailed({},
                        tr("%1 sandboxes cannot be created from the console").arg(displayName()));
    return {};
}

void MemorySecretStore::read(const QString &key, QObject *context, ReadCallback done) {
    const bool found = m_secrets.contains(key);
    const QString secret = m_secrets.value(key);
    // Asynchronous like a keychain, so callers cannot come to rely on an immediate answer.
    QTimer::singleShot(0, context,
                       [found, secret, done = std::move(done)] { done(found, secret); });
}

} // namespace sbx
