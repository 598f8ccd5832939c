#include "widgets/dialogs/newsandboxdialog.h"

#include "models/palette.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace sbx {

namespace {

struct HookField {
    const char *variable;
    const char *when;
};

// AIO's startup hooks in the order they run (aio-api.md 4.2).
constexpr HookField kHookFields[3] = {
    {"RUN_HOOK_INIT",
     QT_TRANSLATE_NOOP("sbx::NewSandboxDialog", "Runs first, right after the sandbox starts, "
                                                "before its user and workspace are prepared.")},
    {"RUN_HOOK_PRE_SERVICES",
     QT_TRANSLATE_NOOP("sbx::NewSandboxDialog",
                       "Runs after the user and workspace are ready, before the services start: "
                       "install tools, write configuration.")},
    {"RUN_HOOK_POST_READY",
     QT_TRANSLATE_NOOP("sbx::NewSandboxDialog",
                       "Runs once the services are up and answering: warm-up that needs the API.")},
};

QLabel *hint(const QString &text, QWidget *parent) {
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

QList<NewSandboxDialog::Choice>
NewSandboxDialog::makeChoices(const QList<SandboxProvider *> &providers, QWidget *parent) {
    QList<Choice> out;
    for (SandboxProvider *provider : providers) {
        const CreateForm form = provider->createForm();
        if (form.label.isEmpty())
            continue;
        auto *button = new QRadioButton(form.label, parent);
        button->setEnabled(form.unavailable.isEmpty());
        button->setToolTip(form.unavailable);
        out.append({provider, form, button});
    }
    return out;
}

NewSandboxDialog::NewSandboxDialog(const QString &suggestedName,
                                   const QList<SandboxProvider *> &providers, QWidget *parent)
    : QDialog(parent)
    , m_choices(makeChoices(providers, this)) // first: the tab order follows creation
    , m_name(new QLineEdit(suggestedName, this))
    , m_imageLabel(new QLabel(tr("&Image:"), this))
    , m_image(new QComboBox(this))
    , m_workspaceLabel(new QLabel(tr("Workspace:"), this))
    , m_workspaceRow(new QWidget(this))
    , m_newFolder(new QRadioButton(tr("A new folder (deleted with the sandbox)"), m_workspaceRow))
    , m_pickedFolder(new QRadioButton(tr("This folder (kept):"), m_workspaceRow))
    , m_folder(new QLineEdit(m_workspaceRow))
    , m_publishLabel(new QLabel(tr("&Publish on:"), this))
    , m_publish(new QLineEdit(this))
    , m_publishHint(new QLabel(this))
    , m_apiKey(new QRadioButton(tr("Generated &API key"), this))
    , m_jwt(new QRadioButton(tr("Generated &JWT key pair (the console signs "
                                "short-lived tokens)"),
                             this))
    , m_hooks{new QPlainTextEdit(this), new QPlainTextEdit(this), new QPlainTextEdit(this)}
    , m_problem(new QLabel(this)) {
    setWindowTitle(tr("New sandbox"));
    resize(640, 720);

    auto *choices = new QButtonGroup(this);
    for (const Choice &choice : std::as_const(m_choices)) {
        choices->addButton(choice.button);
        if (!choice.form.defaultImage.isEmpty() && m_image->findText(choice.form.defaultImage) < 0)
            m_image->addItem(choice.form.defaultImage);
    }
    for (const Choice &choice : std::as_const(m_choices)) {
        if (choice.button->isEnabled()) {
            choice.button->setChecked(true);
            break;
        }
    }

    m_image->setEditable(true);
    m_image->setToolTip(tr("An AIO sandbox image; the engine must have it or be able "
                           "to pull it"));
    m_imageLabel->setBuddy(m_image);

    auto *folders = new QButtonGroup(this);
    folders->addButton(m_newFolder);
    folders->addButton(m_pickedFolder);
    m_newFolder->setChecked(true);
    auto *browse = new QPushButton(tr("Choose…"), m_workspaceRow);
    auto *folderLine = new QHBoxLayout;
    folderLine->addWidget(m_pickedFolder);
    folderLine->addWidget(m_folder, 1);
    folderLine->addWidget(browse);
    auto *workspaceLayout = new QVBoxLayout(m_workspaceRow);
    workspaceLayout->setContentsMargins(0, 0, 0, 0);
    workspaceLayout->addWidget(m_newFolder);
    workspaceLayout->addLayout(folderLine);

    auto *auths = new QButtonGroup(this);
    auths->addButton(m_apiKey);
    auths->addButton(m_jwt);
    m_apiKey->setChecked(true);

    auto *form = new QFormLayout;
    for (qsizetype i = 0; i < m_choices.size(); ++i) {
        const Choice &choice = m_choices.at(i);
        form->addRow(i == 0 ? tr("Runs as:") : QString(), choice.button);
        if (!choice.form.unavailable.isEmpty())
            form->addRow(QString(), hint(choice.form.unavailable, this));
    }
    form->addRow(tr("&Name:"), m_name);
    form->addRow(m_imageLabel, m_image);
    form->addRow(m_workspaceLabel, m_workspaceRow);
    m_publishLabel->setBuddy(m_publish);
    m_publish->setObjectName(QStringLiteral("publishAddress"));
    m_publishHint->setWordWrap(true);
    m_publishHint->setText(tr("The engine is on another machine: its port is published on this "
                              "address of that host (0.0.0.0: all of them), since its loopback "
                              "is out of reach from here. Auth stays on: only this console "
                              "holds the generated key."));
    form->addRow(m_publishLabel, m_publish);
    form->addRow(QString(), m_publishHint);
    // The label names the row (a field and its button); Qt looks for buddies among siblings.
    m_folder->setAccessibleName(tr("Workspace"));
    form->addRow(tr("Authentication:"), m_apiKey);
    form->addRow(QString(), m_jwt);
    form->addRow(QString(), hint(tr("The key stays in the system keychain (or this "
                                    "session's memory); it never goes to a "
                                    "settings file."),
                                 this));

    auto *hooksBox = new QGroupBox(tr("Startup hooks (optional shell commands)"), this);
    auto *hooksLayout = new QFormLayout(hooksBox);
    for (int i = 0; i < 3; ++i) {
        m_hooks[i]->setTabChangesFocus(true);
        m_hooks[i]->setFixedHeight(m_hooks[i]->fontMetrics().lineSpacing() * 3 + 12);
        m_hooks[i]->setPlaceholderText(tr("e.g. pip install -r requirements.txt"));
        auto *column = new QVBoxLayout;
        column->addWidget(m_hooks[i]);
        column->addWidget(hint(tr(kHookFields[i].when), hooksBox));
        hooksLayout->addRow(QString::fromLatin1(kHookFields[i].variable) + QLatin1Char(':'),
                            column);
    }

    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hooksBox, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &NewSandboxDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Workspace folder"));
        if (!dir.isEmpty()) {
            m_folder->setText(dir);
            m_pickedFolder->setChecked(true);
        }
    });
    for (const Choice &choice : std::as_const(m_choices))
        connect(choice.button, &QAbstractButton::toggled, this, &NewSandboxDialog::updateForm);
    connect(m_pickedFolder, &QAbstractButton::toggled, this, &NewSandboxDialog::updateForm);
    connect(m_name, &QLineEdit::textChanged, this, &NewSandboxDialog::updateForm);
    connect(m_folder, &QLineEdit::textChanged, this, &NewSandboxDialog::updateForm);
    connect(m_publish, &QLineEdit::textChanged, this, &NewSandboxDialog::updateForm);
    updateForm();
}

