#pragma once

#include "widgets/common/preferences.h"

#include <QDialog>

class QComboBox;
class QSpinBox;
class QTabWidget;

namespace sbx {

// Preferences (Ctrl+,): one page per area; later features add their fields to a page.
class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences &preferences, QWidget *parent = nullptr);

    Preferences preferences() const;
    QSpinBox *pollIntervalBox() const { return m_pollInterval; }
    QSpinBox *parallelTransfersBox() const { return m_parallel; }
    QComboBox *languageBox() const { return m_language; }

private:
    Preferences m_preferences;
    QTabWidget *m_pages;
    QSpinBox *m_pollInterval;
    QSpinBox *m_scrollback;
    QSpinBox *m_parallel;
    QComboBox *m_language;
};

} // namespace sbx
