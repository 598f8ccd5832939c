#pragma once

#include "models/terminal/linering.h"
#include "models/terminal/terminalcell.h"
#include "models/terminal/vtparser.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace sbx {

enum class TerminalCursorShape { Block, Underline, Bar };
enum class TerminalMouseMode { None, Click, Drag, Move };

struct TerminalCursor {
    int row = 0;
    int col = 0;
    bool visible = true;
    bool blink = true;
    TerminalCursorShape shape = TerminalCursorShape::Block;
};

// Visible rows changed since the last takeDamage(); `full` after scrolls, resizes and buffer
// switches, when every row must be repainted.
struct TerminalDamage {
    bool full = false;
    std::vector<uint8_t> rows;
};

// How far one reader of the damage has taken it: every view of a shared emulation keeps its
// own, so one view's repaint never takes the damage another still has to paint. A new mark
// sees the whole screen as damaged.
struct TerminalDamageMark {
    uint64_t seen = 0;
};

// What the keyboard and mouse encoders must know of the modes the program set.
struct TerminalInputModes {
    bool cursorKeys = false; // DECCKM
    bool keypad = false;     // DECKPAM
    bool bracketedPaste = false;
    bool focusEvents = false;
    int mouseTracking = 0; // the DECSET that is on: 9, 1000, 1002 or 1003; 0 for none
    int mouseEncoding = 0; // 1005, 1006 or 1015; 0 for X10's bytes
    bool operator==(const TerminalInputModes &) const = default;
};

// The terminal's state machine behind the parser (xterm's, where libvterm 0.1.4 departed
// from it): cursor, pen, modes, margins, tab stops, character sets, the two screens with
// their saved cursors, and the damage of the visible rows. Printable runs are written
// straight into the LineRing's cells.
class TerminalState final : public VtHandler {
public:
    TerminalState(int cols, int rows, int scrollbackLimit);

    void printAscii(const char *text, size_t length) override;
    void print(const char32_t *text, size_t length) override;
    void execute(uint32_t control) override;
    void escDispatch(const VtSequence &sequence) override;
    void csiDispatch(const VtSequence &sequence) override;
    void oscDispatch(std::string_view payload) override;
    void dcsDispatch(const VtSequence &sequence, std::string_view payload) override;

    // RIS: modes, screens and the scrollback as new; the title stays.
    void hardReset();
    void resize(int cols, int rows);
    void setScrollbackLimit(int lines);

    int columns() const { return m_cols; }
    int rows() const { return m_rows; }
    const LineRing &screen() const { return *m_screen; }
    bool altScreen() const { return m_alt; }
    bool reverseVideo() const { return m_reverseVideo; }
    int scrollbackLimit() const { return m_primary.scrollbackLimit(); }
    TerminalCursor cursor() const;
    const TerminalInputModes &inputModes() const { return m_input; }
    TerminalMouseMode mouseMode() const;
    QString title() const { return m_title; }
    // Where the shell is, from its prompt markers: sandbox-server's OSC 6973 (prompt;status,
    // start) or the common OSC 133 (A/B prompt, C command output, D done). Unknown without them.
    enum class ShellPhase : uint8_t { Unknown, Prompt, Running };
    ShellPhase shellPhase() const { return m_shellPhase; }

    // What happened since the emulation last asked: taken once.
    bool takeChanged() { return std::exchange(m_changed, false); }
    bool takeTitleChanged() { return std::exchange(m_titlePending, false); }
    int takeBells() { return std::exchange(m_bells, 0); }
    QByteArray takeAnswer() { return std::exchange(m_answer, QByteArray()); }
    TerminalDamage takeDamage(TerminalDamageMark &mark);
    void markAllDirty();

private:
    enum class Charset : uint8_t { Ascii, DecGraphics, British };
    // What DECSC saves and DECRC restores, one for each screen.
    struct SavedCursor {
        int row = 0;
        int col = 0;
        bool pendingWrap = false;
        bool originMode = false;
        TerminalCell pen;
        std::array<Charset, 4> charsets{};
        int gl = 0;
    };

