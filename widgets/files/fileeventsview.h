#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTreeView;

namespace sbx {

class FileEventFilter;
class FileEventModel;

// The Events view beside the Files tab's tree: the changes the file watch reported (time,
// type, path, size), filterable by type and path; activating one reveals the file, and a file's
// menu opens it as a followed log.
class FileEventsView final : public QWidget {
    Q_OBJECT
public:
    explicit FileEventsView(FileEventModel *events, QWidget *parent = nullptr);

    // "Live", "Not live: why": what the watch is doing.
    void setWatchState(const QString &text, bool live);
    QString watchStateText() const;
    void setTypeFilter(const QString &type);
    void setPathFilter(const QString &text);
    FileEventFilter *filter() const { return m_filter; }
    QTreeView *list() const { return m_list; }
    void setCanOpenLogs(bool can) { m_canOpenLogs = can; }

Q_SIGNALS:
    void revealRequested(const QString &path);
    void openAsLogRequested(const QString &path);

private:
    void showMenu(const QPoint &pos);

    FileEventModel *m_events;
    FileEventFilter *m_filter;
    QComboBox *m_type;
    QLineEdit *m_path;
    QLabel *m_state;
    QTreeView *m_list;
    bool m_canOpenLogs = false;
};

} // namespace sbx
