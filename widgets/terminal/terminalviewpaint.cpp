// TerminalView: painting cells, selection, find matches and the cursor.
#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalview.h"

#include <QGlyphRun>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace sbx {

namespace {

const QColor kSelectionBackground(0x3a, 0x5f, 0x9f);
const QColor kMatchBackground(0xb8, 0x9b, 0x2a);
const QColor kCurrentMatchBackground(0xf0, 0x8c, 0x1a);

struct CellStyle {
    QColor fg;
    QColor bg;
    QColor underlineColor;
    bool bold = false;
    bool italic = false;
    int underline = 0; // a TerminalUnderline
    bool strike = false;
    bool conceal = false;
    bool operator==(const CellStyle &) const = default;
};

QColor mixed(const QColor &a, const QColor &b) {
    return QColor((a.red() + b.red()) / 2, (a.green() + b.green()) / 2, (a.blue() + b.blue()) / 2);
}

// Beyond the grid when another, smaller view of the session sets its size (as tmux shows it):
// a shade off the background, whichever way reads on it.
QColor outsideGrid(const QColor &background) {
    return background.lightness() < 128 ? background.lighter(170) : background.darker(115);
}

// SGR 4:1 to 4:5 from x0 to x1, y at the top of the underline's room below the baseline.
void drawUnderline(QPainter &painter, int style, const QColor &colour, qreal x0, qreal x1,
                   qreal y) {
    QPen pen(colour);
    pen.setWidthF(1);
    pen.setCapStyle(Qt::FlatCap);
    switch (TerminalUnderline(style)) {
    case TerminalUnderline::None:
        return;
    case TerminalUnderline::Single:
        break;
    case TerminalUnderline::Double:
        painter.setPen(pen);
        painter.drawLine(QPointF(x0, y + 2.5), QPointF(x1, y + 2.5));
        break;
    case TerminalUnderline::Curly: {
        // A wave of period six pixels between y and y + 3, smoothed: a curve of one pixel
        // without antialiasing shows as dots.
        QPainterPath path(QPointF(x0, y + 1.5));
        for (qreal x = x0; x < x1; x += 6) {
            path.quadTo(QPointF(x + 1.5, y - 1.5), QPointF(x + 3, y + 1.5));
            path.quadTo(QPointF(x + 4.5, y + 4.5), QPointF(x + 6, y + 1.5));
        }
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setClipRect(QRectF(x0, y - 1, x1 - x0, 6), Qt::IntersectClip);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        painter.restore();
        return;
    }
    case TerminalUnderline::Dotted:
        pen.setStyle(Qt::DotLine);
        break;
    case TerminalUnderline::Dashed:
        pen.setStyle(Qt::DashLine);
        break;
    }
    painter.setPen(pen);
    painter.drawLine(QPointF(x0, y + 0.5), QPointF(x1, y + 0.5));
}

} // namespace

