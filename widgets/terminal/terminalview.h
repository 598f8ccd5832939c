#pragma once

#include "models/terminal/terminalcolorscheme.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalselection.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QFont>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QRawFont>
#include <QTimer>

#include <array>
#include <optional>
#include <vector>

class QPainter;

namespace sbx {

class TerminalFindBar;
class UserPrompts;
struct TerminalLine;

// Glyph indexes of printable ASCII in one of the view's fonts: runs of it are drawn as glyph
// runs at cell positions, with no text layout or shaping per paint. 0: not in the font.
struct AsciiGlyphs {
    QRawFont rawFont;
    std::array<quint32, 128> glyphs{};
};

// A glyph of a cell that is not printable ASCII (CJK, an emoji, a letter with its marks):
// shaped once, with font fallback, then drawn in glyph runs like ASCII.
struct CellGlyph {
    QRawFont font;
    quint32 index = 0;
    QPointF offset; // from the cell's left end on the baseline
};

// The terminal widget: paints an emulation it does not own, turns keys, mouse, clipboard and
// resizes into bytes and sizes for the PTY. Repaints only damaged rows, at most once per frame.
class TerminalView : public QAbstractScrollArea {
    Q_OBJECT
public:
    // The emulation (a TerminalSession's, or a standalone one) must outlive the view.
    explicit TerminalView(TerminalEmulation *emulation, QWidget *parent = nullptr);
    ~TerminalView() override;

    TerminalEmulation *emulation() const { return m_emulation; }
    void feed(const QByteArray &utf8Bytes);
    // The emulation's grid, which the view shows.
    int columns() const;
    int rows() const;
    // The grid the viewport holds: what the view asks for in terminalSizeChanged.
    int fitColumns() const { return m_fitCols; }
    int fitRows() const { return m_fitRows; }
    // By default the view sizes its emulation to its own grid. A view of a shared emulation
    // only reports its grid: the session sizes the emulation for all of its views.
    void setSizesEmulation(bool sizes) { m_sizesEmulation = sizes; }
    void setScrollbackLines(int lines);

    // Colours and font, as the preferences choose them; both apply at once. The font's size is
    // what resetZoom() returns to; setting the font the view already has keeps its zoom.
    void setColorScheme(const TerminalColorScheme &scheme);
    const TerminalColorScheme &colorScheme() const { return m_scheme; }
    // Text at the cursor that the screen does not hold: keys waiting to be sent (dim) or
    // characters predicted before the server's echo (dim and underlined, as mosh shows them).
    struct CursorOverlay {
        QString text; // printable; a line break shows as ↵
        bool underline = false;
        bool operator==(const CursorOverlay &) const = default;
    };
    void setCursorOverlay(const CursorOverlay &overlay);
    const CursorOverlay &cursorOverlay() const { return m_overlay; }
    void setTerminalFont(const QFont &font);
    QFont terminalFont() const { return m_font; }
    // The font a view starts with: DejaVu Sans Mono, else the system's fixed font.
    static QFont defaultFont();
    // The default font in another family (empty: the default's) or size (0: the default's).
    static QFont fontFor(const QString &family, int pointSize);

    void zoomIn();
    void zoomOut();
    void resetZoom();
    QSizeF cellSize() const { return {m_cellWidth, qreal(m_cellHeight)}; }

    QString selectedText() const;
    void clearSelection();
    void copyToClipboard();
    void pasteFromClipboard();
    // Sends text as a paste: bracketed when the program asked for it, otherwise after
    // confirmMultiLinePaste() agreed for text of several lines.
    void pasteText(const QString &text);

    void openFindBar();
    void findText(const QString &text);
    void findNext();
    void findPrevious();
    const std::vector<TerminalMatch> &findMatches() const { return m_matches; }
    int currentFindMatch() const { return m_currentMatch; }

    // Lines scrolled back from the bottom (0: following the output).
    int scrollOffset() const { return m_scrollOffset; }
    void scrollLines(int delta); // positive scrolls back into history

