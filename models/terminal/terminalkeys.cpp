#include "models/terminal/terminalkeys.h"

#include <QList>
#include <QString>

#include <vterm.h>

namespace sbx {

int toVTermModifier(Qt::KeyboardModifiers mods) {
    int mod = VTERM_MOD_NONE;
    if (mods & Qt::ShiftModifier)
        mod |= VTERM_MOD_SHIFT;
    if (mods & Qt::AltModifier)
        mod |= VTERM_MOD_ALT;
    if (mods & Qt::ControlModifier)
        mod |= VTERM_MOD_CTRL;
    return mod;
}

namespace {

VTermKey keypadKey(int qtKey) {
    switch (qtKey) {
    case Qt::Key_0:
        return VTERM_KEY_KP_0;
    case Qt::Key_1:
        return VTERM_KEY_KP_1;
    case Qt::Key_2:
        return VTERM_KEY_KP_2;
    case Qt::Key_3:
        return VTERM_KEY_KP_3;
    case Qt::Key_4:
        return VTERM_KEY_KP_4;
    case Qt::Key_5:
        return VTERM_KEY_KP_5;
    case Qt::Key_6:
        return VTERM_KEY_KP_6;
    case Qt::Key_7:
        return VTERM_KEY_KP_7;
    case Qt::Key_8:
        return VTERM_KEY_KP_8;
    case Qt::Key_9:
        return VTERM_KEY_KP_9;
    case Qt::Key_Asterisk:
        return VTERM_KEY_KP_MULT;
    case Qt::Key_Plus:
        return VTERM_KEY_KP_PLUS;
    case Qt::Key_Comma:
        return VTERM_KEY_KP_COMMA;
    case Qt::Key_Minus:
        return VTERM_KEY_KP_MINUS;
    case Qt::Key_Period:
        return VTERM_KEY_KP_PERIOD;
    case Qt::Key_Slash:
        return VTERM_KEY_KP_DIVIDE;
    case Qt::Key_Enter:
        return VTERM_KEY_KP_ENTER;
    case Qt::Key_Equal:
        return VTERM_KEY_KP_EQUAL;
    default:
        return VTERM_KEY_NONE;
    }
}

VTermKey specialKey(int qtKey) {
    if (qtKey >= Qt::Key_F1 && qtKey <= Qt::Key_F35)
        return static_cast<VTermKey>(VTERM_KEY_FUNCTION(qtKey - Qt::Key_F1 + 1));
    switch (qtKey) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return VTERM_KEY_ENTER;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        return VTERM_KEY_TAB;
    case Qt::Key_Backspace:
        return VTERM_KEY_BACKSPACE;
    case Qt::Key_Escape:
        return VTERM_KEY_ESCAPE;
    case Qt::Key_Up:
        return VTERM_KEY_UP;
    case Qt::Key_Down:
        return VTERM_KEY_DOWN;
    case Qt::Key_Left:
        return VTERM_KEY_LEFT;
    case Qt::Key_Right:
        return VTERM_KEY_RIGHT;
    case Qt::Key_Insert:
        return VTERM_KEY_INS;
    case Qt::Key_Delete:
        return VTERM_KEY_DEL;
    case Qt::Key_Home:
        return VTERM_KEY_HOME;
    case Qt::Key_End:
        return VTERM_KEY_END;
    case Qt::Key_PageUp:
        return VTERM_KEY_PAGEUP;
    case Qt::Key_PageDown:
        return VTERM_KEY_PAGEDOWN;
    default:
        return VTERM_KEY_NONE;
    }
}

// The classic xterm control codes for Ctrl+key; libvterm would send CSI u for Ctrl+I/J/M/[,
// which shells do not read.
int controlByte(int qtKey) {
    if (qtKey >= Qt::Key_A && qtKey <= Qt::Key_Z)
        return qtKey - Qt::Key_A + 1;
    switch (qtKey) {
    case Qt::Key_Space:
    case Qt::Key_At:
    case Qt::Key_2:
        return 0x00;
    case Qt::Key_BracketLeft:
    case Qt::Key_3:
        return 0x1b;
    case Qt::Key_Backslash:
    case Qt::Key_4:
        return 0x1c;
    case Qt::Key_BracketRight:
    case Qt::Key_5:
        return 0x1d;
    case Qt::Key_AsciiCircum:
    case Qt::Key_6:
        return 0x1e;
    case Qt::Key_Underscore:
    case Qt::Key_Slash:
    case Qt::Key_7:
        return 0x1f;
    case Qt::Key_8:
        return 0x7f;
    default:
        return -1;
    }
}

} // namespace

bool writeKeyToVTerm(VTerm *vt, int qtKey, Qt::KeyboardModifiers mods, const QString &text) {
    VTermModifier mod = static_cast<VTermModifier>(toVTermModifier(mods));
    if (qtKey == Qt::Key_Backtab)
        mod = static_cast<VTermModifier>(mod | VTERM_MOD_SHIFT);

    if (mods & Qt::KeypadModifier) {
        const VTermKey key = keypadKey(qtKey);
        if (key != VTERM_KEY_NONE) {
            vterm_keyboard_key(vt, key, mod);
            return true;
        }
    }
    if (const VTermKey key = specialKey(qtKey); key != VTERM_KEY_NONE) {
        vterm_keyboard_key(vt, key, mod);
        return true;
    }
    if (mods & Qt::ControlModifier) {
        if (const int byte = controlByte(qtKey); byte >= 0) {
            // Alt is the ESC prefix; Ctrl+letter is the same byte whatever Shift says.
            vterm_keyboard_unichar(vt, static_cast<uint32_t>(byte),
                                   static_cast<VTermModifier>(mod & VTERM_MOD_ALT));
            return true;
        }
    }
    if (text.isEmpty())
        return false;
    const auto codePoints = text.toUcs4();
    for (const uint c : codePoints) {
        // Text already carries Shift; a control character in it (from an input method or a
        // Ctrl combination we do not map) goes out as it is.
        const int keep = c < 0x20 ? VTERM_MOD_ALT : (VTERM_MOD_ALT | VTERM_MOD_CTRL);
        vterm_keyboard_unichar(vt, c, static_cast<VTermModifier>(mod & keep));
    }
    return true;
}

} // namespace sbx
