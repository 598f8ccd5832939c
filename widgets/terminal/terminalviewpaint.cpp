// TerminalView: painting cells, selection, find matches and the cursor.
#include "models/ansicolors.h"
#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalview.h"

#include <QGlyphRun>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace sbx {

namespace {

const QColor kDefaultForeground(0xd8, 0xd8, 0xd8);
const QColor kDefaultBackground(0x1c, 0x1c, 0x1c);
const QColor kSelectionBackground(0x3a, 0x5f, 0x9f);
const QColor kMatchBackground(0xb8, 0x9b, 0x2a);
const QColor kCurrentMatchBackground(0xf0, 0x8c, 0x1a);
// Beyond the grid when another, smaller view of the session sets its size (as tmux shows it).
const QColor kOutsideGrid(0x30, 0x30, 0x30);

struct CellStyle {
    QColor fg;
    QColor bg;
    bool bold = false;
    bool italic = false;
    int underline = 0;
    bool strike = false;
    bool operator==(const CellStyle &) const = default;
};

} // namespace

void TerminalView::paintEvent(QPaintEvent *event) {
    QPainter painter(viewport());
    const QRect area = event->rect();
    painter.fillRect(area, m_emulation->reverseVideo() ? kDefaultForeground : kDefaultBackground);
    if (columns() < m_fitCols || rows() < m_fitRows) {
        const QRect grid(0, 0, int(std::ceil(columns() * m_cellWidth)), rows() * m_cellHeight);
        QRegion outside = QRegion(area) - QRegion(grid);
        for (const QRect &rect : outside)
            painter.fillRect(rect, kOutsideGrid);
    }
    const int first = std::max(0, area.top() / m_cellHeight);
    const int last = std::min(rows() - 1, area.bottom() / m_cellHeight);
    const int firstIndex = firstVisibleIndex();
    const int64_t dropped = m_emulation->droppedLines();
    // Worked out before any line is fetched: it reads history lines too, and a scrollback
    // line is a cache entry that another history read may reuse.
    const std::optional<TerminalRange> selection =
        m_selection.active ? std::optional(selectionRange(*m_emulation, m_selection))
                           : std::nullopt;
    for (int row = first; row <= last; ++row) {
        const int index = firstIndex + row;
        if (index < 0 || index >= m_emulation->totalLines())
            continue;
        paintLine(painter, m_emulation->historyLine(index), row, dropped + index, selection);
    }
    paintCursor(painter);
}

