#include "widgets/logs/loglinesview.h"

#include "models/ansicolors.h"
#include "models/logs/lineset.h"
#include "models/logs/logclassify.h"
#include "models/logs/logdata.h"
#include "models/logs/logstructure.h"
#include "models/logs/logtext.h"
#include "models/palette.h"

#include <QFontDatabase>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kGutterPad = 6;
constexpr int kLevelBar = 4;

QColor levelColor(LogLevel level, const QPalette &palette) {
    switch (level) {
    case LogLevel::Error:
        return Palette::color(Palette::Role::LevelError, palette);
    case LogLevel::Warning:
        return Palette::color(Palette::Role::LevelWarning, palette);
    case LogLevel::Info:
        return Palette::color(Palette::Role::LevelInfo, palette);
    case LogLevel::Debug:
    case LogLevel::Trace:
        return Palette::color(Palette::Role::LevelDebug, palette);
    case LogLevel::None:
        break;
    }
    return {};
}

} // namespace

LogLinesView::LogLinesView(LogData *log, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_data(log) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setBackgroundRole(QPalette::Base);
    verticalScrollBar()->setSingleStep(1);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (m_programmaticScroll)
            return;
        // Scrolling up to read stops following; back at the bottom resumes it.
        setFollowing(value >= verticalScrollBar()->maximum());
    });
}

void LogLinesView::setLineSet(const LineSet *lines) {
    m_lines = lines;
    rowsChanged();
}

void LogLinesView::setRelativeTime(std::optional<qint64> baseMs, const LogTimeContext &context) {
    m_relativeBase = baseMs;
    m_timeContext = context;
    viewport()->update();
}

void LogLinesView::setHighlight(const LogQuery &query) {
    if (query.pattern.isEmpty() || query.invert) {
        m_highlight = {};
    } else {
        m_highlight = QRegularExpression(
            query.regex ? query.pattern : QRegularExpression::escape(query.pattern),
            query.caseSensitive ? QRegularExpression::NoPatternOption
                                : QRegularExpression::CaseInsensitiveOption);
    }
    viewport()->update();
}

qint64 LogLinesView::rowCount() const {
    return m_lines ? m_lines->count() : m_data->lineCount();
}

qint64 LogLinesView::lineOfRow(qint64 row) const {
    return m_lines ? m_lines->at(row) : row;
}

qint64 LogLinesView::rowOfLine(qint64 line) const {
    return m_lines ? m_lines->lowerBound(line) : line;
}

int LogLinesView::lineHeight() const {
    return fontMetrics().height();
}

int LogLinesView::visibleRows() const {
    return std::max(1, viewport()->height() / std::max(1, lineHeight()));
}

void LogLinesView::rowsChanged() {
    const qint64 rows = rowCount();
    if (!m_following && rows > m_knownRows) {
        m_unseen += rows - m_knownRows;
        Q_EMIT unseenChanged(m_unseen);
    }
    m_knownRows = rows;
    updateScrollBars();
    viewport()->update();
}

void LogLinesView::resetView() {
    m_current = m_anchor = -1;
    m_unseen = 0;
    m_knownRows = 0;
    m_widestText = 0;
    setFollowing(true);
    rowsChanged();
}

void LogLinesView::updateScrollBars() {
    QScrollBar *bar = verticalScrollBar();
    const qint64 maxTop = std::max<qint64>(0, rowCount() - visibleRows());
    m_programmaticScroll = true;
    bar->setRange(0, int(std::min<qint64>(maxTop, INT_MAX)));
    bar->setPageStep(visibleRows());
    if (m_following)
        bar->setValue(bar->maximum());
    m_programmaticScroll = false;
    horizontalScrollBar()->setRange(0, std::max(0, m_widestText - viewport()->width() / 2));
    horizontalScrollBar()->setPageStep(viewport()->width());
}

void LogLinesView::setFollowing(bool follow) {
    if (follow == m_following)
        return;
    m_following = follow;
    if (follow) {
        m_unseen = 0;
        Q_EMIT unseenChanged(0);
        updateScrollBars();
        viewport()->update();
    }
    Q_EMIT followingChanged(follow);
}

void LogLinesView::goToLine(qint64 line) {
    if (rowCount() != m_knownRows) // rows that arrived since the last refresh can be gone to
        rowsChanged();
    const qint64 row = rowOfLine(line);
    if (row >= rowCount())
        return;
    // Decided before the current row moves the view: a line out of view comes to the middle.
    const qint64 top = verticalScrollBar()->value();
    if (row < top || row >= top + visibleRows()) {
        setFollowing(false);
        verticalScrollBar()->setValue(int(std::max<qint64>(0, row - visibleRows() / 2)));
    }
    setCurrentRow(row, false);
}

