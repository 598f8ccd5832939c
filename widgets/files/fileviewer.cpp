#include "widgets/files/fileviewer.h"

#include "widgets/common/userprompts.h"

#include "client/api/filejobs.h"
#include "models/files/remotefileoperations.h"
#include "widgets/common/errorrow.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

FileViewer::FileViewer(SandboxClient *client, const QString &path, bool sudoAvailable,
                       QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_path(path)
    , m_sudoAvailable(sudoAvailable)
    , m_info(new QLabel(this))
    , m_errorRow(new ErrorRow(this))
    , m_editor(new QPlainTextEdit(this))
    , m_editButton(new QPushButton(tr("&Edit"), this))
    , m_saveButton(new QPushButton(tr("&Save"), this)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setSizeGripEnabled(true);
    resize(820, 620);
    m_editor->setReadOnly(true);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_editButton->setCheckable(true);
    m_editButton->setToolTip(tr("Allow changes; Save writes them to the sandbox"));
    m_saveButton->setShortcut(QKeySequence::Save);
    m_saveButton->setEnabled(false);

    auto *reloadButton = new QPushButton(tr("&Reload"), this);
    reloadButton->setShortcut(QKeySequence::Refresh);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_editButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_saveButton, QDialogButtonBox::ActionRole);
    buttons->addButton(reloadButton, QDialogButtonBox::ResetRole);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_info);
    layout->addWidget(m_errorRow);
    layout->addWidget(m_editor, 1);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_editButton, &QPushButton::toggled, this, &FileViewer::setEditing);
    connect(m_saveButton, &QPushButton::clicked, this, &FileViewer::save);
    connect(reloadButton, &QPushButton::clicked, this, [this] {
        if (isModified() &&
            !prompts()->confirm(this, tr("Reload"),
                                tr("Discard your changes and reload %1?").arg(m_path),
                                tr("&Reload")))
            return;
        reload();
    });
    connect(m_errorRow, &ErrorRow::sudoRequested, this, &FileViewer::retryWithSudo);
    connect(m_editor, &QPlainTextEdit::modificationChanged, this, [this](bool modified) {
        m_saveButton->setEnabled(modified && isEditing());
        updateTitle();
    });
    updateTitle();
    reload();
}

bool FileViewer::isEditing() const {
    return !m_editor->isReadOnly();
}

bool FileViewer::isModified() const {
    return m_editor->document()->isModified();
}

QString FileViewer::errorText() const {
    return m_errorRow->text();
}

bool FileViewer::sudoOffered() const {
    return m_errorRow->sudoOffered();
}

void FileViewer::updateTitle() {
    const QString name = m_path.section(QLatin1Char('/'), -1);
    const QString shown = (isModified() ? u"*"_s : QString()) + name;
    setWindowTitle(isEditing() ? tr("%1 — Sandbox Console").arg(shown)
                               : tr("%1 (read-only) — Sandbox Console").arg(shown));
    m_info->setText(m_path);
}

void FileViewer::setEditing(bool editing) {
    // U+FFFD stands for bytes that are not UTF-8: saving would replace them for good.
    if (editing && m_original.contains(QChar::ReplacementCharacter)) {
        m_editButton->setChecked(false);
        showError(Status::error(Status::Kind::Validation,
                                tr("%1 is not all UTF-8 text: editing it here would "
                                   "change bytes you did not touch. Use Download… "
                                   "to edit it locally.")
                                    .arg(m_path)),
                  {});
        return;
    }
    m_editor->setReadOnly(!editing);
    m_editButton->setChecked(editing);
    m_saveButton->setEnabled(editing && isModified());
    if (editing)
        m_editor->setFocus();
    updateTitle();
}

void FileViewer::showError(const Status &status, std::function<void()> retry) {
    const bool offer = retry && RemoteFileOperations::offersSudo(status, m_sudoAvailable, m_sudo);
    m_retry = offer ? std::move(retry) : std::function<void()>();
    m_errorRow->showError(status.message, offer);
    Q_EMIT failed(status);
}

