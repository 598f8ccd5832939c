#pragma once

#include <QDialog>

class QSpinBox;
class QTabWidget;

// What the user can tune; the app loads and saves it.
struct Preferences {
    int pollIntervalMs = 5000;
};

// Preferences (Ctrl+,): one page per area; later features add their fields to a page.
class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences &preferences, QWidget *parent = nullptr);

    Preferences preferences() const;
    QSpinBox *pollIntervalBox() const { return m_pollInterval; }

private:
    Preferences m_preferences;
    QTabWidget *m_pages;
    QSpinBox *m_pollInterval;
};
