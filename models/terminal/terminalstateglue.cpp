#include "models/terminal/terminalstateglue.h"

#include "models/terminal/terminalemulation.h"

#include <vterm.h>

#include <algorithm>

namespace sbx {

namespace {

TerminalEmulation *self(void *user) {
    return static_cast<TerminalEmulation *>(user);
}

uint32_t packColour(const VTermColor &colour) {
    if (VTERM_COLOR_IS_DEFAULT_FG(&colour) || VTERM_COLOR_IS_DEFAULT_BG(&colour))
        return TerminalColor::kDefault;
    if (VTERM_COLOR_IS_INDEXED(&colour))
        return TerminalColor::indexed(colour.indexed.idx);
    return TerminalColor::rgb(colour.rgb.red, colour.rgb.green, colour.rgb.blue);
}

void dropCombining(TerminalLine &line, int col) {
    std::erase_if(line.combining, [col](const auto &entry) { return entry.first == col; });
}

// Copies cells (and their combining marks) between lines; same-line moves may overlap.
void copyCells(const TerminalLine &from, int fromCol, TerminalLine &to, int toCol, int count) {
    if (&from == &to) {
        auto &cells = to.cells;
        if (toCol < fromCol)
            std::copy(cells.begin() + fromCol, cells.begin() + fromCol + count,
                      cells.begin() + toCol);
        else
            std::copy_backward(cells.begin() + fromCol, cells.begin() + fromCol + count,
                               cells.begin() + toCol + count);
        for (auto &entry : to.combining)
            if (entry.first >= fromCol && entry.first < fromCol + count)
                entry.first += toCol - fromCol;
        return;
    }
    std::copy(from.cells.begin() + fromCol, from.cells.begin() + fromCol + count,
              to.cells.begin() + toCol);
    std::erase_if(to.combining, [toCol, count](const auto &entry) {
        return entry.first >= toCol && entry.first < toCol + count;
    });
    for (const auto &entry : from.combining)
        if (entry.first >= fromCol && entry.first < fromCol + count)
            to.combining.emplace_back(entry.first - fromCol + toCol, entry.second);
}

int putglyph(VTermGlyphInfo *info, VTermPos pos, void *user);
int movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user);
int scrollrect(VTermRect rect, int downward, int rightward, void *user);
int moverect(VTermRect dest, VTermRect src, void *user);
int erase(VTermRect rect, int selective, void *user);
int initpen(void *user);
int setpenattr(VTermAttr attr, VTermValue *val, void *user);
int settermprop(VTermProp prop, VTermValue *val, void *user);
int ringBell(void *user);
int resize(int rows, int cols, VTermPos *delta, void *user);
int setlineinfo(int, const VTermLineInfo *, const VTermLineInfo *, void *) {
    return 1;
}

const VTermStateCallbacks kCallbacks = {
    putglyph,   movecursor,  scrollrect, moverect, erase,       initpen,
    setpenattr, settermprop, ringBell,   resize,   setlineinfo,
};

} // namespace

// The callbacks need the emulation's private members; this class is its friend.
struct GlueAccess {
    static TerminalLine &line(TerminalEmulation *t, int row) {
        // Consecutive glyphs land on one row: remember it instead of walking the ring each time.
        if (row != t->m_cachedRow) {
            t->m_cachedLine = &t->m_screen->screenLine(row);
            t->m_cachedRow = row;
        }
        return *t->m_cachedLine;
    }

    static void putglyph(TerminalEmulation *t, const VTermGlyphInfo *info, VTermPos pos) {
        const int cols = t->m_cols;
        if (pos.row < 0 || pos.row >= t->m_rows || pos.col < 0 || pos.col >= cols)
            return;
        TerminalLine &row = line(t, pos.row);
        TerminalCell *cells = row.cells.data();
        TerminalCell &cell = cells[pos.col];
        t->m_dirty[static_cast<size_t>(pos.row)] = t->m_damageClock;
        t->m_changed = true;
        if (info->width == 1 && info->chars[1] == 0 && !cell.wide && !cell.continuation &&
            !cell.combined) [[likely]] {
            stampGlyph(cell, t->m_pen, info->chars[0]);
            return;
        }
        // Overwriting half of a wide glyph leaves the other half blank, as xterm does.
        if (cell.continuation && pos.col > 0)
            cells[pos.col - 1] = t->blankCell();
        if (cell.wide && info->width == 1 && pos.col + 1 < cols)
            cells[pos.col + 1] = t->blankCell();
        if (cell.combined)
            dropCombining(row, pos.col);
        cell = t->m_pen;
        cell.ch = info->chars[0];
        if (info->chars[1] != 0) {
            int n = 1;
            while (info->chars[n] != 0)
                ++n;
            cell.combined = 1;
            row.combining.emplace_back(
                pos.col,
                std::u32string(reinterpret_cast<const char32_t *>(info->chars + 1), size_t(n - 1)));
        }
        if (info->width == 2 && pos.col + 1 < cols) {
            cell.wide = 1;
            TerminalCell &next = cells[pos.col + 1];
            if (next.combined)
                dropCombining(row, pos.col + 1);
            if (next.wide && pos.col + 2 < cols)
                cells[pos.col + 2] = t->blankCell();
            next = t->m_pen;
            next.continuation = 1;
        }
    }

