#pragma once

#include "client/providers/sandboxprovider.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <functional>

namespace sbx {

class SandboxRegistry;

// What the desktop is told, and which preference turns it off.
struct Notification {
    enum class Kind { Sandbox, Run, Transfers, Jwt };
    Kind kind = Kind::Sandbox;
    QString title;
    QString body;
    bool urgent = false; // unreachable, a failed run: the desktop may keep it on screen

    bool operator==(const Notification &) const = default;
};

// Which kinds of notification the user wants (Preferences > Notifications).
struct NotificationSettings {
    bool sandboxes = true;
    bool runs = true;
    bool transfers = true;
    bool jwtExpiry = true;

    bool operator==(const NotificationSettings &) const = default;
};

// Decides what the desktop is told: a sandbox that was online going unreachable and coming
// back, a run or a batch of transfers finishing while the console is not the active window, a
// JWT about to expire (once per token). The app shows what it emits (DesktopNotifier).
class NotificationCenter final : public QObject {
    Q_OBJECT
public:
    explicit NotificationCenter(SandboxRegistry *registry, QObject *parent = nullptr);

    void setSettings(const NotificationSettings &settings) { m_settings = settings; }
    NotificationSettings settings() const { return m_settings; }
    // Whether the console's window is the active one now; none: never.
    void setWindowActive(std::function<bool()> active) { m_windowActive = std::move(active); }

    // A sandbox's state as the registry reports it.
    void onStateChanged(const QString &id, SandboxState state);
    // A run (issue 9's /v1/bash runs) ended: exit code, or failed (never ran, connection lost).
    void runFinished(const QString &sandboxId, const QString &command, int exitCode, bool failed);
    // The transfer queue of a sandbox emptied: how many finished and how many of them failed.
    void transfersFinished(const QString &sandboxId, int finished, int failed);
    // Every sandbox's JWT: warns once for each token expiring within kJwtExpiryWarningSecs. Runs
    // every 30 s by itself; public for tests.
    void checkExpiry();

Q_SIGNALS:
    void notify(const Notification &notification);

private:
    QString nameOf(const QString &id) const;
    void emitIf(bool wanted, const Notification &notification);
    bool windowActive() const { return m_windowActive && m_windowActive(); }

    SandboxRegistry *m_registry;
    NotificationSettings m_settings;
    std::function<bool()> m_windowActive;
    QSet<QString> m_wasOnline;    // sandboxes seen online (only those can "go unreachable")
    QSet<QString> m_unreachable;  // told unreachable, waiting to be told back
    QSet<QString> m_warnedTokens; // hash of each JWT already warned about
    QTimer m_expiryTimer;
};

} // namespace sbx
Q_DECLARE_METATYPE(sbx::Notification)
