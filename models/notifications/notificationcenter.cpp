#include "models/notifications/notificationcenter.h"

#include "client/providers/sandboxregistry.h"
#include "client/transport/credentials.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

NotificationCenter::NotificationCenter(SandboxRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry) {
    if (m_registry) {
        connect(m_registry, &SandboxRegistry::stateChanged, this,
                &NotificationCenter::onStateChanged);
        connect(m_registry, &SandboxRegistry::removed, this, [this](const QString &id) {
            m_wasOnline.remove(id);
            m_unreachable.remove(id);
        });
    }
    connect(&m_expiryTimer, &QTimer::timeout, this, &NotificationCenter::checkExpiry);
    m_expiryTimer.start(30'000);
}

QString NotificationCenter::nameOf(const QString &id) const {
    const QString name = m_registry ? m_registry->entry(id).name : QString();
    return name.isEmpty() ? id : name;
}

void NotificationCenter::emitIf(bool wanted, const Notification &notification) {
    if (wanted)
        Q_EMIT notify(notification);
}

void NotificationCenter::onStateChanged(const QString &id, SandboxState state) {
    switch (state) {
    case SandboxState::Online:
        m_wasOnline.insert(id);
        if (m_unreachable.remove(id))
            emitIf(m_settings.sandboxes,
                   {Notification::Kind::Sandbox, tr("%1 is back").arg(nameOf(id)),
                    tr("The sandbox answers again."), false});
        return;
    case SandboxState::Unreachable:
    case SandboxState::AuthFailed:
        // Only a sandbox that was working can be lost; one that never came up says so in the
        // list, and a stop the user asked for is not news.
        if (!m_wasOnline.contains(id) || m_unreachable.contains(id))
            return;
        m_unreachable.insert(id);
        emitIf(m_settings.sandboxes,
               {Notification::Kind::Sandbox,
                state == SandboxState::AuthFailed ? tr("%1 refuses the credentials").arg(nameOf(id))
                                                  : tr("%1 is unreachable").arg(nameOf(id)),
                m_registry ? m_registry->lastError(id) : QString(), true});
        return;
    case SandboxState::Stopping:
    case SandboxState::Stopped:
    case SandboxState::Paused:
        m_wasOnline.remove(id);
        m_unreachable.remove(id);
        return;
    case SandboxState::Starting:
        return;
    }
}

void NotificationCenter::runFinished(const QString &sandboxId, const QString &command, int exitCode,
                                     bool failed) {
    if (windowActive())
        return;
    const QString shown = command.simplified().left(80);
    const bool bad = failed || exitCode != 0;
    QString title;
    if (failed)
        title = tr("Run failed on %1").arg(nameOf(sandboxId));
    else if (exitCode != 0)
        title = tr("Run exited with %1 on %2").arg(exitCode).arg(nameOf(sandboxId));
    else
        title = tr("Run finished on %1").arg(nameOf(sandboxId));
    emitIf(m_settings.runs, {Notification::Kind::Run, title, shown, bad});
}

void NotificationCenter::transfersFinished(const QString &sandboxId, int finished, int failed) {
    if (windowActive() || finished <= 0)
        return;
    const QString title =
        failed > 0 ? tr("%n transfer(s) failed on %1", nullptr, failed).arg(nameOf(sandboxId))
                   : tr("%n transfer(s) finished on %1", nullptr, finished).arg(nameOf(sandboxId));
    emitIf(m_settings.transfers,
           {Notification::Kind::Transfers, title,
            failed > 0 ? tr("%1 of %2 did not complete.").arg(failed).arg(finished) : QString(),
            failed > 0});
}

void NotificationCenter::checkExpiry() {
    if (!m_registry)
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QStringList ids = m_registry->ids();
    for (const QString &id : ids) {
        const Credentials credentials = m_registry->entry(id).credentials;
        if (credentials.kind != Credentials::Kind::Jwt)
            continue;
        const QDateTime expiry = jwtExpiry(credentials.secret);
        if (!expiry.isValid())
            continue;
        const qint64 left = now.secsTo(expiry);
        if (left > kJwtExpiryWarningSecs)
            continue;
        // Only a digest is kept: the token itself never leaves the credential store.
        const QString digest = QString::fromLatin1(
            QCryptographicHash::hash(credentials.secret.toUtf8(), QCryptographicHash::Sha256)
                .toHex());
        if (m_warnedTokens.contains(digest))
            continue;
        m_warnedTokens.insert(digest);
        const QString when = QLocale().toString(expiry.toLocalTime().time(), QLocale::ShortFormat);
        emitIf(m_settings.jwtExpiry,
               {Notification::Kind::Jwt,
                left > 0 ? tr("The JWT of %1 expires at %2").arg(nameOf(id), when)
                         : tr("The JWT of %1 has expired").arg(nameOf(id)),
                tr("Enter a new token with Sandbox > Edit (F2)."), true});
    }
}

} // namespace sbx