    // Printing.
    void putChar(char32_t ch);
    void writeGlyph(TerminalLine &line, int col, char32_t ch, int width);
    void attachCombining(char32_t mark);
    void joinMark(TerminalLine &line, int col, char32_t mark);
    void wrapLine();
    char32_t translate(char32_t ch);
    bool plainAscii() const;

    // Cursor and lines.
    void markDirty(int row);
    void setCursor(int row, int col);
    void moveCursorRelative(int rows, int cols);
    void moveToRow(int row); // DECOM-aware absolute row, 0-based
    void carriageReturn();
    void lineFeed();
    void index();
    void reverseIndex();
    void scrollRegionUp(int top, int bottom, int count, bool toHistory);
    void scrollRegionDown(int top, int bottom, int count);
    void tab(int count);
    void backTab(int count);
    TerminalCell blankCell() const;
    void blankAt(TerminalLine &line, int col) const;
    void eraseCells(int row, int from, int to, bool selective);
    void eraseInDisplay(int mode, bool selective);
    void eraseInLine(int mode, bool selective);
    void insertCells(int count);
    void deleteCells(int count);
    void insertLines(int count);
    void deleteLines(int count);
    void repeatLast(int count);
    void alignmentTest();

    // Modes and saved state (terminalstatecontrols.cpp).
    void setMode(const VtSequence &sequence, bool on);
    void setPrivateMode(int mode, bool on);
    void switchScreen(bool alt, bool clear);
    void saveCursor();
    void restoreCursor();
    void softReset();
    void designate(char intermediate, char final);
    void selectGraphicRendition(const VtSequence &sequence);
    int extendedColour(const VtSequence &sequence, int i, uint32_t *colour) const;
    void setScrollRegion(int top, int bottom);
    void reportStatus(const VtSequence &sequence);
    void reportMode(const VtSequence &sequence);
    void reportSetting(std::string_view request);
    QByteArray currentRendition() const;
    void resetTabStops();

    int m_cols;
    int m_rows;
    LineRing m_primary;
    LineRing m_alternate;
    LineRing *m_screen = &m_primary;
    bool m_alt = false;

    int m_row = 0;
    int m_col = 0;
    // The cursor on the last column after printing there: the next glyph wraps first (DEC's
    // last column flag, xterm's do_wrap).
    bool m_pendingWrap = false;
    TerminalCursor m_cursorStyle;
    TerminalCell m_pen;
    TerminalCellWords m_penWords{};

    bool m_autowrap = true;
    bool m_insert = false;
    bool m_originMode = false;
    bool m_newlineMode = false;
    bool m_reverseVideo = false;
    TerminalInputModes m_input;
    int m_top = 0;
    int m_bottom; // exclusive
    std::vector<uint8_t> m_tabStops;
    std::array<Charset, 4> m_charsets{};
    int m_gl = 0;                       // the G set invoked into GL by SI, SO, LS2, LS3
    int m_singleShift = -1;             // SS2, SS3: the G set of the next character only
    std::array<SavedCursor, 2> m_saved; // primary, alternate

    // Where the last glyph went, for the combining marks that follow it and REP.
    bool m_lastGlyphValid = false;
    int m_lastGlyphRow = 0;
    int m_lastGlyphCol = 0;
    int m_lastCursorCol = 0;
    bool m_lastPendingWrap = false;
    char32_t m_lastChar = 0;

    QString m_title;
    bool m_titlePending = false;
    ShellPhase m_shellPhase = ShellPhase::Unknown;
    int m_bells = 0;
    QByteArray m_answer;
    bool m_changed = false;

    // Damage is stamped with the clock's value at the change; a reader's mark holds the clock
    // when it last took the damage, so each reader sees what changed after that, and only that.
    std::vector<uint64_t> m_dirty;
    uint64_t m_damageClock = 1;
    uint64_t m_fullDamage = 1; // the first reading paints everything
};

} // namespace sbx
