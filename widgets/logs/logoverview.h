#pragma once

#include <QWidget>

namespace sbx {

class LineSet;
class LogData;

// A ruler beside the log's scroll bar: where the search matches and the errors are in the whole
// log, one mark per pixel row that holds any; a click goes there.
class LogOverview final : public QWidget {
    Q_OBJECT
public:
    explicit LogOverview(const LogData *log, QWidget *parent = nullptr);

    // The sets must outlive the ruler; null shows none of that kind.
    void setMarks(const LineSet *matches, const LineSet *errors);
    QSize sizeHint() const override;
    // The line at the ruler's pixel row y.
    qint64 lineAt(int y) const;

Q_SIGNALS:
    void lineClicked(qint64 line);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    const LogData *m_data;
    const LineSet *m_matches = nullptr;
    const LineSet *m_errors = nullptr;
};

} // namespace sbx
