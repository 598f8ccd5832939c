#pragma once

#include "client/transport/status.h"

#include <QDialog>
#include <QPointer>

#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sbx {

class ErrorRow;
class UserPrompts;
class SandboxClient;

// A remote text file in a window: read-only until the user chooses Edit; Save writes it back
// through /v1/file/write after checking that nobody changed it on the server meanwhile.
class FileViewer final : public QDialog {
    Q_OBJECT
public:
    FileViewer(SandboxClient *client, const QString &path, bool sudoAvailable,
               QWidget *parent = nullptr);

    // Where its questions go (reload, changed on the server, unsaved); null: the dialogs.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    const QString &path() const { return m_path; }
    QPlainTextEdit *editor() const { return m_editor; }
    bool isEditing() const;
    bool isModified() const;
    // The error shown, empty when none (for tests and the status of the window).
    QString errorText() const;
    bool sudoOffered() const;

public Q_SLOTS:
    void reload();
    void setEditing(bool editing);
    void save();
    void retryWithSudo();

Q_SIGNALS:
    void loaded();
    void saved();
    void failed(const Status &status);

protected:
    // Escape asks about unsaved changes, as closing the window does.
    void reject() override { close(); }
    void closeEvent(QCloseEvent *event) override;

private:
    UserPrompts *prompts() const;
    void read(std::function<void(const QString &)> then, std::function<void()> retry);
    void write();
    void showError(const Status &status, std::function<void()> retry);
    void updateTitle();

    QPointer<SandboxClient> m_client;
    QString m_path;
    bool m_sudoAvailable;
    bool m_sudo = false;
    QString m_original; // the server's content when loaded or last saved
    QLabel *m_info;
    ErrorRow *m_errorRow;
    QPlainTextEdit *m_editor;
    QPushButton *m_editButton;
    QPushButton *m_saveButton;
    std::function<void()> m_retry;
    UserPrompts *m_prompts = nullptr;
    void setBusy(bool busy);

    bool m_busy = false;
    bool m_crlf = false; // the file's lines end with \r\n
    QMetaObject::Connection m_closeAfterSave;
};

} // namespace sbx