    static void movecursor(TerminalEmulation *t, VTermPos pos, VTermPos oldpos, int visible) {
        t->markDirty(oldpos.row);
        t->markDirty(pos.row);
        t->m_cursor.row = pos.row;
        t->m_cursor.col = pos.col;
        t->m_cursor.visible = visible != 0;
    }

    static int scrollrect(TerminalEmulation *t, VTermRect rect, int downward, int rightward) {
        // Only whole-width vertical scrolls are line moves; libvterm does the rest with
        // moverect + erase when we decline.
        if (rightward != 0 || rect.start_col != 0 || rect.end_col != t->m_cols)
            return 0;
        t->m_cachedRow = -1;
        if (downward > 0)
            t->m_screen->scrollUp(rect.start_row, rect.end_row, downward, t->blankCell());
        else
            t->m_screen->scrollDown(rect.start_row, rect.end_row, -downward, t->blankCell());
        if (rect.start_row == 0 && rect.end_row == t->m_rows) {
            t->markAllDirty();
        } else {
            for (int r = rect.start_row; r < rect.end_row; ++r)
                t->markDirty(r);
        }
        return 1;
    }

    static void moverect(TerminalEmulation *t, VTermRect dest, VTermRect src) {
        const int height = src.end_row - src.start_row;
        const int width = src.end_col - src.start_col;
        const bool upward = dest.start_row <= src.start_row;
        for (int i = 0; i < height; ++i) {
            const int k = upward ? i : height - 1 - i;
            const TerminalLine &from = t->m_screen->screenLine(src.start_row + k);
            TerminalLine &to = t->m_screen->screenLine(dest.start_row + k);
            copyCells(from, src.start_col, to, dest.start_col, width);
            t->markDirty(dest.start_row + k);
        }
    }

    static void erase(TerminalEmulation *t, VTermRect rect) {
        const TerminalCell blank = t->blankCell();
        const int endCol = std::min(rect.end_col, t->m_cols);
        for (int r = std::max(rect.start_row, 0); r < std::min(rect.end_row, t->m_rows); ++r) {
            TerminalLine &line = t->m_screen->screenLine(r);
            std::fill(line.cells.begin() + rect.start_col, line.cells.begin() + endCol, blank);
            if (!line.combining.empty())
                std::erase_if(line.combining, [&rect, endCol](const auto &entry) {
                    return entry.first >= rect.start_col && entry.first < endCol;
                });
            t->markDirty(r);
        }
    }

    static void setpenattr(TerminalEmulation *t, VTermAttr attr, const VTermValue *val) {
        TerminalCell &pen = t->m_pen;
        switch (attr) {
        case VTERM_ATTR_BOLD:
            pen.bold = val->boolean ? 1 : 0;
            break;
        case VTERM_ATTR_UNDERLINE:
            pen.underline = static_cast<uint32_t>(val->number) & 3;
            break;
        case VTERM_ATTR_ITALIC:
            pen.italic = val->boolean ? 1 : 0;
            break;
        case VTERM_ATTR_BLINK:
            pen.blink = val->boolean ? 1 : 0;
            break;
        case VTERM_ATTR_REVERSE:
            pen.inverse = val->boolean ? 1 : 0;
            break;
        case VTERM_ATTR_STRIKE:
            pen.strike = val->boolean ? 1 : 0;
            break;
        case VTERM_ATTR_FOREGROUND:
            pen.fg = packColour(val->color);
            break;
        case VTERM_ATTR_BACKGROUND:
            pen.bg = packColour(val->color);
            break;
        default:
            break;
        }
    }

