#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace sbx {

class GetLlmsTxtJob;
class SandboxClient;
struct Status;

// The llms.txt tab: the sandbox's agent manual, rendered, searchable and copyable.
class LlmsTxtView final : public QWidget {
    Q_OBJECT
public:
    explicit LlmsTxtView(SandboxClient *client, QWidget *parent = nullptr);
    ~LlmsTxtView() override;

    void refresh();
    QString text() const { return m_text; }
    bool isLoaded() const { return m_loaded; }
    // Highlights every match of term; returns how many there are.
    int find(const QString &term);
    QTextBrowser *browser() const { return m_browser; }

Q_SIGNALS:
    void loaded();
    void loadFailed(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void render();
    void showError(const Status &status);
    void findNext(bool backward);

    QPointer<SandboxClient> m_client;
    QPointer<GetLlmsTxtJob> m_job;
    QString m_text;
    bool m_loaded = false;
    QTextBrowser *m_browser;
    QLabel *m_error;
    QLineEdit *m_search;
    QLabel *m_matches;
    QCheckBox *m_raw;
    QPushButton *m_refresh;
};

} // namespace sbx
