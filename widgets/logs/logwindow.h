#pragma once

#include <QJsonObject>
#include <QWidget>

#include <functional>

class QTabWidget;

namespace sbx {

class LogSource;
class LogView;
class UserPrompts;

// The window of logs opened from local files (Open log…), one tab each, several at once.
class LogWindow final : public QWidget {
    Q_OBJECT
public:
    explicit LogWindow(UserPrompts *prompts, QWidget *parent = nullptr);

    // Opens path in a tab of its own (the one it has when open already), following its growth.
    LogView *openFile(const QString &path);
    // Asks for a file and opens it.
    void askOpen();
    // Follows the source open makes (again on Reconnect) in a tab named title; key: one tab a log.
    LogView *openLog(const QString &key, const QString &title,
                     std::function<LogSource *(QObject *parent)> open);
    QTabWidget *tabs() const { return m_tabs; }
    LogView *view(int index) const;
    // The files open, with their current lines, for session restore; restoring reopens those
    // still there.
    QJsonObject sessionState() const;
    void restoreSessionState(const QJsonObject &state);

private:
    LogView *existing(const QString &key);
    LogView *addTab(const QString &key, const QString &title, const QString &tip);

    UserPrompts *m_prompts;
    QTabWidget *m_tabs;
};

} // namespace sbx
