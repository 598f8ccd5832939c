#pragma once

#include "models/notifications/notificationcenter.h"

#include <QObject>
#include <QPointer>

class QStatusBar;
class QSystemTrayIcon;

namespace sbx {

// Shows NotificationCenter's notifications on the desktop: the freedesktop notification service
// on the session bus (org.freedesktop.Notifications), else the tray icon's message, else the
// main window's status bar.
class DesktopNotifier final : public QObject {
    Q_OBJECT
public:
    enum class Route { Bus, Tray, StatusBar };

    explicit DesktopNotifier(QStatusBar *fallback, QObject *parent = nullptr);

    void show(const Notification &notification);
    // Where the next notification goes, as things stand.
    Route route() const;

private:
    QPointer<QStatusBar> m_statusBar;
    QSystemTrayIcon *m_tray = nullptr;
};

} // namespace sbx
