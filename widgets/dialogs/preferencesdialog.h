#pragma once

#include "widgets/common/preferences.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QFontComboBox;
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
    QComboBox *terminalSchemeBox() const { return m_scheme; }
    QFontComboBox *terminalFontBox() const { return m_font; }
    QSpinBox *terminalFontSizeBox() const { return m_fontSize; }
    QComboBox *terminalPredictionBox() const { return m_prediction; }

private:
    Preferences m_preferences;
    QTabWidget *m_pages;
    QSpinBox *m_pollInterval;
    QSpinBox *m_scrollback;
    QSpinBox *m_parallel;
    QComboBox *m_language;
    QComboBox *m_colours;
    QComboBox *m_toolBar;
    QCheckBox *m_notifySandboxes = nullptr;
    QCheckBox *m_notifyRuns = nullptr;
    QCheckBox *m_notifyTransfers = nullptr;
    QCheckBox *m_notifyJwt = nullptr;
    QComboBox *m_scheme;
    QFontComboBox *m_font;
    QSpinBox *m_fontSize;
    QComboBox *m_prediction;
};

} // namespace sbx
