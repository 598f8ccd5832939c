#include "widgets/dialogs/preferencesdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

PreferencesDialog::PreferencesDialog(const Preferences &preferences, QWidget *parent)
    : QDialog(parent)
    , m_preferences(preferences)
    , m_pages(new QTabWidget(this))
    , m_pollInterval(new QSpinBox(this))
    , m_scrollback(new QSpinBox(this))
    , m_parallel(new QSpinBox(this))
    , m_language(new QComboBox(this)) {
    setWindowTitle(tr("Preferences"));
    auto *general = new QWidget(m_pages);
    auto *form = new QFormLayout(general);
    m_pollInterval->setRange(1, 300);
    m_pollInterval->setSuffix(tr(" s"));
    m_pollInterval->setValue(qMax(1, preferences.pollIntervalMs / 1000));
    m_pollInterval->setToolTip(tr("How often each sandbox's status is checked"));
    form->addRow(tr("Status &poll interval:"), m_pollInterval);
    auto *hint = new QLabel(tr("Each check is one GET /v1/sandbox per running sandbox."), general);
    hint->setStyleSheet(u"color: palette(mid);"_s);
    form->addRow(QString(), hint);
    // Each language is named in itself, so that someone who cannot read the current one finds
    // their own; the values are those of Preferences::language.
    m_language->addItem(tr("System"), QString());
    m_language->addItem(u"English"_s, u"en"_s);
    m_language->addItem(u"简体中文"_s, u"zh_CN"_s);
    m_language->setCurrentIndex(qMax(0, m_language->findData(preferences.language)));
    m_language->setToolTip(tr("System follows the desktop's language (LANG, LANGUAGE)"));
    form->addRow(tr("&Language:"), m_language);
    auto *languageHint =
        new QLabel(tr("A new language applies the next time the console starts."), general);
    languageHint->setStyleSheet(u"color: palette(mid);"_s);
    form->addRow(QString(), languageHint);
    m_pages->addTab(general, tr("General"));

    auto *terminal = new QWidget(m_pages);
    auto *terminalForm = new QFormLayout(terminal);
    m_scrollback->setRange(0, 1000000);
    m_scrollback->setSingleStep(1000);
    m_scrollback->setSuffix(tr(" lines"));
    m_scrollback->setValue(preferences.scrollbackLines);
    m_scrollback->setToolTip(tr("Lines each terminal keeps above the screen"));
    terminalForm->addRow(tr("&Scrollback:"), m_scrollback);
    m_pages->addTab(terminal, tr("Terminal"));

    auto *files = new QWidget(m_pages);
    auto *filesForm = new QFormLayout(files);
    m_parallel->setRange(1, 8);
    m_parallel->setValue(preferences.parallelTransfers);
    m_parallel->setToolTip(tr("Uploads and downloads that run at once; the rest wait"));
    filesForm->addRow(tr("&Transfers at once:"), m_parallel);
    m_pages->addTab(files, tr("Files"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    layout->addWidget(buttons);
}

Preferences PreferencesDialog::preferences() const {
    Preferences p = m_preferences;
    p.pollIntervalMs = m_pollInterval->value() * 1000;
    p.scrollbackLines = m_scrollback->value();
    p.parallelTransfers = m_parallel->value();
    p.language = m_language->currentData().toString();
    return p;
}

} // namespace sbx
