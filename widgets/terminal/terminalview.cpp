#include "widgets/terminal/terminalview.h"

#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalfindbar.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QResizeEvent>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
constexpr int kFrameMs = 16;        // updates inside one frame are coalesced
constexpr int kResizeSettleMs = 60; // a dragged window edge reports its size once it rests
constexpr int kBlinkMs = 530;
} // namespace

TerminalView::TerminalView(TerminalEmulation *emulation, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_emulation(emulation)
    , m_fitCols(emulation->columns())
    , m_fitRows(emulation->rows()) {
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled, true);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->setMouseTracking(true);

    const QFont font = defaultFont();
    m_baseFontSize = font.pointSizeF();
    applyFont(font);

    m_frameTimer.setSingleShot(true);
    connect(&m_frameTimer, &QTimer::timeout, this, &TerminalView::flushUpdates);
    m_resizeTimer.setSingleShot(true);
    m_resizeTimer.setInterval(kResizeSettleMs);
    connect(&m_resizeTimer, &QTimer::timeout, this, &TerminalView::reportSize);
    m_blinkTimer.setInterval(kBlinkMs);
    connect(&m_blinkTimer, &QTimer::timeout, this, [this] {
        m_blinkOn = !m_blinkOn;
        const TerminalCursor cursor = m_emulation->cursor();
        viewport()->update(rowRect(cursor.row + m_scrollOffset));
    });
    m_sinceFlush.start();
    m_sinceDoubleClick.invalidate();

    connect(m_emulation, &TerminalEmulation::screenChanged, this, &TerminalView::onScreenChanged);
    connect(m_emulation, &TerminalEmulation::titleChanged, this, &TerminalView::titleChanged);
    connect(m_emulation, &TerminalEmulation::bell, this, &TerminalView::bell);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (m_updatingScrollBar)
            return;
        m_scrollOffset = verticalScrollBar()->maximum() - value;
        requestFullUpdate();
    });
}

TerminalView::~TerminalView() = default;

void TerminalView::feed(const QByteArray &utf8Bytes) {
    m_emulation->feed(utf8Bytes);
}

int TerminalView::columns() const {
    return m_emulation->columns();
}

int TerminalView::rows() const {
    return m_emulation->rows();
}

void TerminalView::setScrollbackLines(int lines) {
    m_emulation->setScrollbackLimit(lines);
    m_scrollOffset = std::min(m_scrollOffset, m_emulation->scrollbackCount());
}

QFont TerminalView::defaultFont() {
    QFont font(u"DejaVu Sans Mono"_s);
    const QFont system = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (!QFontInfo(font).fixedPitch())
        font = system;
    font.setPointSizeF(system.pointSizeF() > 0 ? system.pointSizeF() : 10);
    return font;
}

QFont TerminalView::fontFor(const QString &family, int pointSize) {
    QFont font = defaultFont();
    if (!family.isEmpty())
        font.setFamilies({family});
    if (pointSize > 0)
        font.setPointSizeF(pointSize);
    return font;
}

void TerminalView::setColorScheme(const TerminalColorScheme &scheme) {
    m_scheme = scheme;
    requestFullUpdate();
}

void TerminalView::setTerminalFont(const QFont &font) {
    // Preferences are applied whole whenever any of them changes: the same font again must
    // not undo a zoom.
    if (font.families() == m_font.families() && font.pointSizeF() == m_baseFontSize)
        return;
    if (font.pointSizeF() > 0)
        m_baseFontSize = font.pointSizeF();
    applyFont(font);
}

void TerminalView::applyFont(const QFont &font) {
    m_font = font;
    m_font.setStyleHint(QFont::TypeWriter);
    m_font.setKerning(false);
    m_boldFont = m_font;
    m_boldFont.setBold(true);
    m_italicFont = m_font;
    m_italicFont.setItalic(true);
    m_boldItalicFont = m_boldFont;
    m_boldItalicFont.setItalic(true);
    const QFont *fonts[] = {&m_font, &m_boldFont, &m_italicFont, &m_boldItalicFont};
    for (size_t i = 0; i < m_asciiGlyphs.size(); ++i) {
        AsciiGlyphs &ascii = m_asciiGlyphs[i];
        ascii.rawFont = QRawFont::fromFont(*fonts[i]);
        ascii.glyphs.fill(0);
        if (!ascii.rawFont.isValid())
            continue;
        QString printable;
        for (char c = 0x21; c < 0x7f; ++c)
            printable.append(QLatin1Char(c));
        const QList<quint32> indexes = ascii.rawFont.glyphIndexesForString(printable);
        for (qsizetype k = 0; k < indexes.size() && k < printable.size(); ++k)
            ascii.glyphs[size_t(0x21 + k)] = indexes.at(k);
    }
    for (auto &cache : m_charGlyphs)
        cache.clear();
    for (auto &cache : m_clusterGlyphs)
        cache.clear();
    m_batches.clear();
    const QFontMetricsF metrics(m_font);
    m_cellWidth = std::max<qreal>(1, metrics.horizontalAdvance(QLatin1Char('M')));
    m_cellHeight = std::max(1, int(std::ceil(metrics.height())));
    m_ascent = int(std::round(metrics.ascent()));
    verticalScrollBar()->setSingleStep(1);
    updateGrid();
}

