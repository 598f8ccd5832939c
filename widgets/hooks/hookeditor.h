#pragma once

#include "client/api/hookjobs.h"

#include <QDialog>
#include <QHash>
#include <QPointer>
#include <QSet>

class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace sbx {

// The form for one shutdown hook. It checks the server's rules as the user types (OK stays
// disabled while a rule is broken), registers the hook on OK and closes only once the server took
// it; a refusal naming a field shows under that field.
class HookEditorDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Mode { Add, Edit, View };

    // takenNames: hooks that exist already, which Add must not silently replace.
    HookEditorDialog(SandboxClient *client, const SandboxHook &hook, Mode mode,
                     const QStringList &takenNames, QWidget *parent = nullptr);
    ~HookEditorDialog() override;

    // What the form holds now.
    SandboxHook hook() const;
    Mode mode() const { return m_mode; }
    // The text shown under a field ("name", "command", "timeout", "priority"), "" when none;
    // "" for anything else gives the message above the buttons.
    QString fieldError(const QString &field) const;
    bool isSaving() const { return m_job != nullptr; }

    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *commandEdit() const { return m_command; }
    QDoubleSpinBox *timeoutEdit() const { return m_timeout; }
    QSpinBox *priorityEdit() const { return m_priority; }
    QPushButton *okButton() const;

Q_SIGNALS:
    void saved(const SandboxHook &hook);

public Q_SLOTS:
    // Checks the form and sends it; the dialog closes when the server has registered the hook.
    void accept() override;

private:
    void addField(QFormLayout *form, const QString &label, QWidget *editor, const QString &field);
    void edited(const QString &field);
    QList<FieldError> localErrors() const;
    void showErrors();
    void setBusy(bool busy);
    void onFailed(const Status &status);

    QPointer<SandboxClient> m_client;
    QPointer<RegisterHookJob> m_job;
    Mode m_mode;
    QStringList m_takenNames;
    SandboxHook m_original;
    QLineEdit *m_name;
    QPlainTextEdit *m_command;
    QDoubleSpinBox *m_timeout;
    QSpinBox *m_priority;
    QLabel *m_general;
    QDialogButtonBox *m_buttons;
    QHash<QString, QLabel *> m_errorLabels;
    // Fields the user has changed: their broken rules show; untouched empty fields stay quiet.
    QSet<QString> m_touched;
    // The server's refusals, per field, until that field is edited again.
    QHash<QString, QString> m_serverErrors;
    QString m_serverMessage;
};

} // namespace sbx
