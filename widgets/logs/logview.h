#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace sbx {

// A sandbox server's or container's log: bounded to a number of lines (the oldest go first),
// following the end unless the user scrolls up or turns Follow off.
class LogView final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDefaultMaxLines = 20000;

    explicit LogView(QWidget *parent = nullptr);
    // Appends text as it arrived (it may end mid-line).
    void appendText(const QString &text);
    void clear();
    // Shows why the log stopped (container stopped, engine gone) and offers Reconnect.
    void setEnded(const QString &why);
    void setFollowing(bool follow);
    QString text() const;
    QPlainTextEdit *editor() const { return m_text; }

Q_SIGNALS:
    void reconnectRequested();

private:
    QPlainTextEdit *m_text;
    QCheckBox *m_follow;
    QLabel *m_status;
    QToolButton *m_reconnect;
    bool m_appending = false; // scroll changes made by appendText are not the user's
};

class TabRegistry;
// Registers the Logs tab for sandboxes whose provider has logs (local servers, containers).
void registerLogsTab(TabRegistry &registry);

} // namespace sbx
