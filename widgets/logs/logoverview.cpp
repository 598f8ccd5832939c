#include "widgets/logs/logoverview.h"

#include "models/logs/lineset.h"
#include "models/logs/logdata.h"
#include "models/palette.h"

#include <QMouseEvent>
#include <QPainter>

namespace sbx {

namespace {

constexpr int kWidth = 10;

// Whether set holds a line in [first, last).
bool holdsAny(const LineSet *set, qint64 first, qint64 last) {
    return set && set->lowerBound(first) < set->lowerBound(last);
}

} // namespace

LogOverview::LogOverview(const LogData *log, QWidget *parent)
    : QWidget(parent)
    , m_data(log) {
    setFixedWidth(kWidth);
    setToolTip(tr("Search matches (yellow) and errors (red) in the whole log; click to go there"));
    setCursor(Qt::PointingHandCursor);
}

void LogOverview::setMarks(const LineSet *matches, const LineSet *errors) {
    m_matches = matches;
    m_errors = errors;
    update();
}

QSize LogOverview::sizeHint() const {
    return {kWidth, 100};
}

qint64 LogOverview::lineAt(int y) const {
    const qint64 lines = m_data->lineCount();
    if (lines == 0 || height() <= 0)
        return 0;
    return std::clamp<qint64>(qint64(double(y) / height() * lines), 0, lines - 1);
}

void LogOverview::paintEvent(QPaintEvent *) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::AlternateBase));
    const qint64 lines = m_data->lineCount();
    if (lines == 0)
        return;
    const QColor match = Palette::color(Palette::Role::SearchMatch, palette()).darker(120);
    const QColor error = Palette::color(Palette::Role::LevelError, palette());
    // One question per pixel row: O(height log runs), whatever the log's size.
    for (int y = 0; y < height(); ++y) {
        const qint64 first = lineAt(y);
        const qint64 last = std::max(first + 1, lineAt(y + 1));
        if (holdsAny(m_errors, first, last))
            painter.fillRect(QRect(0, y, kWidth / 2, 1), error);
        if (holdsAny(m_matches, first, last))
            painter.fillRect(QRect(kWidth / 2, y, kWidth - kWidth / 2, 1), match);
    }
}

void LogOverview::mousePressEvent(QMouseEvent *event) {
    Q_EMIT lineClicked(lineAt(int(event->position().y())));
}

} // namespace sbx
