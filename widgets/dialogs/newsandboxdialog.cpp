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
#include <QRegularExpression>
#include <QVBoxLayout>

namespace {

struct HookField {
    const char *variable;
    const char *when;
};

// AIO's startup hooks in the order they run (aio-api.md 4.2).
constexpr HookField hookFields[3] = {
    {"RUN_HOOK_INIT", "Runs first, right after the sandbox starts, before its user and workspace "
                      "are prepared."},
    {"RUN_HOOK_PRE_SERVICES", "Runs after the user and workspace are ready, before the services "
                              "start: install tools, write configuration."},
    {"RUN_HOOK_POST_READY", "Runs once the services are up and answering: warm-up that needs the "
                            "API."},
};

QLabel *hint(const QString &text, QWidget *parent) {
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

NewSandboxDialog::NewSandboxDialog(const QString &suggestedName, const QString &engineStatus,
                                   QWidget *parent)
    : QDialog(parent)
    , m_local(new QRadioButton(QStringLiteral("&Local: sandbox-server on this machine"), this))
    , m_engine(new QRadioButton(QStringLiteral("&Container: a Docker or podman engine"), this))
    , m_name(new QLineEdit(suggestedName, this))
    , m_imageLabel(new QLabel(QStringLiteral("&Image:"), this))
    , m_image(new QComboBox(this))
    , m_workspaceLabel(new QLabel(QStringLiteral("Workspace:"), this))
    , m_workspaceRow(new QWidget(this))
    , m_newFolder(new QRadioButton(QStringLiteral("A new folder (deleted with the sandbox)"),
                                   m_workspaceRow))
    , m_pickedFolder(new QRadioButton(QStringLiteral("This folder (kept):"), m_workspaceRow))
    , m_folder(new QLineEdit(m_workspaceRow))
    , m_apiKey(new QRadioButton(QStringLiteral("Generated &API key"), this))
    , m_jwt(new QRadioButton(QStringLiteral("Generated &JWT key pair (the console signs "
                                            "short-lived tokens)"),
                             this))
    , m_hooks{new QPlainTextEdit(this), new QPlainTextEdit(this), new QPlainTextEdit(this)}
    , m_problem(new QLabel(this)) {
    setWindowTitle(QStringLiteral("New sandbox"));
    resize(640, 720);

    auto *providers = new QButtonGroup(this);
    providers->addButton(m_local);
    providers->addButton(m_engine);
    m_local->setChecked(true);
    m_engine->setEnabled(engineStatus.isEmpty());
    if (!engineStatus.isEmpty())
        m_engine->setToolTip(engineStatus);

    m_image->setEditable(true);
    m_image->addItem(QString::fromLatin1(defaultImage));
    m_image->setToolTip(QStringLiteral("An AIO sandbox image; the engine must have it or be able "
                                       "to pull it"));
    m_imageLabel->setBuddy(m_image);

    auto *folders = new QButtonGroup(this);
    folders->addButton(m_newFolder);
    folders->addButton(m_pickedFolder);
    m_newFolder->setChecked(true);
    auto *browse = new QPushButton(QStringLiteral("Choose…"), m_workspaceRow);
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
    form->addRow(QStringLiteral("Runs as:"), m_local);
    form->addRow(QString(), m_engine);
    if (!engineStatus.isEmpty())
        form->addRow(QString(), hint(engineStatus, this));
    form->addRow(QStringLiteral("&Name:"), m_name);
    form->addRow(m_imageLabel, m_image);
    form->addRow(m_workspaceLabel, m_workspaceRow);
    form->addRow(QStringLiteral("Authentication:"), m_apiKey);
    form->addRow(QString(), m_jwt);
    form->addRow(QString(), hint(QStringLiteral("The key stays in the system keychain (or this "
                                                "session's memory); it never goes to a "
                                                "settings file."),
                                 this));

    auto *hooksBox = new QGroupBox(QStringLiteral("Startup hooks (optional shell commands)"), this);
    auto *hooksLayout = new QFormLayout(hooksBox);
    for (int i = 0; i < 3; ++i) {
        m_hooks[i]->setTabChangesFocus(true);
        m_hooks[i]->setFixedHeight(m_hooks[i]->fontMetrics().lineSpacing() * 3 + 12);
        m_hooks[i]->setPlaceholderText(QStringLiteral("e.g. pip install -r requirements.txt"));
        auto *column = new QVBoxLayout;
        column->addWidget(m_hooks[i]);
        column->addWidget(hint(QString::fromLatin1(hookFields[i].when), hooksBox));
        hooksLayout->addRow(QString::fromLatin1(hookFields[i].variable) + QLatin1Char(':'), column);
    }

    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Create"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hooksBox, 1);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &NewSandboxDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, QStringLiteral("Workspace folder"));
        if (!dir.isEmpty()) {
            m_folder->setText(dir);
            m_pickedFolder->setChecked(true);
        }
    });
    for (QAbstractButton *b :
         {static_cast<QAbstractButton *>(m_local), static_cast<QAbstractButton *>(m_engine),
          static_cast<QAbstractButton *>(m_pickedFolder)})
        connect(b, &QAbstractButton::toggled, this, &NewSandboxDialog::updateForm);
    connect(m_name, &QLineEdit::textChanged, this, &NewSandboxDialog::updateForm);
    connect(m_folder, &QLineEdit::textChanged, this, &NewSandboxDialog::updateForm);
    updateForm();
}

