#pragma once

#include <QWidget>

class QTabWidget;

namespace sbx {

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
    QTabWidget *tabs() const { return m_tabs; }
    LogView *view(int index) const;

private:
    UserPrompts *m_prompts;
    QTabWidget *m_tabs;
};

} // namespace sbx
