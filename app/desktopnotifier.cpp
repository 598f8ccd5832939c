#include "app/desktopnotifier.h"

#include "widgets/common/icons.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QStatusBar>
#include <QSystemTrayIcon>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

const QString kService = u"org.freedesktop.Notifications"_s;

} // namespace

DesktopNotifier::DesktopNotifier(QStatusBar *fallback, QObject *parent)
    : QObject(parent)
    , m_statusBar(fallback) {}

DesktopNotifier::Route DesktopNotifier::route() const {
    const QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected() && bus.interface() && bus.interface()->isServiceRegistered(kService))
        return Route::Bus;
    if (QSystemTrayIcon::isSystemTrayAvailable() && QSystemTrayIcon::supportsMessages())
        return Route::Tray;
    return Route::StatusBar;
}

void DesktopNotifier::show(const Notification &notification) {
    switch (route()) {
    case Route::Bus: {
        QDBusMessage call = QDBusMessage::createMethodCall(
            kService, u"/org/freedesktop/Notifications"_s, kService, u"Notify"_s);
        // urgency: 1 normal, 2 critical (the server may keep it until dismissed).
        const QVariantMap hints{
            {u"urgency"_s, QVariant::fromValue(uchar(notification.urgent ? 2 : 1))},
            {u"desktop-entry"_s, u"sandbox-console"_s}};
        call << u"Sandbox Console"_s << uint(0) << u"sandbox-console"_s << notification.title
             << notification.body << QStringList() << hints << int(-1);
        QDBusConnection::sessionBus().asyncCall(call);
        return;
    }
    case Route::Tray:
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(Icons::appIcon(), this);
            m_tray->show();
        }
        m_tray->showMessage(notification.title, notification.body,
                            notification.urgent ? QSystemTrayIcon::Warning
                                                : QSystemTrayIcon::Information);
        return;
    case Route::StatusBar:
        if (m_statusBar)
            m_statusBar->showMessage(notification.body.isEmpty()
                                         ? notification.title
                                         : notification.title + u": "_s + notification.body,
                                     15000);
        return;
    }
}

} // namespace sbx