void FileViewer::retryWithSudo() {
    m_sudo = true;
    m_errorRow->clear();
    if (auto retry = std::exchange(m_retry, {}))
        retry();
}

void FileViewer::read(std::function<void(const QString &)> then, std::function<void()> retry) {
    if (!m_client)
        return;
    auto *job = new ReadFileJob(m_client, m_path, -1, -1, m_sudo);
    connect(job, &ReadFileJob::succeeded, this, std::move(then));
    connect(job, &ApiJob::failed, this, [this, retry = std::move(retry)](const Status &s) {
        Status status = s;
        status.message = tr("Could not read %1: %2").arg(m_path, s.message);
        showError(status, retry);
        setBusy(false);
    });
    job->start();
}

void FileViewer::reload() {
    m_errorRow->clear();
    m_busy = true;
    read(
        [this](const QString &content) {
            m_busy = false;
            m_original = content;
            // The editor keeps lines with \n only: Save puts a CRLF file's endings back.
            m_crlf = content.contains(QLatin1String("\r\n"));
            m_editor->setPlainText(content);
            m_editor->document()->setModified(false);
            updateTitle();
            Q_EMIT loaded();
        },
        [this] { reload(); });
}

void FileViewer::setBusy(bool busy) {
    m_busy = busy;
    // Typing during a save would be marked saved without having been written.
    m_editor->setReadOnly(busy || !m_editButton->isChecked());
    if (!busy && !m_errorRow->isHidden())
        QObject::disconnect(m_closeAfterSave); // a failed save must not close the window later
}

void FileViewer::save() {
    if (m_busy || (!isEditing() && !isModified()))
        return;
    m_errorRow->clear();
    setBusy(true);
    // Saving over a version we never saw would lose someone else's work: compare first.
    read(
        [this](const QString &current) {
            if (current != m_original) {
                const QString why = tr("%1 changed on the server since you opened it.").arg(m_path);
                // 0: overwrite, 1: reload, -1: cancel.
                const int choice =
                    prompts()->choose(this, tr("Changed on the server"),
                                      tr("%1 Overwrite it with your version?").arg(why),
                                      {tr("Overwrite"), tr("Discard mine and reload")});
                if (choice == 1) {
                    reload();
                    return;
                }
                if (choice != 0) {
                    m_busy = false;
                    return;
                }
            }
            write();
        },
        [this] { save(); });
}

void FileViewer::write() {
    QString text = m_editor->toPlainText();
    if (m_crlf)
        text.replace(QLatin1Char('\n'), QLatin1String("\r\n"));
    auto *job = new WriteFileJob(m_client, m_path, text.toUtf8(), false, false, m_sudo);
    connect(job, &WriteFileJob::succeeded, this, [this, text] {
        setBusy(false);
        m_original = text;
        m_editor->document()->setModified(false);
        updateTitle();
        Q_EMIT saved();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &s) {
        Status status = s;
        status.message = tr("Could not save %1: %2").arg(m_path, s.message);
        showError(status, [this] { save(); });
        setBusy(false);
    });
    job->start();
}

void FileViewer::closeEvent(QCloseEvent *event) {
    if (isModified()) {
        // 0: save, 1: discard, -1: cancel.
        const int answer = prompts()->choose(
            this, tr("Unsaved changes"), tr("Save your changes to %1 before closing?").arg(m_path),
            {tr("Save"), tr("Discard")});
        if (answer < 0) {
            event->ignore();
            return;
        }
        if (answer == 0) {
            event->ignore();
            QObject::disconnect(m_closeAfterSave);
            m_closeAfterSave =
                connect(this, &FileViewer::saved, this, &QDialog::close, Qt::SingleShotConnection);
            save();
            return;
        }
        m_editor->document()->setModified(false);
    }
    QDialog::closeEvent(event);
}

UserPrompts *FileViewer::prompts() const {
    return m_prompts ? m_prompts : dialogPrompts();
}

} // namespace sbx
