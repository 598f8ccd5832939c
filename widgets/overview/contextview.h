#pragma once

#include "client/api/sandboxtypes.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;
class QFormLayout;

namespace sbx {

class GetContextJob;
class SandboxClient;
struct Status;

// The Overview tab: a sandbox's context (GET /v1/sandbox) laid out for reading.
class ContextView final : public QWidget {
    Q_OBJECT
public:
    explicit ContextView(SandboxClient *client, QWidget *parent = nullptr);
    ~ContextView() override;

    void refresh();
    // The sandbox's name in the list, for the heading ("Local", "build-box", ...).
    void setSandboxName(const QString &name);
    QString title() const;
    bool isLoaded() const { return m_loaded; }
    // The text of a system field as shown ("os", "arch", "user", ...), for tests and copy.
    QString fieldText(const QString &key) const;

Q_SIGNALS:
    void loaded();
    void loadFailed(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showContext(const SandboxContext &context);
    void showError(const Status &status);

    QPointer<SandboxClient> m_client;
    QPointer<GetContextJob> m_job;
    void updateTitle();

    bool m_loaded = false;
    QString m_name;
    QString m_version;
    QLabel *m_title;
    QLabel *m_updated;
    QLabel *m_error;
    QPushButton *m_refresh;
    QWidget *m_body;
    QHash<QString, QLabel *> m_fields;
    QTreeWidget *m_runtimes;
    QTreeWidget *m_tools;
};

} // namespace sbx
