#pragma once

#include "models/notifications/notificationcenter.h"

#include <QObject>
#include <QString>

namespace sbx {

// What the user can tune; the app loads and saves it.
struct Preferences {
    int pollIntervalMs = 5000;
    int scrollbackLines = 10000;
    int parallelTransfers = 2;
    // The console's language, applied at the next start: empty follows the system locale,
    // "en" is the source text, otherwise a locale name ("zh_CN").
    QString language;
    // The colours: empty follows the desktop's palette, "light" or "dark" the console's own.
    QString colours;
    // Toolbars show icons only instead of icons with text.
    bool toolBarIconsOnly = false;
    // Which desktop notifications to show.
    NotificationSettings notifications;
    // The terminals' colours (a TerminalColorScheme id; empty: the default scheme) and font
    // (empty family: the view's default; size in points, 0: the default size). Open terminals
    // take a change at once.
    QString terminalColorScheme;
    QString terminalFontFamily;
    int terminalFontSize = 0;
    // Predictive local echo: 0 off, 1 adaptive (on above a 30 ms round trip), 2 always (a
    // TerminalPredictor::Mode).
    int terminalPrediction = 1;

    bool operator==(const Preferences &) const = default;
};

// The current preferences and their changes, shared by the window and every workspace.
class PreferencesHub final : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const Preferences &current() const { return m_current; }
    void set(const Preferences &preferences) {
        if (preferences == m_current)
            return;
        m_current = preferences;
        Q_EMIT changed(m_current);
    }

Q_SIGNALS:
    void changed(const Preferences &preferences);

private:
    Preferences m_current;
};

} // namespace sbx