void TerminalView::paintEvent(QPaintEvent *event) {
    QPainter painter(viewport());
    const QRect area = event->rect();
    const QColor background =
        m_emulation->reverseVideo() ? m_scheme.foregroundColor() : m_scheme.backgroundColor();
    painter.fillRect(area, background);
    if (columns() < m_fitCols || rows() < m_fitRows) {
        const QRect grid(0, 0, int(std::ceil(columns() * m_cellWidth)), rows() * m_cellHeight);
        QRegion outside = QRegion(area) - QRegion(grid);
        for (const QRect &rect : outside)
            painter.fillRect(rect, outsideGrid(background));
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
    paintOverlay(painter);
    paintCursor(painter);
}

void TerminalView::setCursorOverlay(const CursorOverlay &overlay) {
    if (overlay == m_overlay)
        return;
    m_overlay = overlay;
    viewport()->update();
}

void TerminalView::paintOverlay(QPainter &painter) {
    if (m_overlay.text.isEmpty())
        return;
    const TerminalCursor cursor = m_emulation->cursor();
    const bool reverse = m_emulation->reverseVideo();
    const QColor fg = reverse ? m_scheme.backgroundColor() : m_scheme.foregroundColor();
    const QColor bg = reverse ? m_scheme.foregroundColor() : m_scheme.backgroundColor();
    const QColor dim = mixed(fg, bg);
    int row = cursor.row + m_scrollOffset;
    int col = cursor.col;
    painter.setPen(dim);
    for (const char32_t ch : m_overlay.text.toUcs4()) {
        if (col >= columns()) {
            col = 0;
            ++row;
        }
        if (row < 0 || row >= rows())
            break;
        const QRectF cellRect(col * m_cellWidth, row * m_cellHeight, m_cellWidth, m_cellHeight);
        painter.fillRect(cellRect, bg);
        for (const CellGlyph &glyph : charGlyphs(0, ch)) {
            QGlyphRun run;
            run.setRawFont(glyph.font);
            run.setGlyphIndexes({glyph.index});
            run.setPositions({glyph.offset});
            painter.drawGlyphRun(QPointF(cellRect.left(), cellRect.top() + m_ascent), run);
        }
        if (m_overlay.underline)
            drawUnderline(painter, int(TerminalUnderline::Single), dim, cellRect.left(),
                          cellRect.right(),
                          cellRect.top() + std::min(m_ascent + 1, m_cellHeight - 4));
        painter.setPen(dim);
        ++col;
    }
}

void TerminalView::paintLine(QPainter &painter, const TerminalLine &line, int viewRow,
                             int64_t absLine, const std::optional<TerminalRange> &selection) {
    const int cols = std::min(columns(), int(line.cells.size()));
    const int top = viewRow * m_cellHeight;
    const bool reverse = m_emulation->reverseVideo();
    const QColor defaultFg = reverse ? m_scheme.backgroundColor() : m_scheme.foregroundColor();
    const QColor defaultBg = reverse ? m_scheme.foregroundColor() : m_scheme.backgroundColor();
    std::vector<std::pair<int, int>> lineMatches; // [start, end) columns, current one last
    for (size_t i = 0; i < m_matches.size(); ++i)
        if (m_matches[i].line == absLine && int(i) != m_currentMatch)
            lineMatches.emplace_back(m_matches[i].col, m_matches[i].col + m_matches[i].length);
    const bool hasCurrent =
        m_currentMatch >= 0 && m_matches[size_t(m_currentMatch)].line == absLine;

    auto styleOf = [&](int col) {
        const TerminalCell &cell = line.cells[size_t(col)];
        CellStyle style;
        style.fg = m_scheme.color(cell.fg, defaultFg, cell.bold);
        style.bg = m_scheme.color(cell.bg, defaultBg);
        if (cell.inverse)
            std::swap(style.fg, style.bg);
        if (cell.faint)
            style.fg = mixed(style.fg, style.bg);
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
        if (style.underline)
            style.underlineColor = m_scheme.color(cell.underlineColor, style.fg);
        style.strike = cell.strike;
        style.conceal = cell.conceal;
        return style;
    };

    // Without a selection or a match on the line, a run is cells of one raw style, and its
    // colours are worked out once; otherwise cell by cell.
    const bool plainLine = !selection && lineMatches.empty() && !hasCurrent;
    int col = 0;
    CellStyle nextStyle = cols > 0 ? styleOf(0) : CellStyle{};
    while (col < cols) {
        const CellStyle style = nextStyle;
        int end = col + 1;
        if (plainLine) {
            const TerminalCell &first = line.cells[size_t(col)];
            while (end < cols && sameStyle(line.cells[size_t(end)], first))
                ++end;
            if (end < cols)
                nextStyle = styleOf(end);
        } else {
            // Each cell's style is worked out once: it extends this run or starts the next.
            while (end < cols) {
                nextStyle = styleOf(end);
                if (!(nextStyle == style))
                    break;
                ++end;
            }
        }
        const qreal x0 = col * m_cellWidth;
        const qreal x1 = end * m_cellWidth;
        const QRectF runRect(x0, top, x1 - x0, m_cellHeight);
        if (style.bg != defaultBg)
            painter.fillRect(runRect, style.bg);
        if (style.conceal) {
            col = end; // SGR 8: the cells keep their background and show nothing else
            continue;
        }
        painter.setPen(style.fg);
        const int fontIndex = (style.bold ? 1 : 0) + (style.italic ? 2 : 0);
        // Everything is drawn as glyph runs at cell positions: no text layout or shaping per
        // paint, and the grid stays exact. Printable ASCII comes from a table; anything else
        // (and ASCII the font lacks) was shaped once, with font fallback, into a cache.
        const AsciiGlyphs &ascii = m_asciiGlyphs[size_t(fontIndex)];
        m_runGlyphs.clear();
        m_runPositions.clear();
        for (GlyphBatch &batch : m_batches) {
            batch.glyphs.clear();
            batch.positions.clear();
        }
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
            if ((ch == 0 || ch == U' ') && !cell.combined)
                continue;
            const QList<CellGlyph> &glyphs = cell.combined ? clusterGlyphs(fontIndex, line, c)
                                                           : charGlyphs(fontIndex, char32_t(ch));
            for (const CellGlyph &glyph : glyphs)
                batchFor(glyph.font).add(glyph.index, glyph.offset + QPointF(c * m_cellWidth, 0));
        }
        const QPointF baseline(0, top + m_ascent);
        if (!m_runGlyphs.isEmpty()) {
            QGlyphRun glyphRun;
            glyphRun.setRawFont(ascii.rawFont);
            glyphRun.setGlyphIndexes(m_runGlyphs);
            glyphRun.setPositions(m_runPositions);
            painter.drawGlyphRun(baseline, glyphRun);
        }
        for (const GlyphBatch &batch : m_batches) {
            if (batch.glyphs.isEmpty())
                continue;
            QGlyphRun glyphRun;
            glyphRun.setRawFont(batch.font);
            glyphRun.setGlyphIndexes(batch.glyphs);
            glyphRun.setPositions(batch.positions);
            painter.drawGlyphRun(baseline, glyphRun);
        }
        if (style.underline)
            drawUnderline(painter, style.underline, style.underlineColor, x0, x1,
                          top + std::min(m_ascent + 1, m_cellHeight - 4));
        if (style.strike) {
            const qreal y = top + m_ascent * 0.65;
            painter.setPen(style.fg);
            painter.drawLine(QPointF(x0, y), QPointF(x1, y));
        }
        col = end;
    }
}

