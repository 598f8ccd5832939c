#pragma once

#include "models/logs/logmatcher.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <set>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSplitter;
class QTimer;
class QToolButton;

namespace sbx {

class LogData;
class LogExport;
class LogLinesView;
class LogOverview;
class LogSearch;
class LogSource;
class UserPrompts;

// A log: the lines view over a LogData with search (F3 / Shift+F3), a filter pane that lists only
// the matching (or the other) lines, go to line, follow, and a status line. Fed by a LogSource
// (a file followed in place or bytes in a spool) or a local file.
class LogView final : public QWidget {
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);
    ~LogView() override;

    // Reads source from now on: its file in place, else its bytes. The source stays the caller's.
    void attach(LogSource *source);
    // Follows the sources open makes: one now, a fresh one on Reconnect after it ended.
    void follow(std::function<LogSource *(QObject *parent)> open);
    bool openFile(const QString &path, bool follow);
    // Shows why the log stopped (container stopped, engine gone) and offers Reconnect.
    void setEnded(const QString &why);
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

    // Searches the whole log; the first match at or after the current line becomes current.
    void find(const LogQuery &query);
    void findNext();
    void findPrevious();
    // Shows the filter pane with the lines that query keeps (with invert, those it does not).
    void setFilter(const LogQuery &query);
    void showFilter(bool shown);
    void goToLine(qint64 line);
    // Goes to line once the log has that many lines (a restored session's position).
    void restoreLine(qint64 line);
    qint64 currentLine() const;
    // Asks for a line number and goes there (Ctrl+G).
    void askGoToLine();
    // The next / previous line of level error (Ctrl+E / Ctrl+Shift+E), found on a worker.
    void nextError();
    void previousError();
    // Bookmarks: Ctrl+M on the current line, F2 / Shift+F2 to the next / previous one.
    void toggleBookmark();
    void nextBookmark();
    void previousBookmark();
    const std::set<qint64> &bookmarks() const { return m_bookmarks; }
    // Asks for a time and goes to the first line at or after it (Ctrl+T).
    void askGoToTime();
    bool goToTime(const QString &when);
    // Times beside the lines, relative to the current line's (or the first line's) time.
    void setRelativeTime(bool on);
    // The pretty-printed JSON of the current line, when it is one (empty otherwise).
    QString detailText() const;
    // Writes the whole log (or, from the filter pane, its lines) to a file the user picks.
    void askSave(bool filtered);
    void saveTo(const QString &path, bool filtered);
    LogExport *exporter() const { return m_export; }

    LogData *data() const { return m_data; }
    LogSearch *search() const { return m_search; }
    LogSearch *filter() const { return m_filter; }
    LogLinesView *lines() const { return m_lines; }
    LogLinesView *filterLines() const { return m_filterLines; }
    LogOverview *overview() const { return m_overview; }
    LogSearch *errors() const { return m_errors; }
    QString statusText() const;

Q_SIGNALS:
    void reconnectRequested();

private:
    void updateStatus();
    void jumpToError(qint64 from, bool forward);
    void showDetail(qint64 line);
    void startErrorScan();
    LogQuery queryFrom(const QLineEdit *field, const QCheckBox *regex, const QCheckBox *caseBox,
                       bool invert) const;

    LogData *m_data;
    LogSearch *m_search;
    LogSearch *m_filter;
    LogSearch *m_errors; // started on the first error jump
    LogExport *m_export;
    std::set<qint64> m_bookmarks;
    qint64 m_restoreLine = -1;      // restoreLine() waiting for the index, -1: none
    qint64 m_pendingErrorFrom = -2; // a jump waiting for the error search, -2: none
    bool m_pendingErrorForward = true;
    LogLinesView *m_lines;
    LogLinesView *m_filterLines;
    LogOverview *m_overview;
    QSplitter *m_splitter;
    QWidget *m_filterPane;
    QLineEdit *m_findField;
    QCheckBox *m_findRegex;
    QCheckBox *m_findCase;
    QLabel *m_findCount;
    QLineEdit *m_filterField;
    QCheckBox *m_filterRegex;
    QCheckBox *m_filterCase;
    QCheckBox *m_filterInvert;
    QComboBox *m_filterLevel;
    QToolButton *m_filterButton;
    QToolButton *m_followButton;
    QToolButton *m_relativeButton;
    QPlainTextEdit *m_detail; // the current line's JSON, pretty-printed
    QLabel *m_status;
    QToolButton *m_reconnect;
    QTimer *m_refresh; // coalesces the repaints of a fast-growing log
    QString m_ended;
    QString m_notice; // the last reset's reason
    qint64 m_indexPercent = -1;
    UserPrompts *m_prompts = nullptr;
};

class TabRegistry;
// Registers the Logs tab for sandboxes whose provider has logs (local servers, containers).
void registerLogsTab(TabRegistry &registry);

} // namespace sbx
