#pragma once

#include "client/providers/sandboxprovider.h"

#include <QDialog>
#include <QPointer>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sbx {

class ProbeJob;
class SandboxClient;
class UserPrompts;
struct Status;

// Add or edit a saved sandbox: address, credentials, TLS, and a "Test connection" that shows
// exactly what happened.
class SandboxDialog final : public QDialog {
    Q_OBJECT
public:
    explicit SandboxDialog(QWidget *parent = nullptr);
    ~SandboxDialog() override;

    // Fills the form from an existing sandbox (edit mode).
    void setEntry(const SandboxEntry &entry);
    // The sandbox as the form describes it; valid only after accept().
    SandboxEntry entry() const;
    // Whether secrets will be kept only for this session (no keychain).
    void setSecretsSessionOnly(bool sessionOnly);
    // Where its question (trust a certificate?) goes; null: the dialogs.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

    void testConnection();
    QString testOutcome() const;

    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *urlEdit() const { return m_url; }
    QComboBox *authCombo() const { return m_auth; }
    QLineEdit *secretEdit() const { return m_secret; }
    QPushButton *testButton() const { return m_test; }

Q_SIGNALS:
    void testFinished(bool ok);

protected:
    void accept() override;

private:
    // Asks the user whether to trust a certificate; true to pin it.
    bool confirmCertificate(const QByteArray &sha256);
    bool validate(QString *error) const;
    void updateAuthFields();
    void onTestFailed(const Status &status);

    SandboxEntry m_entry;
    QLineEdit *m_name;
    QLineEdit *m_url;
    QComboBox *m_auth;
    QLineEdit *m_secret;
    QLabel *m_secretHint;
    QLabel *m_expiry;
    QLineEdit *m_caFile;
    QLabel *m_pinned;
    QByteArray m_pinnedSha256;
    QPushButton *m_test;
    QLabel *m_outcome;
    QDialogButtonBox *m_buttons;
    QPointer<SandboxClient> m_testClient;
    QPointer<ProbeJob> m_testJob;
    UserPrompts *m_prompts = nullptr;
};

} // namespace sbx