TerminalView::GlyphBatch &TerminalView::batchFor(const QRawFont &font) {
    for (GlyphBatch &batch : m_batches)
        if (batch.font == font)
            return batch;
    m_batches.push_back({font, {}, {}});
    return m_batches.back();
}

QList<CellGlyph> TerminalView::shape(int fontIndex, const QString &text) const {
    const QFont *fonts[] = {&m_font, &m_boldFont, &m_italicFont, &m_boldItalicFont};
    QTextLayout layout(text, *fonts[fontIndex]);
    layout.beginLayout();
    QTextLine textLine = layout.createLine();
    layout.endLayout();
    QList<CellGlyph> glyphs;
    if (!textLine.isValid())
        return glyphs;
    // Positions come on the line's baseline, at its ascent: kept relative to the baseline.
    const QPointF baseline(0, textLine.ascent());
    for (const QGlyphRun &run : textLine.glyphRuns()) {
        const QList<quint32> indexes = run.glyphIndexes();
        const QList<QPointF> positions = run.positions();
        for (qsizetype i = 0; i < indexes.size() && i < positions.size(); ++i)
            glyphs.append({run.rawFont(), indexes.at(i), positions.at(i) - baseline});
    }
    return glyphs;
}

const QList<CellGlyph> &TerminalView::charGlyphs(int fontIndex, char32_t ch) {
    auto &cache = m_charGlyphs[size_t(fontIndex)];
    auto it = cache.find(ch);
    if (it != cache.end())
        return it.value();
    if (cache.size() >= kGlyphCacheSize)
        cache.clear(); // bounded: a stream of every code point there is must not grow it
    return cache.insert(ch, shape(fontIndex, QString::fromUcs4(&ch, 1))).value();
}

const QList<CellGlyph> &TerminalView::clusterGlyphs(int fontIndex, const TerminalLine &line,
                                                    int col) {
    const char32_t base =
        line.cells[size_t(col)].ch == 0 ? U' ' : char32_t(line.cells[size_t(col)].ch);
    QString text = QString::fromUcs4(&base, 1);
    for (const auto &[at, marks] : line.combining)
        if (at == col)
            text += QString::fromUcs4(marks.data(), qsizetype(marks.size()));
    auto &cache = m_clusterGlyphs[size_t(fontIndex)];
    auto it = cache.find(text);
    if (it != cache.end())
        return it.value();
    if (cache.size() >= kGlyphCacheSize)
        cache.clear();
    return cache.insert(text, shape(fontIndex, text)).value();
}

void TerminalView::paintCursor(QPainter &painter) {
    TerminalCursor cursor = m_emulation->cursor();
    if (!m_overlay.text.isEmpty() && columns() > 0) {
        // After the overlay, where the text will have put it, not over its first character.
        const int at = cursor.col + int(m_overlay.text.toUcs4().size());
        cursor.row += at / columns();
        cursor.col = at % columns();
        if (cursor.row >= m_emulation->rows())
            return;
    }
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
    const QColor defaultFg = reverse ? m_scheme.backgroundColor() : m_scheme.foregroundColor();
    const QColor defaultBg = reverse ? m_scheme.foregroundColor() : m_scheme.backgroundColor();
    // On a cell of default colours the cursor has the scheme's colour; on a coloured one it
    // takes the text's colour, as xterm does.
    const uint32_t text = cell.inverse ? cell.bg : cell.fg;
    const QColor colour = text == TerminalColor::kDefault && !reverse && !cell.inverse
                              ? m_scheme.cursorColor()
                              : m_scheme.color(text, cell.inverse ? defaultBg : defaultFg,
                                               cell.bold && !cell.inverse);
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
        painter.setPen(cell.inverse ? m_scheme.color(cell.fg, defaultFg, cell.bold)
                                    : m_scheme.color(cell.bg, defaultBg));
        painter.setFont(cell.bold ? m_boldFont : m_font);
        painter.drawText(QPointF(rect.left(), rect.top() + m_ascent),
                         m_emulation->cellText(cursor.row, cursor.col));
    }
}

} // namespace sbx