    // Where the multi-line paste question goes; null: the dialogs.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

Q_SIGNALS:
    // What the user's keys, pastes and mouse produce. The emulation's own answers to the
    // program's queries go out through whoever feeds it, once however many views it has.
    void sendData(const QByteArray &bytes);
    // The grid the viewport holds, once a resize settled.
    void terminalSizeChanged(int cols, int rows);
    void titleChanged(const QString &title);
    void bell();

protected:
    bool event(QEvent *event) override;
    bool focusNextPrevChild(bool next) override;
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void applyFont(const QFont &font);
    void updateGrid();
    // Emits terminalSizeChanged when the grid differs from the last size reported.
    void reportSize();
    void onScreenChanged();
    void flushUpdates();
    void syncScrollBar();
    void requestFullUpdate();
    bool handleViewKey(QKeyEvent *event);
    bool mouseReporting(const QMouseEvent *event) const;
    TerminalPoint pointAt(const QPointF &pos) const;
    int firstVisibleIndex() const;
    QRect rowRect(int viewRow) const;
    void paintLine(QPainter &painter, const TerminalLine &line, int viewRow, int64_t absLine,
                   const std::optional<TerminalRange> &selection);
    void paintCursor(QPainter &painter);
    void paintOverlay(QPainter &painter);
    struct GlyphBatch {
        QRawFont font;
        QList<quint32> glyphs;
        QList<QPointF> positions;
        void add(quint32 glyph, QPointF at) {
            glyphs.append(glyph);
            positions.append(at);
        }
    };
    GlyphBatch &batchFor(const QRawFont &font);
    QList<CellGlyph> shape(int fontIndex, const QString &text) const;
    const QList<CellGlyph> &charGlyphs(int fontIndex, char32_t ch);
    const QList<CellGlyph> &clusterGlyphs(int fontIndex, const TerminalLine &line, int col);
    void showMatch();

    TerminalEmulation *m_emulation;
    TerminalDamageMark m_damage;
    bool m_sizesEmulation = true;
    int m_fitCols;
    int m_fitRows;
    TerminalFindBar *m_findBar = nullptr;
    UserPrompts *m_prompts = nullptr;
    TerminalColorScheme m_scheme = terminalColorScheme(QString());
    QFont m_font;
    QFont m_boldFont;
    QFont m_italicFont;
    QFont m_boldItalicFont;
    std::array<AsciiGlyphs, 4> m_asciiGlyphs; // regular, bold, italic, bold italic
    QList<quint32> m_runGlyphs;               // reused by every run painted
    QList<QPointF> m_runPositions;
    static constexpr qsizetype kGlyphCacheSize = 4096;
    std::array<QHash<char32_t, QList<CellGlyph>>, 4> m_charGlyphs; // by font, as m_asciiGlyphs
    std::array<QHash<QString, QList<CellGlyph>>, 4> m_clusterGlyphs;
    std::vector<GlyphBatch> m_batches; // one per fallback font, reused
    qreal m_baseFontSize = 10;
    qreal m_cellWidth = 8;
    int m_cellHeight = 16;
    int m_ascent = 12;

    int m_scrollOffset = 0;
    bool m_updatingScrollBar = false;
    QTimer m_frameTimer;
    QElapsedTimer m_sinceFlush;
    bool m_fullUpdatePending = false;
    QTimer m_resizeTimer;
    bool m_shown = false; // shown at least once: the viewport has its laid-out size
    int m_reportedCols = -1;
    int m_reportedRows = -1;
    QTimer m_blinkTimer;
    bool m_blinkOn = true;

    TerminalSelection m_selection;
    bool m_selecting = false;
    QElapsedTimer m_sinceDoubleClick;
    int m_mouseButtonsReported = 0;

    CursorOverlay m_overlay;
    std::vector<TerminalMatch> m_matches;
    int m_currentMatch = -1;
};

} // namespace sbx
