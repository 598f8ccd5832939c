#include "models/terminal/terminalemulation.h"

#include "models/terminal/terminalkeys.h"

#include <QStringList>

#include <vterm.h>

#include <algorithm>

namespace sbx {

namespace {
constexpr int kDefaultScrollback = 10000;
} // namespace

QString lineToText(const TerminalLine &line, int fromCol, int toCol) {
    const int end = toCol < 0 ? static_cast<int>(line.cells.size())
                              : std::min(toCol, static_cast<int>(line.cells.size()));
    QString text;
    text.reserve(std::max(end - fromCol, 0));
    for (int col = std::max(fromCol, 0); col < end; ++col) {
        const TerminalCell &cell = line.cells[static_cast<size_t>(col)];
        if (cell.continuation)
            continue;
        const char32_t ch = cell.ch == 0 ? U' ' : char32_t(cell.ch);
        text.append(QChar::fromUcs4(ch));
        if (cell.combined) {
            for (const auto &[c, marks] : line.combining)
                if (c == col)
                    for (const char32_t mark : marks)
                        text.append(QChar::fromUcs4(mark));
        }
    }
    while (text.endsWith(QLatin1Char(' ')))
        text.chop(1);
    return text;
}

TerminalEmulation::TerminalEmulation(int cols, int rows, QObject *parent)
    : QObject(parent)
    , m_terminal(std::max(cols, 1), std::max(rows, 1), kDefaultScrollback) {
    // libvterm's state layer sees nothing of the output but the input modes we hand it, and
    // has no callbacks: it only feeds its keyboard and mouse encoders.
    m_vt = vterm_new(m_terminal.rows(), m_terminal.columns());
    vterm_set_utf8(m_vt, 1);
    m_vtState = vterm_obtain_state(m_vt);
    vterm_state_reset(m_vtState, 1);
}

TerminalEmulation::~TerminalEmulation() {
    vterm_free(m_vt);
}

// Puts libvterm's encoders in the modes the program set, with the sequences that set them.
void TerminalEmulation::syncInputModes() {
    const TerminalInputModes &want = m_terminal.inputModes();
    const TerminalInputModes had = m_encoderModes;
    if (want == had)
        return;
    QByteArray out;
    const auto mode = [&out](int number, bool on) {
        out += "\x1b[?" + QByteArray::number(number) + (on ? 'h' : 'l');
    };
    // X10's mode 9 reports clicks as 1000 does; libvterm 0.1.4 knows only the latter.
    const auto tracking = [](int number) {
        return number == 9 ? 1000 : number;
    };
    if (want.cursorKeys != had.cursorKeys)
        mode(1, want.cursorKeys);
    if (want.keypad != had.keypad)
        out += want.keypad ? "\x1b=" : "\x1b>";
    if (want.bracketedPaste != had.bracketedPaste)
        mode(2004, want.bracketedPaste);
    if (want.focusEvents != had.focusEvents)
        mode(1004, want.focusEvents);
    if (want.mouseTracking != had.mouseTracking) {
        if (had.mouseTracking)
            mode(tracking(had.mouseTracking), false);
        if (want.mouseTracking)
            mode(tracking(want.mouseTracking), true);
    }
    if (want.mouseEncoding != had.mouseEncoding) {
        if (had.mouseEncoding)
            mode(had.mouseEncoding, false);
        if (want.mouseEncoding)
            mode(want.mouseEncoding, true);
    }
    vterm_input_write(m_vt, out.constData(), size_t(out.size()));
    m_encoderModes = want;
}

void TerminalEmulation::feed(const QByteArray &bytes) {
    m_parser.feed(bytes.constData(), size_t(bytes.size()), m_terminal);
    syncInputModes();
    // Signals go out after the parser returned, so a slot may call back into the emulation.
    const QByteArray answer = m_terminal.takeAnswer();
    const bool changed = m_terminal.takeChanged();
    const bool titlePending = m_terminal.takeTitleChanged();
    const int bells = m_terminal.takeBells();
    if (!answer.isEmpty())
        Q_EMIT sendData(answer);
    if (titlePending)
        Q_EMIT titleChanged(m_terminal.title());
    for (int i = 0; i < bells; ++i)
        Q_EMIT bell();
    if (changed)
        Q_EMIT screenChanged();
}

void TerminalEmulation::reset() {
    m_parser.reset();
    m_terminal.hardReset();
    syncInputModes();
    m_terminal.takeAnswer(); // a reset answers nothing to the PTY
    m_terminal.takeChanged();
    Q_EMIT screenChanged();
}

void TerminalEmulation::resize(int cols, int rows) {
    cols = std::max(cols, 1);
    rows = std::max(rows, 1);
    if (cols == columns() && rows == this->rows())
        return;
    m_terminal.resize(cols, rows);
    vterm_set_size(m_vt, rows, cols); // the mouse encoder clamps to it
    m_terminal.takeChanged();
    Q_EMIT screenChanged();
}

void TerminalEmulation::setScrollbackLimit(int lines) {
    m_terminal.setScrollbackLimit(lines);
    m_terminal.takeChanged();
    Q_EMIT screenChanged();
}

QByteArray TerminalEmulation::readOutput() const {
    QByteArray out;
    char buffer[4096];
    while (const size_t n = vterm_output_read(m_vt, buffer, sizeof buffer))
        out.append(buffer, static_cast<qsizetype>(n));
    return out;
}

QByteArray TerminalEmulation::keyPress(int qtKey, Qt::KeyboardModifiers mods, const QString &text) {
    readOutput(); // anything pending belongs to no key
    writeKeyToVTerm(m_vt, qtKey, mods, text);
    return readOutput();
}

QByteArray TerminalEmulation::paste(const QString &text) const {
    readOutput();
    QString body = text;
    body.replace(QLatin1String("\r\n"), QLatin1String("\r"));
    body.replace(QLatin1Char('\n'), QLatin1Char('\r'));
    if (!bracketedPaste())
        return body.toUtf8();
    // An ESC inside the paste could end the bracket early and run the rest as keys.
    body.remove(QChar(0x1b));
    vterm_keyboard_start_paste(m_vt);
    QByteArray out = readOutput();
    out += body.toUtf8();
    vterm_keyboard_end_paste(m_vt);
    out += readOutput();
    return out;
}

namespace {
VTermModifier mouseModifiers(Qt::KeyboardModifiers mods) {
    return static_cast<VTermModifier>(toVTermModifier(mods));
}
} // namespace

QByteArray TerminalEmulation::mouseMove(int row, int col, Qt::KeyboardModifiers mods) {
    // libvterm 0.1.4 reports buttons even when no program asked for it.
    if (mouseMode() == TerminalMouseMode::None)
        return {};
    readOutput();
    vterm_mouse_move(m_vt, std::clamp(row, 0, rows() - 1), std::clamp(col, 0, columns() - 1),
                     mouseModifiers(mods));
    return readOutput();
}

QByteArray TerminalEmulation::mouseButton(int button, bool pressed, int row, int col,
                                          Qt::KeyboardModifiers mods) {
    if (mouseMode() == TerminalMouseMode::None)
        return {};
    readOutput();
    const VTermModifier mod = mouseModifiers(mods);
    vterm_mouse_move(m_vt, std::clamp(row, 0, rows() - 1), std::clamp(col, 0, columns() - 1), mod);
    readOutput(); // the move itself reports only in drag/move modes, and belongs before
    vterm_mouse_button(m_vt, button, pressed, mod);
    return readOutput();
}

QByteArray TerminalEmulation::focusChanged(bool focused) {
    readOutput();
    if (focused)
        vterm_state_focus_in(m_vtState);
    else
        vterm_state_focus_out(m_vtState);
    return readOutput();
}

QString TerminalEmulation::lineText(int row) const {
    if (row < 0 || row >= rows())
        return {};
    return lineToText(screenLine(row));
}

QString TerminalEmulation::screenText() const {
    QStringList lines;
    lines.reserve(rows());
    for (int row = 0; row < rows(); ++row)
        lines.append(lineText(row));
    return lines.join(QLatin1Char('\n'));
}

TerminalCell TerminalEmulation::cell(int row, int col) const {
    if (row < 0 || row >= rows() || col < 0 || col >= columns())
        return {};
    return screenLine(row).cells[static_cast<size_t>(col)];
}

QString TerminalEmulation::cellText(int row, int col) const {
    if (row < 0 || row >= rows() || col < 0 || col >= columns())
        return {};
    const TerminalLine &line = screenLine(row);
    const TerminalCell &c = line.cells[static_cast<size_t>(col)];
    QString text;
    text.append(QChar::fromUcs4(c.ch == 0 ? U' ' : char32_t(c.ch)));
    if (c.combined)
        for (const auto &[at, marks] : line.combining)
            if (at == col)
                for (const char32_t mark : marks)
                    text.append(QChar::fromUcs4(mark));
    return text;
}

QString TerminalEmulation::historyLineText(int index) const {
    if (index < 0 || index >= totalLines())
        return {};
    return lineToText(m_terminal.screen().lineAt(index));
}

} // namespace sbx
