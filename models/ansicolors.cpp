#include "models/ansicolors.h"

#include "models/terminal/terminalcell.h"

#include <array>

namespace sbx {

namespace {

// xterm's 256-colour palette: 16 system colours, a 6x6x6 cube, 24 greys.
const std::array<QRgb, 256> &xtermPalette() {
    static const std::array<QRgb, 256> palette = [] {
        std::array<QRgb, 256> p{};
        const QRgb system[16] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x3b78ff, 0xcd00cd,
                                 0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
                                 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
        for (int i = 0; i < 16; ++i)
            p[size_t(i)] = 0xff000000u | system[i];
        const int levels[6] = {0, 95, 135, 175, 215, 255};
        for (int i = 0; i < 216; ++i)
            p[size_t(16 + i)] = qRgb(levels[i / 36], levels[(i / 6) % 6], levels[i % 6]);
        for (int i = 0; i < 24; ++i)
            p[size_t(232 + i)] = qRgb(8 + i * 10, 8 + i * 10, 8 + i * 10);
        return p;
    }();
    return palette;
}

} // namespace

QColor ansiColor(uint32_t colour, const QColor &fallback, bool bold) {
    switch (TerminalColor::kind(colour)) {
    case TerminalColor::kIndexedKind: {
        uint32_t index = colour & 0xff;
        if (bold && index < 8)
            index += 8;
        return QColor::fromRgb(xtermPalette()[index]);
    }
    case TerminalColor::kRgbKind:
        return QColor::fromRgb(QRgb(0xff000000u | (colour & 0xffffff)));
    default:
        return fallback;
    }
}

} // namespace sbx