    static void settermprop(TerminalEmulation *t, VTermProp prop, const VTermValue *val) {
        switch (prop) {
        case VTERM_PROP_CURSORVISIBLE:
            t->m_cursor.visible = val->boolean != 0;
            t->markDirty(t->m_cursor.row);
            break;
        case VTERM_PROP_CURSORBLINK:
            t->m_cursor.blink = val->boolean != 0;
            t->markDirty(t->m_cursor.row);
            break;
        case VTERM_PROP_CURSORSHAPE:
            t->m_cursor.shape =
                val->number == VTERM_PROP_CURSORSHAPE_UNDERLINE  ? TerminalCursorShape::Underline
                : val->number == VTERM_PROP_CURSORSHAPE_BAR_LEFT ? TerminalCursorShape::Bar
                                                                 : TerminalCursorShape::Block;
            t->markDirty(t->m_cursor.row);
            break;
        case VTERM_PROP_ALTSCREEN:
            // libvterm erases the alternate buffer itself right after this switch.
            t->m_alt = val->boolean != 0;
            t->m_cachedRow = -1;
            t->m_screen = t->m_alt ? &t->m_alternate : &t->m_primary;
            t->markAllDirty();
            break;
        case VTERM_PROP_TITLE:
            t->m_title = QString::fromUtf8(val->string ? val->string : "");
            t->m_titlePending = true;
            break;
        case VTERM_PROP_REVERSE:
            t->m_reverseVideo = val->boolean != 0;
            t->markAllDirty();
            break;
        case VTERM_PROP_MOUSE:
            t->m_mouseMode = val->number == VTERM_PROP_MOUSE_CLICK  ? TerminalMouseMode::Click
                             : val->number == VTERM_PROP_MOUSE_DRAG ? TerminalMouseMode::Drag
                             : val->number == VTERM_PROP_MOUSE_MOVE ? TerminalMouseMode::Move
                                                                    : TerminalMouseMode::None;
            break;
        default:
            break;
        }
    }

    static void resize(TerminalEmulation *t, int rows, int cols, VTermPos *delta) {
        VTermPos cursor;
        vterm_state_get_cursorpos(t->m_state, &cursor);
        t->m_cachedRow = -1;
        const TerminalCell blank;
        const int primaryDelta = t->m_primary.resize(cols, rows, t->m_alt ? -1 : cursor.row, blank);
        const int alternateDelta = t->m_alternate.resize(cols, rows, cursor.row, blank);
        delta->row += t->m_alt ? alternateDelta : primaryDelta;
        t->m_cols = cols;
        t->m_rows = rows;
        t->m_dirty.assign(static_cast<size_t>(rows), 0);
        t->markAllDirty();
    }

    static TerminalCell &pen(TerminalEmulation *t) { return t->m_pen; }
    static void bell(TerminalEmulation *t) { ++t->m_bellsPending; }
};

namespace {

int putglyph(VTermGlyphInfo *info, VTermPos pos, void *user) {
    GlueAccess::putglyph(self(user), info, pos);
    return 1;
}
int movecursor(VTermPos pos, VTermPos oldpos, int visible, void *user) {
    GlueAccess::movecursor(self(user), pos, oldpos, visible);
    return 1;
}
int scrollrect(VTermRect rect, int downward, int rightward, void *user) {
    return GlueAccess::scrollrect(self(user), rect, downward, rightward);
}
int moverect(VTermRect dest, VTermRect src, void *user) {
    GlueAccess::moverect(self(user), dest, src);
    return 1;
}
int erase(VTermRect rect, int, void *user) {
    GlueAccess::erase(self(user), rect);
    return 1;
}
int initpen(void *user) {
    GlueAccess::pen(self(user)) = TerminalCell{};
    return 1;
}
int setpenattr(VTermAttr attr, VTermValue *val, void *user) {
    GlueAccess::setpenattr(self(user), attr, val);
    return 1;
}
int settermprop(VTermProp prop, VTermValue *val, void *user) {
    GlueAccess::settermprop(self(user), prop, val);
    return 1;
}
int ringBell(void *user) {
    GlueAccess::bell(self(user));
    return 1;
}
int resize(int rows, int cols, VTermPos *delta, void *user) {
    GlueAccess::resize(self(user), rows, cols, delta);
    return 1;
}

} // namespace

void TerminalStateGlue::install(TerminalEmulation *emulation) {
    vterm_state_set_callbacks(emulation->m_state, &kCallbacks, emulation);
}

} // namespace sbx
