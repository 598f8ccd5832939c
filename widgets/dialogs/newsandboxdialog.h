#pragma once

#include "client/providers/sandboxprovider.h"

#include <QDialog>
#include <QList>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

namespace sbx {

// What the user asked for in "New sandbox": which provider, and the options it is given.
struct NewSandboxRequest {
    QString providerId; // empty: the first provider offered
    SandboxCreateOptions options;
};

// "New sandbox": where it runs (one choice per provider that creates sandboxes), name, image or
// workspace as that provider asks, authentication and the three startup hooks.
class NewSandboxDialog final : public QDialog {
    Q_OBJECT
public:
    // Providers are borrowed; those whose CreateForm has no label are not offered.
    NewSandboxDialog(const QString &suggestedName, const QList<SandboxProvider *> &providers,
                     QWidget *parent = nullptr);
    NewSandboxRequest request() const;
    void setRequest(const NewSandboxRequest &request);
    // Why the form cannot be accepted yet, empty when it can.
    QString problem() const;

    void accept() override;

private:
    struct Choice {
        SandboxProvider *provider;
        CreateForm form;
        QRadioButton *button;
    };
    static QList<Choice> makeChoices(const QList<SandboxProvider *> &providers, QWidget *parent);
    void updateForm();
    const Choice *current() const;

    QList<Choice> m_choices;
    QLineEdit *m_name;
    QLabel *m_imageLabel;
    QComboBox *m_image;
    QLabel *m_workspaceLabel;
    QWidget *m_workspaceRow;
    QRadioButton *m_newFolder;
    QRadioButton *m_pickedFolder;
    QLineEdit *m_folder;
    QLabel *m_publishLabel;
    QLineEdit *m_publish;
    QLabel *m_publishHint;
    const Choice *m_shownChoice = nullptr; // whose defaults the fields show
    QRadioButton *m_apiKey;
    QRadioButton *m_jwt;
    QPlainTextEdit *m_hooks[3];
    QLabel *m_problem;
};

} // namespace sbx
