#pragma once

#include "models/terminal/linering.h"
#include "models/terminal/terminalcell.h"
#include "models/terminal/terminalstate.h"
#include "models/terminal/vtparser.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <cstdint>

struct VTerm;
struct VTermState;

namespace sbx {

// The terminal without widget or transport: PTY bytes go through our parser (VtParser) and
// state machine (TerminalState) into our own screen model (LineRing); keys and mouse go
// through libvterm's keyboard, kept in the input modes the program set, into bytes for the PTY.
class TerminalEmulation final : public QObject {
    Q_OBJECT
public:
    TerminalEmulation(int cols, int rows, QObject *parent = nullptr);
    ~TerminalEmulation() override;

    void feed(const QByteArray &utf8Bytes);
    // A hard reset with an empty screen and scrollback: before a session's output is replayed.
    void reset();
    void resize(int cols, int rows);
    int columns() const { return m_terminal.columns(); }
    int rows() const { return m_terminal.rows(); }
    void setScrollbackLimit(int lines);
    int scrollbackLimit() const { return m_terminal.scrollbackLimit(); }

    QByteArray keyPress(int qtKey, Qt::KeyboardModifiers mods, const QString &text);
    QByteArray paste(const QString &text) const;
    // Mouse reports for programs that asked for them (row/col are visible cells, button as
    // xterm counts: 1 left, 2 middle, 3 right, 4/5 wheel). Empty when no report is due.
    QByteArray mouseMove(int row, int col, Qt::KeyboardModifiers mods);
    QByteArray mouseButton(int button, bool pressed, int row, int col, Qt::KeyboardModifiers mods);
    QByteArray focusChanged(bool focused);

    bool bracketedPaste() const { return m_terminal.inputModes().bracketedPaste; }
    bool applicationCursorKeys() const { return m_terminal.inputModes().cursorKeys; }
    bool altScreen() const { return m_terminal.altScreen(); }
    bool reverseVideo() const { return m_terminal.reverseVideo(); }
    TerminalMouseMode mouseMode() const { return m_terminal.mouseMode(); }
    QString title() const { return m_terminal.title(); }
    TerminalCursor cursor() const { return m_terminal.cursor(); }
    TerminalState::ShellPhase shellPhase() const { return m_terminal.shellPhase(); }

    // Visible screen.
    QString lineText(int row) const;
    QString screenText() const;
    TerminalCell cell(int row, int col) const;
    QString cellText(int row, int col) const; // base character plus combining marks
    const TerminalLine &screenLine(int row) const { return m_terminal.screen().screenLine(row); }

    // Scrollback and screen together: index 0 is the oldest line, the visible rows are the
    // last rows() indices. The alternate screen has no scrollback.
    int scrollbackCount() const { return m_terminal.screen().scrollbackCount(); }
    int totalLines() const { return m_terminal.screen().totalLines(); }
    const TerminalLine &historyLine(int index) const { return m_terminal.screen().lineAt(index); }
    QString historyLineText(int index) const;
    int64_t droppedLines() const { return m_terminal.screen().droppedLines(); }

    // Damage since mark was last taken. Without a mark: the emulation's own, for a single reader.
    TerminalDamage takeDamage(TerminalDamageMark &mark) { return m_terminal.takeDamage(mark); }
    TerminalDamage takeDamage() { return takeDamage(m_ownMark); }

Q_SIGNALS:
    void screenChanged();
    void titleChanged(const QString &title);
    void bell();
    void sendData(const QByteArray &bytes);

private:
    QByteArray readOutput() const;
    void syncInputModes();

    VTerm *m_vt = nullptr;
    VTermState *m_vtState = nullptr;
    VtParser m_parser;
    TerminalState m_terminal;
    // The modes libvterm's keyboard and mouse encoders were last put in.
    TerminalInputModes m_encoderModes;
    TerminalDamageMark m_ownMark;
};

QString lineToText(const TerminalLine &line, int fromCol = 0, int toCol = -1);

} // namespace sbx