void TerminalView::zoomIn() {
    QFont font = m_font;
    font.setPointSizeF(std::min<qreal>(m_font.pointSizeF() + 1, 72));
    applyFont(font);
}

void TerminalView::zoomOut() {
    QFont font = m_font;
    font.setPointSizeF(std::max<qreal>(m_font.pointSizeF() - 1, 4));
    applyFont(font);
}

void TerminalView::resetZoom() {
    QFont font = m_font;
    font.setPointSizeF(m_baseFontSize);
    applyFont(font);
}

void TerminalView::updateGrid() {
    // Until the view is first shown its size is Qt's placeholder, not its layout's: the grid
    // stays at the PTY's default 80x24 rather than telling the shell a width of a dozen columns.
    if (m_shown) {
        const QSize area = viewport()->size();
        const int cols = std::max(2, int(area.width() / m_cellWidth));
        const int rowCount = std::max(1, area.height() / m_cellHeight);
        const bool emulationDiffers = cols != columns() || rowCount != rows();
        if (cols != m_fitCols || rowCount != m_fitRows || (m_sizesEmulation && emulationDiffers)) {
            m_fitCols = cols;
            m_fitRows = rowCount;
            if (m_sizesEmulation)
                m_emulation->resize(cols, rowCount);
            if (isVisible())
                m_resizeTimer.start();
        }
    }
    requestFullUpdate();
}

void TerminalView::reportSize() {
    m_resizeTimer.stop();
    const int cols = m_fitCols;
    const int rowCount = m_fitRows;
    if (cols == m_reportedCols && rowCount == m_reportedRows)
        return;
    m_reportedCols = cols;
    m_reportedRows = rowCount;
    Q_EMIT terminalSizeChanged(cols, rowCount);
}

void TerminalView::resizeEvent(QResizeEvent *event) {
    QAbstractScrollArea::resizeEvent(event);
    updateGrid();
    if (m_findBar) {
        m_findBar->adjustSize();
        m_findBar->move(viewport()->width() - m_findBar->width() - 4, 4);
    }
}

void TerminalView::showEvent(QShowEvent *event) {
    QAbstractScrollArea::showEvent(event);
    m_shown = true;
    updateGrid();
    // The first size, or one taken while hidden, goes out at once, not once a drag would have
    // settled: until the PTY has it, the shell draws for another width, and its redraw on the
    // size change (readline moving up over a prompt it wrapped) erases lines of this screen.
    reportSize();
}

void TerminalView::onScreenChanged() {
    // New output follows the bottom, as every terminal does.
    if (m_scrollOffset != 0) {
        m_scrollOffset = 0;
        m_fullUpdatePending = true;
    }
    if (m_frameTimer.isActive())
        return;
    // The first change after a quiet moment goes out at once so typing echoes without delay;
    // later ones wait for the frame to end. Either way the paint itself happens in the event
    // loop, never inside feed().
    const qint64 since = m_sinceFlush.elapsed();
    if (since >= kFrameMs)
        flushUpdates();
    else
        m_frameTimer.start(int(kFrameMs - since));
}

void TerminalView::requestFullUpdate() {
    m_fullUpdatePending = true;
    if (!m_frameTimer.isActive())
        flushUpdates();
}

void TerminalView::flushUpdates() {
    m_sinceFlush.restart();
    const TerminalDamage damage = m_emulation->takeDamage(m_damage);
    syncScrollBar();
    const bool blink = hasFocus() && m_emulation->cursor().blink;
    if (blink != m_blinkTimer.isActive()) {
        m_blinkOn = true;
        if (blink)
            m_blinkTimer.start();
        else
            m_blinkTimer.stop();
    }
    if (damage.full || m_fullUpdatePending || m_scrollOffset != 0) {
        m_fullUpdatePending = false;
        viewport()->update();
        return;
    }
    QRegion region;
    for (size_t row = 0; row < damage.rows.size(); ++row)
        if (damage.rows[row])
            region += rowRect(int(row));
    if (!region.isEmpty())
        viewport()->update(region);
}

