#pragma once

#include "models/logs/logclassify.h"
#include "models/logs/logmatcher.h"

#include <QAbstractScrollArea>
#include <QRegularExpression>

#include <optional>
#include <set>

namespace sbx {

class LineSet;
class LogData;

// Paints only the visible lines of a LogData (klogg's AbstractLogView): line numbers, a level
// gutter, ANSI colours, search highlights. Shows every line, or through a LineSet only the
// lines of a filter (still numbered as in the log). Follows the end unless scrolled away.
class LogLinesView final : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit LogLinesView(LogData *log, QWidget *parent = nullptr);

    // Only these lines (a filter), or every line when null; the set must outlive the view.
    void setLineSet(const LineSet *lines);
    void setHighlight(const LogQuery &query);
    // Shows beside each line its time relative to baseMs (lines without a time show none);
    // nullopt turns it off.
    void setRelativeTime(std::optional<qint64> baseMs, const LogTimeContext &context);
    bool showsRelativeTime() const { return m_relativeBase.has_value(); }
    // Lines marked in the gutter; the set must outlive the view.
    void setBookmarks(const std::set<qint64> *bookmarks) { m_bookmarks = bookmarks; }
    // The rows shown changed (the log grew, the filter found more): scrolls if following.
    void rowsChanged();
    // Everything was dropped: back to the top, following.
    void resetView();

    qint64 rowCount() const;
    qint64 lineOfRow(qint64 row) const;
    // The row showing line, or the first row after it.
    qint64 rowOfLine(qint64 line) const;
    qint64 currentLine() const { return m_current; }
    // Makes line current and brings it into view (centred when it was out of view).
    void goToLine(qint64 line);
    bool isFollowing() const { return m_following; }
    void setFollowing(bool follow);
    // Lines that arrived while not following.
    qint64 unseenLines() const { return m_unseen; }
    // The text of the selected lines (current to anchor), whole, escapes removed.
    QString selectedText(bool withLineNumbers) const;
    int lineHeight() const;

Q_SIGNALS:
    void currentLineChanged(qint64 line);
    // Enter or a double click: the filter pane asks the full view to show this line.
    void lineActivated(qint64 line);
    void followingChanged(bool following);
    void unseenChanged(qint64 count);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    int visibleRows() const;
    void updateScrollBars();
    void setCurrentRow(qint64 row, bool extend);
    qint64 rowAt(int y) const;

    LogData *m_data;
    const LineSet *m_lines = nullptr;
    const std::set<qint64> *m_bookmarks = nullptr;
    std::optional<qint64> m_relativeBase;
    LogTimeContext m_timeContext;
    QRegularExpression m_highlight;
    qint64 m_current = -1; // a line of the log
    qint64 m_anchor = -1;  // the other end of a selection
    bool m_following = true;
    bool m_programmaticScroll = false;
    qint64 m_unseen = 0;
    qint64 m_knownRows = 0;
    int m_widestText = 0; // pixels, of the lines painted so far: the horizontal range
};

} // namespace sbx
