#include "widgets/dialogs/preferencesdialog.h"

#include "models/terminal/terminalcolorscheme.h"
#include "widgets/terminal/terminalview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace sbx {

using namespace Qt::StringLiterals;

PreferencesDialog::PreferencesDialog(const Preferences &preferences, QWidget *parent)
    : QDialog(parent)
    , m_preferences(preferences)
    , m_pages(new QTabWidget(this))
    , m_pollInterval(new QSpinBox(this))
    , m_scrollback(new QSpinBox(this))
    , m_parallel(new QSpinBox(this))
    , m_language(new QComboBox(this))
    , m_colours(new QComboBox(this))
    , m_toolBar(new QComboBox(this))
    , m_scheme(new QComboBox(this))
    , m_font(new QFontComboBox(this))
    , m_fontSize(new QSpinBox(this))
    , m_prediction(new QComboBox(this)) {
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
    m_colours->addItem(tr("System"), QString());
    m_colours->addItem(tr("Light"), u"light"_s);
    m_colours->addItem(tr("Dark"), u"dark"_s);
    m_colours->setObjectName(u"colours"_s);
    m_colours->setCurrentIndex(qMax(0, m_colours->findData(preferences.colours)));
    m_colours->setToolTip(tr("System follows the desktop's colours"));
    form->addRow(tr("&Colours:"), m_colours);
    m_toolBar->addItem(tr("Icons and text"), false);
    m_toolBar->addItem(tr("Icons only"), true);
    m_toolBar->setCurrentIndex(preferences.toolBarIconsOnly ? 1 : 0);
    form->addRow(tr("T&oolbar:"), m_toolBar);
    m_pages->addTab(general, tr("General"));

    auto *terminal = new QWidget(m_pages);
    auto *terminalForm = new QFormLayout(terminal);
    m_scrollback->setRange(0, 1000000);
    m_scrollback->setSingleStep(1000);
    m_scrollback->setSuffix(tr(" lines"));
    m_scrollback->setValue(preferences.scrollbackLines);
    m_scrollback->setToolTip(tr("Lines each terminal keeps above the screen"));
    terminalForm->addRow(tr("&Scrollback:"), m_scrollback);
    for (const TerminalColorScheme &scheme : terminalColorSchemes())
        m_scheme->addItem(scheme.displayName(), scheme.id);
    m_scheme->setCurrentIndex(
        qMax(0, m_scheme->findData(terminalColorScheme(preferences.terminalColorScheme).id)));
    m_scheme->setToolTip(tr("The default colours and the sixteen system colours"));
    terminalForm->addRow(tr("&Colours:"), m_scheme);
    // Only fixed-pitch fonts keep the grid: a proportional one would overlap its cells.
    m_font->setFontFilters(QFontComboBox::MonospacedFonts);
    const QFont font =
        TerminalView::fontFor(preferences.terminalFontFamily, preferences.terminalFontSize);
    m_font->setCurrentFont(font);
    terminalForm->addRow(tr("&Font:"), m_font);
    m_fontSize->setRange(4, 72);
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setValue(qRound(font.pointSizeF()));
    terminalForm->addRow(tr("Font si&ze:"), m_fontSize);
    m_prediction->addItem(tr("Off"));
    m_prediction->addItem(tr("Adaptive: on above a 30 ms round trip"));
    m_prediction->addItem(tr("Always"));
    m_prediction->setCurrentIndex(qBound(0, preferences.terminalPrediction, 2));
    m_prediction->setToolTip(tr("Typed characters show at once, underlined, until the sandbox's "
                                "echo confirms them (as mosh does); never in full-screen "
                                "programs or at password prompts"));
    terminalForm->addRow(tr("&Local echo:"), m_prediction);
    m_pages->addTab(terminal, tr("Terminal"));

    auto *files = new QWidget(m_pages);
    auto *filesForm = new QFormLayout(files);
    m_parallel->setRange(1, 8);
    m_parallel->setValue(preferences.parallelTransfers);
    m_parallel->setToolTip(tr("Uploads and downloads that run at once; the rest wait"));
    filesForm->addRow(tr("&Transfers at once:"), m_parallel);
    m_pages->addTab(files, tr("Files"));

    auto *notify = new QWidget(m_pages);
    auto *notifyLayout = new QVBoxLayout(notify);
    notifyLayout->addWidget(new QLabel(tr("Show a desktop notification when:"), notify));
    const NotificationSettings &n = preferences.notifications;
    const std::pair<QCheckBox **, std::pair<QString, bool>> boxes[] = {
        {&m_notifySandboxes, {tr("a sandbox becomes &unreachable or comes back"), n.sandboxes}},
        {&m_notifyRuns, {tr("a &run finishes while the console is in the background"), n.runs}},
        {&m_notifyTransfers,
         {tr("&transfers finish while the console is in the background"), n.transfers}},
        {&m_notifyJwt, {tr("a &JWT is about to expire"), n.jwtExpiry}},
    };
    for (const auto &[box, spec] : boxes) {
        *box = new QCheckBox(spec.first, notify);
        (*box)->setChecked(spec.second);
        notifyLayout->addWidget(*box);
    }
    notifyLayout->addStretch(1);
    m_pages->addTab(notify, tr("Notifications"));

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
    p.colours = m_colours->currentData().toString();
    p.toolBarIconsOnly = m_toolBar->currentData().toBool();
    p.notifications = {m_notifySandboxes->isChecked(), m_notifyRuns->isChecked(),
                       m_notifyTransfers->isChecked(), m_notifyJwt->isChecked()};
    p.terminalColorScheme = m_scheme->currentData().toString();
    // The default font is stored as no choice, so that it follows the system's if that changes.
    const QFont defaultFont = TerminalView::defaultFont();
    const QString family = m_font->currentFont().family();
    p.terminalFontFamily = family == QFontInfo(defaultFont).family() ? QString() : family;
    p.terminalFontSize =
        m_fontSize->value() == qRound(defaultFont.pointSizeF()) ? 0 : m_fontSize->value();
    p.terminalPrediction = m_prediction->currentIndex();
    return p;
}

} // namespace sbx