void TerminalView::syncScrollBar() {
    QScrollBar *bar = verticalScrollBar();
    const int history = m_emulation->scrollbackCount();
    m_scrollOffset = std::clamp(m_scrollOffset, 0, history);
    m_updatingScrollBar = true;
    bar->setRange(0, history);
    bar->setPageStep(rows());
    bar->setValue(history - m_scrollOffset);
    m_updatingScrollBar = false;
}

void TerminalView::scrollLines(int delta) {
    const int offset = std::clamp(m_scrollOffset + delta, 0, m_emulation->scrollbackCount());
    if (offset == m_scrollOffset)
        return;
    m_scrollOffset = offset;
    syncScrollBar();
    requestFullUpdate();
}

void TerminalView::scrollContentsBy(int, int) {
    // The scroll bar drives m_scrollOffset (see the valueChanged connection); nothing moves.
}

int TerminalView::firstVisibleIndex() const {
    return m_emulation->scrollbackCount() - m_scrollOffset;
}

QRect TerminalView::rowRect(int viewRow) const {
    return {0, viewRow * m_cellHeight, viewport()->width(), m_cellHeight};
}

TerminalPoint TerminalView::pointAt(const QPointF &pos) const {
    const int row = std::clamp(int(pos.y() / m_cellHeight), 0, rows() - 1);
    const int col = std::clamp(int(pos.x() / m_cellWidth), 0, columns() - 1);
    return {m_emulation->droppedLines() + firstVisibleIndex() + row, col};
}

QString TerminalView::selectedText() const {
    if (!m_selection.active)
        return {};
    return selectionText(*m_emulation, selectionRange(*m_emulation, m_selection));
}

void TerminalView::clearSelection() {
    if (!m_selection.active)
        return;
    m_selection.active = false;
    requestFullUpdate();
}

void TerminalView::openFindBar() {
    if (!m_findBar) {
        m_findBar = new TerminalFindBar(this);
        connect(m_findBar, &TerminalFindBar::textChanged, this, &TerminalView::findText);
        connect(m_findBar, &TerminalFindBar::findNext, this, &TerminalView::findNext);
        connect(m_findBar, &TerminalFindBar::findPrevious, this, &TerminalView::findPrevious);
        connect(m_findBar, &TerminalFindBar::closed, this, [this] {
            m_matches.clear();
            m_currentMatch = -1;
            requestFullUpdate();
            setFocus(Qt::OtherFocusReason);
        });
    }
    m_findBar->adjustSize();
    m_findBar->move(viewport()->width() - m_findBar->width() - 4, 4);
    m_findBar->activate();
    if (!m_findBar->text().isEmpty())
        findText(m_findBar->text());
}

void TerminalView::findText(const QString &text) {
    m_matches = findInHistory(*m_emulation, text);
    // Start from the newest match: what scrolled by last is what people look for.
    m_currentMatch = m_matches.empty() ? -1 : int(m_matches.size()) - 1;
    showMatch();
}

void TerminalView::findNext() {
    if (m_matches.empty())
        return;
    m_currentMatch = m_currentMatch <= 0 ? int(m_matches.size()) - 1 : m_currentMatch - 1;
    showMatch();
}

void TerminalView::findPrevious() {
    if (m_matches.empty())
        return;
    m_currentMatch = (m_currentMatch + 1) % int(m_matches.size());
    showMatch();
}

void TerminalView::showMatch() {
    if (m_findBar)
        m_findBar->setStatus(m_currentMatch, int(m_matches.size()));
    if (m_currentMatch >= 0) {
        const TerminalMatch &match = m_matches[size_t(m_currentMatch)];
        const int index = int(match.line - m_emulation->droppedLines());
        const int first = firstVisibleIndex();
        if (index < first || index >= first + rows()) {
            // Centre the match when it has to come into view.
            const int wantedFirst = std::max(0, index - rows() / 2);
            m_scrollOffset = std::clamp(m_emulation->scrollbackCount() - wantedFirst, 0,
                                        m_emulation->scrollbackCount());
            syncScrollBar();
        }
    }
    requestFullUpdate();
}

} // namespace sbx