void LogLinesView::setCurrentRow(qint64 row, bool extend) {
    row = std::clamp<qint64>(row, 0, std::max<qint64>(0, rowCount() - 1));
    if (rowCount() == 0)
        return;
    const qint64 line = lineOfRow(row);
    if (!extend || m_anchor < 0)
        m_anchor = line;
    if (line != m_current) {
        m_current = line;
        Q_EMIT currentLineChanged(line);
    }
    const qint64 top = verticalScrollBar()->value();
    if (row < top)
        verticalScrollBar()->setValue(int(row));
    else if (row >= top + visibleRows())
        verticalScrollBar()->setValue(int(row - visibleRows() + 1));
    viewport()->update();
}

QString LogLinesView::selectedText(bool withLineNumbers) const {
    if (m_current < 0)
        return {};
    const qint64 from = rowOfLine(std::min(m_current, m_anchor));
    const qint64 to = rowOfLine(std::max(m_current, m_anchor));
    QStringList out;
    for (qint64 row = from; row <= to && row < rowCount(); ++row) {
        const qint64 line = lineOfRow(row);
        // A copy holds the whole line, however long: the view showed it cut.
        const QString text = QString::fromUtf8(
            plainLogBytes(m_data->line(line, std::max<qint64>(1, m_data->lineLength(line)))));
        out << (withLineNumbers ? u"%1\t%2"_s.arg(line + 1).arg(text) : text);
    }
    return out.join(QLatin1Char('\n'));
}

qint64 LogLinesView::rowAt(int y) const {
    return verticalScrollBar()->value() + y / std::max(1, lineHeight());
}