void NewSandboxDialog::updateForm() {
    const bool engine = m_engine->isChecked();
    m_imageLabel->setVisible(engine);
    m_image->setVisible(engine);
    m_workspaceLabel->setVisible(!engine);
    m_workspaceRow->setVisible(!engine);
    m_folder->setEnabled(m_pickedFolder->isChecked());
    m_problem->setText(problem());
}

QString NewSandboxDialog::problem() const {
    const NewSandboxRequest r = request();
    if (r.name.isEmpty())
        return QStringLiteral("Give the sandbox a name.");
    if (r.provider == NewSandboxRequest::Provider::Engine) {
        if (r.image.isEmpty())
            return QStringLiteral("Name the image to start.");
        // The engine's own rule for container names.
        static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*$"));
        if (!valid.match(r.name).hasMatch())
            return QStringLiteral("A container name starts with a letter or digit and holds only "
                                  "letters, digits, '_', '.' and '-'.");
    }
    if (r.provider == NewSandboxRequest::Provider::Local && m_pickedFolder->isChecked() &&
        !QFileInfo(r.workspace).isDir())
        return QStringLiteral("Choose an existing folder, or let the console create one.");
    return {};
}

void NewSandboxDialog::accept() {
    const QString why = problem();
    m_problem->setText(why);
    if (why.isEmpty())
        QDialog::accept();
}

NewSandboxRequest NewSandboxDialog::request() const {
    NewSandboxRequest r;
    r.provider = m_engine->isChecked() ? NewSandboxRequest::Provider::Engine
                                       : NewSandboxRequest::Provider::Local;
    r.name = m_name->text().trimmed();
    r.image = m_image->currentText().trimmed();
    r.workspace = m_pickedFolder->isChecked() ? m_folder->text().trimmed() : QString();
    r.auth = m_jwt->isChecked() ? NewSandboxRequest::Auth::Jwt : NewSandboxRequest::Auth::ApiKey;
    r.initHook = m_hooks[0]->toPlainText().trimmed();
    r.preServicesHook = m_hooks[1]->toPlainText().trimmed();
    r.postReadyHook = m_hooks[2]->toPlainText().trimmed();
    return r;
}

void NewSandboxDialog::setRequest(const NewSandboxRequest &r) {
    (r.provider == NewSandboxRequest::Provider::Engine ? m_engine : m_local)->setChecked(true);
    m_name->setText(r.name);
    if (!r.image.isEmpty())
        m_image->setCurrentText(r.image);
    m_folder->setText(r.workspace);
    (r.workspace.isEmpty() ? m_newFolder : m_pickedFolder)->setChecked(true);
    (r.auth == NewSandboxRequest::Auth::Jwt ? m_jwt : m_apiKey)->setChecked(true);
    m_hooks[0]->setPlainText(r.initHook);
    m_hooks[1]->setPlainText(r.preServicesHook);
    m_hooks[2]->setPlainText(r.postReadyHook);
    updateForm();
}
