#include "models/terminal/terminalemulation.h"

#include "models/terminal/terminalkeys.h"
#include "models/terminal/terminalstateglue.h"

#include <QStringList>

#include <vterm.h>

#include <algorithm>

namespace sbx {

namespace {
// libvterm's text handler keeps one code point per input byte on the stack: bounded chunks
// keep that small whatever a single feed() carries.
constexpr qsizetype kFeedChunk = 16 * 1024;
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
    , m_cols(std::max(cols, 1))
    , m_rows(std::max(rows, 1))
    , m_primary(m_cols, m_rows, kDefaultScrollback)
    , m_alternate(m_cols, m_rows, 0)
    , m_dirty(static_cast<size_t>(m_rows), 0) {
    m_vt = vterm_new(m_rows, m_cols);
    vterm_set_utf8(m_vt, 1);
    m_state = vterm_obtain_state(m_vt);
    TerminalStateGlue::install(this);
    vterm_state_reset(m_state, 1);
    // libvterm 0.1.4 loops forever on REP (CSI b) before its first glyph: it repeats a glyph of
    // width 0. One glyph, erased again, gives it a character to repeat (a reset keeps it): a
    // space, where xterm would repeat nothing.
    static constexpr char kFirstGlyph[] = " \r\x1b[K";
    vterm_input_write(m_vt, kFirstGlyph, sizeof kFirstGlyph - 1);
    m_changed = false;
}

TerminalEmulation::~TerminalEmulation() {
    vterm_free(m_vt);
}

TerminalCell TerminalEmulation::blankCell() const {
    // Erased cells take the pen's background (xterm's BCE) and nothing else.
    TerminalCell blank;
    blank.bg = m_pen.bg;
    return blank;
}

void TerminalEmulation::markDirty(int row) {
    if (row >= 0 && row < m_rows)
        m_dirty[static_cast<size_t>(row)] = m_damageClock;
    m_changed = true;
}

void TerminalEmulation::markAllDirty() {
    m_fullDamage = m_damageClock;
    m_changed = true;
}

// libvterm 0.1.4 restores a saved cursor (DECRC, leaving the alternate screen) unclamped after
// the screen shrank, reports it or not, and clamps it silently at the next output. The cursor
// shown is where that output will go: libvterm's position, clamped as it will be.
void TerminalEmulation::syncCursor() {
    VTermPos pos;
    vterm_state_get_cursorpos(m_state, &pos);
    pos.row = std::clamp(pos.row, 0, m_rows - 1);
    pos.col = std::clamp(pos.col, 0, m_cols - 1);
    if (pos.row == m_cursor.row && pos.col == m_cursor.col)
        return;
    markDirty(m_cursor.row);
    markDirty(pos.row);
    m_cursor.row = pos.row;
    m_cursor.col = pos.col;
}

void TerminalEmulation::feed(const QByteArray &bytes) {
    const QByteArray &utf8Bytes = m_csiGuard.filter(bytes);
    for (qsizetype offset = 0; offset < utf8Bytes.size(); offset += kFeedChunk) {
        const qsizetype len = std::min(kFeedChunk, utf8Bytes.size() - offset);
        vterm_input_write(m_vt, utf8Bytes.constData() + offset, static_cast<size_t>(len));
    }
    syncCursor();
    // Signals go out after libvterm returned, so a slot may call back into the emulation.
    const QByteArray answer = readOutput();
    const bool changed = std::exchange(m_changed, false);
    const bool titlePending = std::exchange(m_titlePending, false);
    const int bells = std::exchange(m_bellsPending, 0);
    if (!answer.isEmpty())
        Q_EMIT sendData(answer);
    if (titlePending)
        Q_EMIT titleChanged(m_title);
    for (int i = 0; i < bells; ++i)
        Q_EMIT bell();
    if (changed)
        Q_EMIT screenChanged();
}

void TerminalEmulation::reset() {
    m_csiGuard.reset();
    // LineRing has no assignment; swapping in fresh rings keeps its invariants in one place.
    LineRing primary(m_cols, m_rows, m_primary.scrollbackLimit());
    LineRing alternate(m_cols, m_rows, 0);
    std::swap(m_primary, primary);
    std::swap(m_alternate, alternate);
    m_screen = &m_primary;
    m_alt = false;
    m_cachedLine = nullptr;
    m_cachedRow = -1;
    m_pen = TerminalCell();
    vterm_state_reset(m_state, 1);
    readOutput(); // a reset answers nothing to the PTY
    markAllDirty();
    m_changed = false;
    Q_EMIT screenChanged();
}

void TerminalEmulation::resize(int cols, int rows) {
    cols = std::max(cols, 1);
    rows = std::max(rows, 1);
    if (cols == m_cols && rows == m_rows)
        return;
    vterm_set_size(m_vt, rows, cols);
    // libvterm may leave its cursor outside the new size (column -1 after a C1 control):
    // shown where the next output will go, as after a feed.
    syncCursor();
    m_changed = false;
    Q_EMIT screenChanged();
}

void TerminalEmulation::setScrollbackLimit(int lines) {
    m_cachedRow = -1;
    m_primary.setScrollbackLimit(lines);
    markAllDirty();
    m_changed = false;
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

bool TerminalEmulation::bracketedPaste() const {
    // libvterm 0.1.4 keeps DECSET 2004 private: it shows only in what start_paste writes.
    readOutput();
    vterm_keyboard_start_paste(m_vt);
    return !readOutput().isEmpty();
}

bool TerminalEmulation::applicationCursorKeys() const {
    readOutput();
    vterm_keyboard_key(m_vt, VTERM_KEY_UP, VTERM_MOD_NONE);
    return readOutput().startsWith("\x1bO");
}

namespace {
VTermModifier mouseModifiers(Qt::KeyboardModifiers mods) {
    return static_cast<VTermModifier>(toVTermModifier(mods));
}
} // namespace

QByteArray TerminalEmulation::mouseMove(int row, int col, Qt::KeyboardModifiers mods) {
    // libvterm 0.1.4 reports buttons even when no program asked for it.
    if (m_mouseMode == TerminalMouseMode::None)
        return {};
    readOutput();
    vterm_mouse_move(m_vt, std::clamp(row, 0, m_rows - 1), std::clamp(col, 0, m_cols - 1),
                     mouseModifiers(mods));
    return readOutput();
}

QByteArray TerminalEmulation::mouseButton(int button, bool pressed, int row, int col,
                                          Qt::KeyboardModifiers mods) {
    if (m_mouseMode == TerminalMouseMode::None)
        return {};
    readOutput();
    const VTermModifier mod = mouseModifiers(mods);
    vterm_mouse_move(m_vt, std::clamp(row, 0, m_rows - 1), std::clamp(col, 0, m_cols - 1), mod);
    readOutput(); // the move itself reports only in drag/move modes, and belongs before
    vterm_mouse_button(m_vt, button, pressed, mod);
    return readOutput();
}

QByteArray TerminalEmulation::focusChanged(bool focused) {
    readOutput();
    if (focused)
        vterm_state_focus_in(m_state);
    else
        vterm_state_focus_out(m_state);
    return readOutput();
}

QString TerminalEmulation::lineText(int row) const {
    if (row < 0 || row >= m_rows)
        return {};
    return lineToText(m_screen->screenLine(row));
}

QString TerminalEmulation::screenText() const {
    QStringList lines;
    lines.reserve(m_rows);
    for (int row = 0; row < m_rows; ++row)
        lines.append(lineText(row));
    return lines.join(QLatin1Char('\n'));
}

TerminalCell TerminalEmulation::cell(int row, int col) const {
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols)
        return {};
    return m_screen->screenLine(row).cells[static_cast<size_t>(col)];
}

QString TerminalEmulation::cellText(int row, int col) const {
    if (row < 0 || row >= m_rows || col < 0 || col >= m_cols)
        return {};
    const TerminalLine &line = m_screen->screenLine(row);
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
    return lineToText(m_screen->lineAt(index));
}

TerminalDamage TerminalEmulation::takeDamage(TerminalDamageMark &mark) {
    TerminalDamage damage;
    damage.full = m_fullDamage > mark.seen;
    damage.rows.resize(m_dirty.size());
    for (size_t row = 0; row < m_dirty.size(); ++row)
        damage.rows[row] = m_dirty[row] > mark.seen ? 1 : 0;
    // Changes from now on carry a later stamp than any mark has seen.
    mark.seen = m_damageClock++;
    return damage;
}

} // namespace sbx