const NewSandboxDialog::Choice *NewSandboxDialog::current() const {
    for (const Choice &choice : m_choices) {
        if (choice.button->isChecked())
            return &choice;
    }
    return nullptr;
}

void NewSandboxDialog::updateForm() {
    const Choice *choice = current();
    const bool image = choice && choice->form.asksImage;
    const bool workspace = choice && choice->form.asksWorkspace;
    m_imageLabel->setVisible(image);
    m_image->setVisible(image);
    m_workspaceLabel->setVisible(workspace);
    m_workspaceRow->setVisible(workspace);
    const bool publish = choice && choice->form.asksPublishAddress;
    m_publishLabel->setVisible(publish);
    m_publish->setVisible(publish);
    m_publishHint->setVisible(publish);
    if (choice != m_shownChoice) {
        m_shownChoice = choice;
        if (publish) {
            const QSignalBlocker quiet(m_publish);
            m_publish->setText(choice->form.defaultPublishAddress);
        }
    }
    m_folder->setEnabled(m_pickedFolder->isChecked());
    m_problem->setText(problem());
}

QString NewSandboxDialog::problem() const {
    const Choice *choice = current();
    if (!choice)
        return tr("No provider here can create a sandbox.");
    return choice->provider->createProblem(request().options);
}

void NewSandboxDialog::accept() {
    const QString why = problem();
    m_problem->setText(why);
    if (why.isEmpty())
        QDialog::accept();
}

NewSandboxRequest NewSandboxDialog::request() const {
    NewSandboxRequest r;
    const Choice *choice = current();
    r.providerId = choice ? choice->provider->id() : QString();
    SandboxCreateOptions &o = r.options;
    o.name = m_name->text().trimmed();
    if (choice && choice->form.asksImage)
        o.image = m_image->currentText().trimmed();
    if (choice && choice->form.asksWorkspace && m_pickedFolder->isChecked())
        o.workspace = m_folder->text().trimmed();
    if (choice && choice->form.asksPublishAddress)
        o.publishAddress = m_publish->text().trimmed();
    o.auth =
        m_jwt->isChecked() ? SandboxCreateOptions::Auth::Jwt : SandboxCreateOptions::Auth::ApiKey;
    o.initHook = m_hooks[0]->toPlainText().trimmed();
    o.preServicesHook = m_hooks[1]->toPlainText().trimmed();
    o.postReadyHook = m_hooks[2]->toPlainText().trimmed();
    return r;
}

void NewSandboxDialog::setRequest(const NewSandboxRequest &r) {
    for (const Choice &choice : std::as_const(m_choices)) {
        if (choice.provider->id() == r.providerId)
            choice.button->setChecked(true);
    }
    const SandboxCreateOptions &o = r.options;
    m_name->setText(o.name);
    if (!o.image.isEmpty())
        m_image->setCurrentText(o.image);
    m_folder->setText(o.workspace);
    (o.workspace.isEmpty() ? m_newFolder : m_pickedFolder)->setChecked(true);
    (o.auth == SandboxCreateOptions::Auth::Jwt ? m_jwt : m_apiKey)->setChecked(true);
    m_hooks[0]->setPlainText(o.initHook);
    m_hooks[1]->setPlainText(o.preServicesHook);
    m_hooks[2]->setPlainText(o.postReadyHook);
    updateForm();
    if (!o.publishAddress.isEmpty())
        m_publish->setText(o.publishAddress);
}

} // namespace sbx