void LogLinesView::paintEvent(QPaintEvent *) {
    QPainter painter(viewport());
    const QPalette &pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int height = lineHeight();
    const qint64 top = verticalScrollBar()->value();
    const qint64 rows = std::min<qint64>(visibleRows() + 1, rowCount() - top);
    const QString widest = QString::number(std::max<qint64>(1, m_data->lineCount()));
    const int timeWidth = m_relativeBase ? fm.horizontalAdvance(u"+00000.000 s"_s) + kGutterPad : 0;
    const int gutter = fm.horizontalAdvance(widest) + 2 * kGutterPad + kLevelBar + timeWidth;
    const int scrollX = horizontalScrollBar()->value();
    const qint64 selFirst = std::min(m_current, m_anchor);
    const qint64 selLast = std::max(m_current, m_anchor);

    // Consecutive rows of the full log are read in one go.
    QList<QByteArray> block;
    if (!m_lines && rows > 0)
        block = m_data->lines(top, rows);
    for (qint64 i = 0; i < rows; ++i) {
        const qint64 row = top + i;
        const qint64 line = lineOfRow(row);
        const QByteArray raw = m_lines ? m_data->line(line) : block.value(i);
        const LogText text = decodeLogLine(raw);
        const QByteArray utf8 = text.text.toUtf8(); // what the level and time readers take
        const int y = int(i) * height;
        const QRect rowRect(0, y, viewport()->width(), height);
        if (m_current >= 0 && line >= selFirst && line <= selLast)
            painter.fillRect(rowRect, Palette::color(Palette::Role::CurrentLine, pal));

        // Text, clipped to the right of the gutter, scrolled horizontally.
        painter.save();
        painter.setClipRect(QRect(gutter, y, viewport()->width() - gutter, height));
        const int x0 = gutter + kGutterPad - scrollX;
        const auto advance = [&](int chars) {
            return fm.horizontalAdvance(text.text.left(chars));
        };
        if (m_highlight.isValid() && !m_highlight.pattern().isEmpty()) {
            for (auto it = m_highlight.globalMatch(text.text); it.hasNext();) {
                const auto m = it.next();
                if (m.capturedLength() == 0)
                    continue;
                const int left = x0 + advance(int(m.capturedStart()));
                const int right = x0 + advance(int(m.capturedEnd()));
                painter.fillRect(QRect(left, y, right - left, height),
                                 Palette::color(line == m_current ? Palette::Role::CurrentMatch
                                                                  : Palette::Role::SearchMatch,
                                                pal));
            }
        }
        const QColor plain = pal.color(QPalette::Text);
        int at = 0;
        int x = x0;
        const auto drawRun = [&](int start, int length, const LogStyle *style) {
            if (length <= 0)
                return;
            const QString piece = text.text.mid(start, length);
            const int width = fm.horizontalAdvance(piece);
            QColor fg = style ? ansiColor(style->fg, plain, style->bold) : plain;
            if (style && style->bg != 0) {
                const QColor bg = ansiColor(style->bg, pal.color(QPalette::Base));
                painter.fillRect(QRect(x, y, width, height), style->inverse ? fg : bg);
            }
            QFont font = painter.font();
            font.setBold(style && style->bold);
            font.setItalic(style && style->italic);
            font.setUnderline(style && style->underline);
            font.setStrikeOut(style && style->strike);
            painter.setFont(font);
            painter.setPen(fg);
            painter.drawText(x, y + fm.ascent(), piece);
            x += width;
        };
        for (const LogSpan &span : text.spans) {
            drawRun(at, span.start - at, nullptr);
            drawRun(span.start, span.length, &span.style);
            at = span.start + span.length;
        }
        drawRun(at, int(text.text.size()) - at, nullptr);
        if (text.cut) {
            painter.setPen(Palette::color(Palette::Role::TextMuted, pal));
            painter.drawText(x + kGutterPad, y + fm.ascent(),
                             tr("… (%1 more bytes; copy takes the whole line)")
                                 .arg(text.fullBytes - raw.size()));
        }
        m_widestText = std::max(m_widestText, x - x0);
        painter.restore();

        // Gutter: the line's number in the log, then its level.
        painter.fillRect(QRect(0, y, gutter, height), pal.color(QPalette::AlternateBase));
        painter.setPen(Palette::color(Palette::Role::TextMuted, pal));
        painter.drawText(QRect(0, y, gutter - kLevelBar - kGutterPad - timeWidth, height),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(line + 1));
        if (m_relativeBase) {
            if (const auto t = parseLogTime(utf8, m_timeContext)) {
                const double seconds = double(*t - *m_relativeBase) / 1000.0;
                painter.drawText(
                    QRect(gutter - kLevelBar - timeWidth, y, timeWidth - kGutterPad, height),
                    Qt::AlignRight | Qt::AlignVCenter,
                    u"%1%2 s"_s.arg(seconds >= 0 ? u"+"_s : QString()).arg(seconds, 0, 'f', 3));
            }
        }
        const QColor level = levelColor(classifyLevel(utf8), pal);
        if (level.isValid())
            painter.fillRect(QRect(gutter - kLevelBar, y, kLevelBar, height), level);
        if (m_bookmarks && m_bookmarks->count(line)) {
            painter.setBrush(pal.color(QPalette::Highlight));
            painter.setPen(Qt::NoPen);
            painter.drawEllipse(QRect(2, y + height / 4, height / 2, height / 2));
        }
    }
    if (horizontalScrollBar()->maximum() < m_widestText - viewport()->width() / 2)
        QMetaObject::invokeMethod(this, &LogLinesView::updateScrollBars, Qt::QueuedConnection);
    if (rows <= 0) {
        painter.setPen(Palette::color(Palette::Role::TextMuted, pal));
        painter.drawText(viewport()->rect(), Qt::AlignCenter,
                         m_lines ? tr("No line matches") : tr("No lines yet"));
    }
}

void LogLinesView::resizeEvent(QResizeEvent *event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void LogLinesView::scrollContentsBy(int, int) {
    viewport()->update();
}

void LogLinesView::keyPressEvent(QKeyEvent *event) {
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const qint64 row = m_current >= 0 ? rowOfLine(m_current) : verticalScrollBar()->value();
    switch (event->key()) {
    case Qt::Key_Up:
        setFollowing(false);
        setCurrentRow(row - 1, shift);
        return;
    case Qt::Key_Down:
        setCurrentRow(row + 1, shift);
        return;
    case Qt::Key_PageUp:
        setFollowing(false);
        setCurrentRow(row - visibleRows(), shift);
        return;
    case Qt::Key_PageDown:
        setCurrentRow(row + visibleRows(), shift);
        return;
    case Qt::Key_Home:
        setFollowing(false);
        setCurrentRow(0, shift);
        verticalScrollBar()->setValue(0);
        return;
    case Qt::Key_End:
        setCurrentRow(rowCount() - 1, shift);
        setFollowing(true);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current >= 0)
            Q_EMIT lineActivated(m_current);
        return;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void LogLinesView::mousePressEvent(QMouseEvent *event) {
    const qint64 row = rowAt(int(event->position().y()));
    if (row < rowCount())
        setCurrentRow(row, event->modifiers() & Qt::ShiftModifier);
    setFocus();
}

void LogLinesView::mouseDoubleClickEvent(QMouseEvent *event) {
    const qint64 row = rowAt(int(event->position().y()));
    if (row < rowCount())
        Q_EMIT lineActivated(lineOfRow(row));
}

} // namespace sbx
