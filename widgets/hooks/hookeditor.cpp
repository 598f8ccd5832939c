#include "widgets/hooks/hookeditor.h"

#include "models/palette.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QLabel *makeFieldError(QWidget *parent) {
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
    label->hide();
    return label;
}

// The fewest decimals (at least one) that show seconds without rounding them, up to six.
int timeoutDecimals(double seconds) {
    double scale = 10;
    for (int decimals = 1; decimals < 6; ++decimals, scale *= 10) {
        if (std::abs(std::round(seconds * scale) / scale - seconds) <= 1e-9 * std::abs(seconds))
            return decimals;
    }
    return 6;
}

QString titleFor(HookEditorDialog::Mode mode, const QString &name) {
    switch (mode) {
    case HookEditorDialog::Mode::Add:
        return QCoreApplication::translate("sbx::HookEditorDialog", "Add shutdown hook");
    case HookEditorDialog::Mode::Edit:
        return QCoreApplication::translate("sbx::HookEditorDialog", "Edit shutdown hook %1")
            .arg(name);
    case HookEditorDialog::Mode::View:
        return QCoreApplication::translate("sbx::HookEditorDialog", "Shutdown hook %1").arg(name);
    }
    return {};
}

} // namespace

HookEditorDialog::HookEditorDialog(SandboxClient *client, const SandboxHook &hook, Mode mode,
                                   const QStringList &takenNames, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_mode(mode)
    , m_takenNames(takenNames)
    , m_original(hook)
    , m_name(new QLineEdit(hook.name, this))
    , m_command(new QPlainTextEdit(hook.command, this))
    , m_timeout(new QDoubleSpinBox(this))
    , m_priority(new QSpinBox(this))
    , m_general(makeFieldError(this))
    , m_buttons(new QDialogButtonBox(this)) {
    setWindowTitle(titleFor(mode, hook.name));
    m_name->setPlaceholderText(tr("e.g. flush-logs"));
    m_name->setMaxLength(200); // longer than the rule, so the rule's message is what shows
    m_command->setPlaceholderText(tr("A shell command, run when the sandbox stops"));
    m_command->setTabChangesFocus(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMinimumHeight(m_command->fontMetrics().lineSpacing() * 6);
    // Wide enough for any timeout an agent registered (the contract bounds none), with the
    // decimals it needs, so that it is shown as it is.
    constexpr double kWidest = 1e9;
    const double timeout = std::isfinite(hook.timeoutSeconds) ? hook.timeoutSeconds : 10.0;
    m_timeout->setRange(std::min(-kWidest, timeout), std::max(kWidest, timeout));
    m_timeout->setDecimals(timeoutDecimals(timeout));
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(timeout);
    m_timeout->setToolTip(tr("The hook is stopped after this long"));
    m_priority->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    m_priority->setValue(hook.priority);
    m_priority->setToolTip(tr("Lower runs earlier; hooks of equal priority run at the same time"));

    auto *form = new QFormLayout;
    addField(form, tr("&Name"), m_name, u"name"_s);
    addField(form, tr("&Command"), m_command, u"command"_s);
    addField(form, tr("&Timeout"), m_timeout, u"timeout"_s);
    addField(form, tr("&Priority"), m_priority, u"priority"_s);

    auto *layout = new QVBoxLayout(this);
    if (mode == Mode::View) {
        auto *reason = new QLabel(readOnlyHookReason(), this);
        reason->setObjectName(u"readOnlyReason"_s);
        reason->setWordWrap(true);
        layout->addWidget(reason);
    }
    layout->addLayout(form);
    layout->addWidget(m_general);
    layout->addWidget(m_buttons);

    if (mode == Mode::View) {
        m_name->setReadOnly(true);
        m_command->setReadOnly(true);
        m_timeout->setReadOnly(true);
        m_priority->setReadOnly(true);
        m_buttons->setStandardButtons(QDialogButtonBox::Close);
        connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        return;
    }
    if (mode == Mode::Edit) {
        // The name is the hook's key: saving under another name would add a second hook.
        m_name->setReadOnly(true);
        m_name->setToolTip(
            tr("The name identifies the hook; to rename it, add a new hook and delete this one"));
    }
    m_buttons->setStandardButtons(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    okButton()->setText(mode == Mode::Add ? tr("Add") : tr("Save"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &HookEditorDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Return in the command field makes a new line; Ctrl+Return saves from anywhere.
    auto *save = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    save->setWhatsThis(tr("Save the hook"));
    connect(save, &QShortcut::activated, this, &HookEditorDialog::accept);

    connect(m_name, &QLineEdit::textChanged, this, [this] { edited(u"name"_s); });
    connect(m_command, &QPlainTextEdit::textChanged, this, [this] { edited(u"command"_s); });
    connect(m_timeout, &QDoubleSpinBox::valueChanged, this, [this] { edited(u"timeout"_s); });
    connect(m_priority, &QSpinBox::valueChanged, this, [this] { edited(u"priority"_s); });
    showErrors();
}

HookEditorDialog::~HookEditorDialog() {
    if (m_job)
        m_job->abort();
}

void HookEditorDialog::addField(QFormLayout *form, const QString &label, QWidget *editor,
                                const QString &field) {
    auto *box = new QWidget(this);
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(editor);
    QLabel *error = makeFieldError(box);
    error->setObjectName(field + u"Error"_s);
    column->addWidget(error);
    form->addRow(label, box);
    if (auto *buddy = qobject_cast<QLabel *>(form->labelForField(box)))
        buddy->setBuddy(editor);
    m_errorLabels.insert(field, error);
}

QPushButton *HookEditorDialog::okButton() const {
    return m_buttons->button(QDialogButtonBox::Ok);
}

SandboxHook HookEditorDialog::hook() const {
    SandboxHook hook = m_original;
    hook.name = m_name->text().trimmed();
    hook.command = m_command->toPlainText();
    // Untouched, the timeout is the hook's own, not the spin box's rounding of it.
    if (m_touched.contains(u"timeout"_s))
        hook.timeoutSeconds = m_timeout->value();
    hook.priority = m_priority->value();
    hook.source = u"api"_s;
    return hook;
}

QString HookEditorDialog::fieldError(const QString &field) const {
    if (field.isEmpty())
        return m_general->isHidden() ? QString() : m_general->text();
    const QLabel *label = m_errorLabels.value(field);
    return label && !label->isHidden() ? label->text() : QString();
}

void HookEditorDialog::edited(const QString &field) {
    m_touched.insert(field);
    m_serverErrors.remove(field);
    m_serverMessage.clear();
    showErrors();
}

QList<FieldError> HookEditorDialog::localErrors() const {
    const SandboxHook h = hook();
    QList<FieldError> errors = validateHook(h);
    if (m_mode == Mode::Add && m_takenNames.contains(h.name))
        errors.append({u"name"_s, tr("A hook named %1 exists already: edit that one, or choose "
                                     "another name")
                                      .arg(h.name)});
    return errors;
}

void HookEditorDialog::showErrors() {
    if (m_mode == Mode::View)
        return;
    const QList<FieldError> local = localErrors();
    QHash<QString, QString> shown = m_serverErrors;
    for (const FieldError &e : local) {
        if (m_touched.contains(e.field) && !shown.contains(e.field))
            shown.insert(e.field, e.message);
    }
    QStringList unplaced;
    for (auto it = shown.cbegin(); it != shown.cend(); ++it) {
        if (!m_errorLabels.contains(it.key()))
            unplaced << it.key() + u": "_s + it.value();
    }
    for (auto it = m_errorLabels.cbegin(); it != m_errorLabels.cend(); ++it) {
        const QString text = shown.value(it.key());
        it.value()->setText(text);
        it.value()->setVisible(!text.isEmpty());
    }
    if (!m_serverMessage.isEmpty())
        unplaced.prepend(m_serverMessage);
    m_general->setText(unplaced.join(QLatin1Char('\n')));
    m_general->setVisible(!unplaced.isEmpty());
    okButton()->setEnabled(local.isEmpty() && !m_job);
}

void HookEditorDialog::accept() {
    if (m_mode == Mode::View) {
        QDialog::reject();
        return;
    }
    if (m_job)
        return;
    if (!localErrors().isEmpty()) {
        // Every rule the form breaks shows now, the untouched fields' too; nothing is sent.
        for (const QString &field : {u"name"_s, u"command"_s, u"timeout"_s, u"priority"_s})
            m_touched.insert(field);
        showErrors();
        return;
    }
    if (!m_client) {
        m_serverMessage = tr("The sandbox was closed");
        showErrors();
        return;
    }
    m_serverErrors.clear();
    m_serverMessage.clear();
    auto *job = new RegisterHookJob(m_client, hook());
    m_job = job;
    connect(job, &RegisterHookJob::succeeded, this, [this](const SandboxHook &hook) {
        Q_EMIT saved(hook);
        QDialog::accept();
    });
    connect(job, &ApiJob::failed, this, &HookEditorDialog::onFailed);
    connect(job, &ApiJob::finished, this, [this] {
        m_job = nullptr;
        setBusy(false);
    });
    setBusy(true);
    job->start();
}

void HookEditorDialog::setBusy(bool busy) {
    m_name->setEnabled(!busy);
    m_command->setEnabled(!busy);
    m_timeout->setEnabled(!busy);
    m_priority->setEnabled(!busy);
    okButton()->setText(busy ? tr("Saving…") : m_mode == Mode::Add ? tr("Add") : tr("Save"));
    showErrors();
}

void HookEditorDialog::onFailed(const Status &status) {
    for (const FieldError &e : status.fieldErrors)
        m_serverErrors.insert(e.field, e.message);
    // The per-field texts say it all when every one has its place; otherwise say what failed.
    bool allPlaced = !status.fieldErrors.isEmpty();
    for (const FieldError &e : status.fieldErrors)
        allPlaced = allPlaced && m_errorLabels.contains(e.field);
    m_serverMessage = allPlaced ? QString() : tr("The hook was not saved: %1").arg(status.message);
    showErrors();
}

} // namespace sbx