void TerminalView::paintLine(QPainter &painter, const TerminalLine &line, int viewRow,
                             int64_t absLine, const std::optional<TerminalRange> &selection) {
    const int cols = std::min(columns(), int(line.cells.size()));
    const int top = viewRow * m_cellHeight;
    const bool reverse = m_emulation->reverseVideo();
    const QColor defaultFg = reverse ? kDefaultBackground : kDefaultForeground;
    const QColor defaultBg = reverse ? kDefaultForeground : kDefaultBackground;
    std::vector<std::pair<int, int>> lineMatches; // [start, end) columns, current one last
    for (size_t i = 0; i < m_matches.size(); ++i)
        if (m_matches[i].line == absLine && int(i) != m_currentMatch)
            lineMatches.emplace_back(m_matches[i].col, m_matches[i].col + m_matches[i].length);
    const bool hasCurrent =
        m_currentMatch >= 0 && m_matches[size_t(m_currentMatch)].line == absLine;

    auto styleOf = [&](int col) {
        const TerminalCell &cell = line.cells[size_t(col)];
        CellStyle style;
        style.fg = ansiColor(cell.fg, defaultFg, cell.bold);
        style.bg = ansiColor(cell.bg, defaultBg);
        if (cell.inverse)
            std::swap(style.fg, style.bg);
        if (selection && selection->contains(absLine, col)) {
            style.bg = kSelectionBackground;
            style.fg = Qt::white;
        }
        for (const auto &[from, to] : lineMatches)
            if (col >= from && col < to) {
                style.bg = kMatchBackground;
                style.fg = Qt::black;
            }
        if (hasCurrent) {
            const TerminalMatch &m = m_matches[size_t(m_currentMatch)];
            if (col >= m.col && col < m.col + m.length) {
                style.bg = kCurrentMatchBackground;
                style.fg = Qt::black;
            }
        }
        style.bold = cell.bold;
        style.italic = cell.italic;
        style.underline = int(cell.underline);
        style.strike = cell.strike;
        return style;
    };

    int col = 0;
    CellStyle nextStyle = cols > 0 ? styleOf(0) : CellStyle{};
    while (col < cols) {
        const CellStyle style = nextStyle;
        int end = col + 1;
        // Each cell's style is worked out once: it either extends this run or starts the next.
        while (end < cols) {
            nextStyle = styleOf(end);
            if (!(nextStyle == style))
                break;
            ++end;
        }
        const qreal x0 = col * m_cellWidth;
        const qreal x1 = end * m_cellWidth;
        const QRectF runRect(x0, top, x1 - x0, m_cellHeight);
        if (style.bg != defaultBg)
            painter.fillRect(runRect, style.bg);
        painter.setPen(style.fg);
        const int fontIndex = (style.bold ? 1 : 0) + (style.italic ? 2 : 0);
        painter.setFont(style.bold ? (style.italic ? m_boldItalicFont : m_boldFont)
                                   : (style.italic ? m_italicFont : m_font));
        // Printable ASCII is drawn as a glyph run at cell positions: no text layout or shaping
        // per paint, and the grid stays exact. Anything else (and ASCII the font lacks) is
        // placed cell by cell with drawText so fallback fonts cannot shift the grid.
        const AsciiGlyphs &ascii = m_asciiGlyphs[size_t(fontIndex)];
        m_runGlyphs.clear();
        m_runPositions.clear();
        auto flush = [&] {
            if (m_runGlyphs.isEmpty())
                return;
            QGlyphRun glyphRun;
            glyphRun.setRawFont(ascii.rawFont);
            glyphRun.setGlyphIndexes(m_runGlyphs);
            glyphRun.setPositions(m_runPositions);
            painter.drawGlyphRun(QPointF(0, top + m_ascent), glyphRun);
            m_runGlyphs.clear();
            m_runPositions.clear();
        };
        for (int c = col; c < end; ++c) {
            const TerminalCell &cell = line.cells[size_t(c)];
            if (cell.continuation)
                continue;
            const char32_t ch = cell.ch;
            if (ch > 0x20 && ch < 0x7f && !cell.combined) {
                if (const quint32 glyph = ascii.glyphs[ch]) {
                    m_runGlyphs.append(glyph);
                    m_runPositions.append(QPointF(c * m_cellWidth, 0));
                    continue;
                }
            }
            if (ch == 0 || ch == U' ')
                continue;
            QString glyph;
            glyph.append(QChar::fromUcs4(ch));
            if (cell.combined)
                for (const auto &[at, marks] : line.combining)
                    if (at == c)
                        for (const char32_t mark : marks)
                            glyph.append(QChar::fromUcs4(mark));
            painter.drawText(QPointF(c * m_cellWidth, top + m_ascent), glyph);
        }
        flush();
        if (style.underline) {
            const qreal y = top + m_ascent + 2;
            painter.drawLine(QPointF(x0, y), QPointF(x1, y));
            if (style.underline == 2)
                painter.drawLine(QPointF(x0, y + 2), QPointF(x1, y + 2));
        }
        if (style.strike) {
            const qreal y = top + m_ascent * 0.65;
            painter.drawLine(QPointF(x0, y), QPointF(x1, y));
        }
        col = end;
    }
}

void TerminalView::paintCursor(QPainter &painter) {
    const TerminalCursor cursor = m_emulation->cursor();
    const int viewRow = cursor.row + m_scrollOffset;
    if (!cursor.visible || viewRow >= rows())
        return;
    const bool focused = hasFocus();
    if (focused && cursor.blink && !m_blinkOn)
        return;
    const TerminalCell cell = m_emulation->cell(cursor.row, cursor.col);
    const int width = cell.wide ? 2 : 1;
    const QRectF rect(cursor.col * m_cellWidth, viewRow * m_cellHeight, width * m_cellWidth,
                      m_cellHeight);
    const bool reverse = m_emulation->reverseVideo();
    QColor colour = ansiColor(cell.fg, reverse ? kDefaultBackground : kDefaultForeground);
    if (cell.inverse)
        colour = ansiColor(cell.bg, reverse ? kDefaultForeground : kDefaultBackground);
    if (!focused) {
        painter.setPen(colour);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
        return;
    }
    switch (cursor.shape) {
    case TerminalCursorShape::Underline:
        painter.fillRect(QRectF(rect.left(), rect.bottom() - 2, rect.width(), 2), colour);
        return;
    case TerminalCursorShape::Bar:
        painter.fillRect(QRectF(rect.left(), rect.top(), 2, rect.height()), colour);
        return;
    case TerminalCursorShape::Block:
        break;
    }
    painter.fillRect(rect, colour);
    if (cell.ch > 0x20) {
        painter.setPen(ansiColor(cell.bg, reverse ? kDefaultForeground : kDefaultBackground));
        painter.setFont(cell.bold ? m_boldFont : m_font);
        painter.drawText(QPointF(rect.left(), rect.top() + m_ascent),
                         m_emulation->cellText(cursor.row, cursor.col));
    }
}

} // namespace sbx
