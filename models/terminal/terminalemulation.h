#pragma once

#include "models/terminal/csiguard.h"
#include "models/terminal/linering.h"
#include "models/terminal/terminalcell.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

struct VTerm;
struct VTermState;

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

// The terminal without widget or transport: PTY bytes go through libvterm's parser and state
// layer into our own screen model (LineRing); keys and mouse go through libvterm's keyboard
// into bytes for the PTY.
class TerminalEmulation final : public QObject {
    Q_OBJECT
public:
    TerminalEmulation(int cols, int rows, QObject *parent = nullptr);
    ~TerminalEmulation() override;

    void feed(const QByteArray &utf8Bytes);
    // A hard reset with an empty screen and scrollback: before a session's output is replayed.
    void reset();
    void resize(int cols, int rows);
    int columns() const { return m_cols; }
    int rows() const { return m_rows; }
    void setScrollbackLimit(int lines);
    int scrollbackLimit() const { return m_primary.scrollbackLimit(); }

    QByteArray keyPress(int qtKey, Qt::KeyboardModifiers mods, const QString &text);
    QByteArray paste(const QString &text) const;
    // Mouse reports for programs that asked for them (row/col are visible cells, button as
    // xterm counts: 1 left, 2 middle, 3 right, 4/5 wheel). Empty when no report is due.
    QByteArray mouseMove(int row, int col, Qt::KeyboardModifiers mods);
    QByteArray mouseButton(int button, bool pressed, int row, int col, Qt::KeyboardModifiers mods);
    QByteArray focusChanged(bool focused);

    bool bracketedPaste() const;
    bool applicationCursorKeys() const;
    bool altScreen() const { return m_alt; }
    bool reverseVideo() const { return m_reverseVideo; }
    TerminalMouseMode mouseMode() const { return m_mouseMode; }
    QString title() const { return m_title; }
    TerminalCursor cursor() const { return m_cursor; }

    // Visible screen.
    QString lineText(int row) const;
    QString screenText() const;
    TerminalCell cell(int row, int col) const;
    QString cellText(int row, int col) const; // base character plus combining marks
    const TerminalLine &screenLine(int row) const { return m_screen->screenLine(row); }

    // Scrollback and screen together: index 0 is the oldest line, the visible rows are the
    // last rows() indices. The alternate screen has no scrollback.
    int scrollbackCount() const { return m_screen->scrollbackCount(); }
    int totalLines() const { return m_screen->totalLines(); }
    const TerminalLine &historyLine(int index) const { return m_screen->lineAt(index); }
    QString historyLineText(int index) const;
    int64_t droppedLines() const { return m_screen->droppedLines(); }

    // Damage since mark was last taken. Without a mark: the emulation's own, for a single reader.
    TerminalDamage takeDamage(TerminalDamageMark &mark);
    TerminalDamage takeDamage() { return takeDamage(m_ownMark); }

Q_SIGNALS:
    void screenChanged();
    void titleChanged(const QString &title);
    void bell();
    void sendData(const QByteArray &bytes);

private:
    friend class TerminalStateGlue;
    friend struct GlueAccess;

    QByteArray readOutput() const;
    void markDirty(int row);
    void syncCursor();
    void markAllDirty();
    TerminalCell blankCell() const;

    VTerm *m_vt = nullptr;
    VTermState *m_state = nullptr;
    int m_cols;
    int m_rows;
    LineRing m_primary;
    LineRing m_alternate;
    LineRing *m_screen = &m_primary;
    // The line putglyph wrote last; any change to the ring's layout resets m_cachedRow.
    TerminalLine *m_cachedLine = nullptr;
    int m_cachedRow = -1;
    TerminalCell m_pen;
    TerminalCursor m_cursor;
    TerminalMouseMode m_mouseMode = TerminalMouseMode::None;
    bool m_alt = false;
    bool m_reverseVideo = false;
    QString m_title;

    // Damage is stamped with the clock's value at the change; a reader's mark holds the clock
    // when it last took the damage, so each reader sees what changed after that, and only that.
    std::vector<uint64_t> m_dirty;
    uint64_t m_damageClock = 1;
    uint64_t m_fullDamage = 1; // the first reading paints everything
    TerminalDamageMark m_ownMark;
    bool m_changed = false;
    bool m_titlePending = false;
    int m_bellsPending = 0;
    CsiGuard m_csiGuard;
};

QString lineToText(const TerminalLine &line, int fromCol = 0, int toCol = -1);

} // namespace sbx
