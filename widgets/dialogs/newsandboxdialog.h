#pragma once

#include <QDialog>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

// What the user asked for in "New sandbox"; the console maps it onto a provider's options.
struct NewSandboxRequest {
    enum class Provider { Local, Engine };
    enum class Auth { ApiKey, Jwt };
    Provider provider = Provider::Local;
    QString name;
    QString image;     // engine only
    QString workspace; // local only; empty: a new folder the console creates (and deletes)
    Auth auth = Auth::ApiKey;
    QString initHook;        // RUN_HOOK_INIT
    QString preServicesHook; // RUN_HOOK_PRE_SERVICES
    QString postReadyHook;   // RUN_HOOK_POST_READY
};

// "New sandbox": provider, name, image, workspace, authentication and the three startup hooks,
// each with when it runs.
class NewSandboxDialog final : public QDialog {
    Q_OBJECT
public:
    static constexpr auto defaultImage = "ghcr.io/agent-infra/sandbox:latest";

    // engineStatus: empty when the engine can be used, else why not (the choice is disabled).
    NewSandboxDialog(const QString &suggestedName, const QString &engineStatus,
                     QWidget *parent = nullptr);
    NewSandboxRequest request() const;
    void setRequest(const NewSandboxRequest &request);
    // Why the form cannot be accepted yet, empty when it can.
    QString problem() const;

    void accept() override;

private:
    void updateForm();

    QRadioButton *m_local;
    QRadioButton *m_engine;
    QLineEdit *m_name;
    QLabel *m_imageLabel;
    QComboBox *m_image;
    QLabel *m_workspaceLabel;
    QWidget *m_workspaceRow;
    QRadioButton *m_newFolder;
    QRadioButton *m_pickedFolder;
    QLineEdit *m_folder;
    QRadioButton *m_apiKey;
    QRadioButton *m_jwt;
    QPlainTextEdit *m_hooks[3];
    QLabel *m_problem;
};
