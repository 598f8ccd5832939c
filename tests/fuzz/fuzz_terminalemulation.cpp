// Fuzzes the terminal emulation (models/terminal/: our parser and state machine, libvterm's
// keyboard): PTY bytes and resizes in, and the screen model must stay consistent: the cursor
// inside the screen, one damage flag per row, every visible and history line readable, and
// every line's cells whole (a wide glyph's halves together, combining marks on written cells).
//
// Input: PTY bytes, with bytes that never occur in UTF-8 as commands: 0xff ends a chunk (so a
// sequence is split across feeds), 0xfe c r resizes, 0xfd resets, 0xfc n sets the scrollback
// limit, 0xfb k sends a key, a mouse report or a paste.
#include "models/terminal/terminalemulation.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

void checkScreen(TerminalEmulation &t) {
    const int rows = t.rows();
    const int cols = t.columns();
    check(rows >= 1 && cols >= 1);
    const TerminalCursor cursor = t.cursor();
    check(cursor.row >= 0 && cursor.row < rows);
    check(cursor.col >= 0 && cursor.col < cols);
    (void)t.cellText(cursor.row, cursor.col);
    (void)t.cell(cursor.row, cursor.col);
    (void)t.lineText(cursor.row);
    check(t.totalLines() == t.scrollbackCount() + rows);
    check(t.scrollbackCount() >= 0 && t.scrollbackCount() <= std::max(t.scrollbackLimit(), 0));
    const TerminalDamage damage = t.takeDamage();
    check(damage.full || damage.rows.size() == std::size_t(rows));
    for (int row = 0; row < rows; ++row) {
        const TerminalLine &line = t.screenLine(row);
        check(line.cells.size() == std::size_t(cols));
        for (int col = 0; col < cols; ++col) {
            const TerminalCell &cell = line.cells[std::size_t(col)];
            // A second half always follows its first half, and the reverse.
            if (cell.continuation)
                check(col > 0 && line.cells[std::size_t(col - 1)].wide);
            if (cell.wide && col + 1 < cols)
                check(line.cells[std::size_t(col + 1)].continuation);
        }
        for (const auto &[col, marks] : line.combining) {
            check(col >= 0 && col < cols && !marks.empty() && marks.size() <= 6);
            check(line.cells[std::size_t(col)].combined);
        }
    }
}

void input(TerminalEmulation &t, unsigned k) {
    static const int keys[] = {Qt::Key_Up,     Qt::Key_Left,      Qt::Key_Home,   Qt::Key_F5,
                               Qt::Key_Return, Qt::Key_Backspace, Qt::Key_Tab,    Qt::Key_A,
                               Qt::Key_Delete, Qt::Key_PageDown,  Qt::Key_Escape, Qt::Key_F12};
    const Qt::KeyboardModifiers mods = Qt::KeyboardModifiers::fromInt(int((k >> 4) & 0x7) << 25);
    switch (k % 4) {
    case 0:
        (void)t.keyPress(keys[(k >> 2) % std::size(keys)], mods, u"a"_s);
        break;
    case 1:
        (void)t.mouseButton(1 + int(k >> 2) % 5, k & 0x40, int(k) % t.rows(), int(k) % t.columns(),
                            mods);
        break;
    case 2:
        (void)t.mouseMove(int(k >> 1) % t.rows(), int(k >> 2) % t.columns(), mods);
        break;
    default:
        (void)t.paste(u"p\r\x1b[201~q"_s);
        (void)t.focusChanged(k & 0x80);
        break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    TerminalEmulation t(80, 24);
    t.setScrollbackLimit(50);
    QByteArray chunk;
    const auto flush = [&] {
        if (!chunk.isEmpty()) {
            t.feed(chunk);
            chunk.clear();
            checkScreen(t);
        }
    };
    for (std::size_t i = 0; i < size; ++i) {
        const std::uint8_t byte = data[i];
        if (byte < 0xfb) {
            chunk.append(char(byte));
            continue;
        }
        flush();
        const auto arg = [&]() -> unsigned {
            return i + 1 < size ? data[++i] : 0;
        };
        switch (byte) {
        case 0xfe: {
            const int cols = 1 + int(arg() % 160);
            const int rows = 1 + int(arg() % 60);
            t.resize(cols, rows);
            check(t.columns() == cols && t.rows() == rows);
            checkScreen(t);
            break;
        }
        case 0xfd:
            t.reset();
            break;
        case 0xfc:
            t.setScrollbackLimit(int(arg()) - 8);
            break;
        case 0xfb:
            input(t, arg());
            break;
        default:
            break;
        }
        checkScreen(t);
    }
    flush();
    for (int i = 0; i < t.totalLines(); ++i)
        (void)t.historyLineText(i);
    (void)t.screenText();
    return 0;
}
