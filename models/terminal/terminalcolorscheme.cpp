#include "models/terminal/terminalcolorscheme.h"

#include "models/ansicolors.h"
#include "models/terminal/terminalcell.h"

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QList<TerminalColorScheme> makeSchemes() {
    QList<TerminalColorScheme> schemes;
    // The console's own dark look: xterm's system colours with a lighter blue, which reads
    // better on a dark background.
    schemes.append(
        {u"dark"_s,
         QT_TRANSLATE_NOOP("TerminalColorScheme", "Dark"),
         {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x3b78ff, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f,
          0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff},
         0xd8d8d8,
         0x1c1c1c,
         0xd8d8d8});
    // Dark text on white, with system colours dark enough to read on it (those of macOS
    // Terminal's Basic profile).
    schemes.append(
        {u"light"_s,
         QT_TRANSLATE_NOOP("TerminalColorScheme", "Light"),
         {0x000000, 0x990000, 0x00a600, 0x999900, 0x0000b2, 0xb200b2, 0x00a6b2, 0xbfbfbf, 0x666666,
          0xe50000, 0x00d900, 0xe5e500, 0x0000ff, 0xe500e5, 0x00e5e5, 0xe5e5e5},
         0x1c1c1c,
         0xfdfdfd,
         0x1c1c1c});
    // xterm's defaults: its system colours, black on white.
    schemes.append(
        {u"xterm"_s,
         QT_TRANSLATE_NOOP("TerminalColorScheme", "xterm"),
         {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f,
          0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff},
         0x000000,
         0xffffff,
         0x000000});
    return schemes;
}

} // namespace

QColor TerminalColorScheme::color(uint32_t colour, const QColor &fallback, bool bold) const {
    if (TerminalColor::kind(colour) == TerminalColor::kIndexedKind) {
        uint32_t index = colour & 0xff;
        if (bold && index < 8)
            index += 8;
        if (index < 16)
            return QColor::fromRgb(system[index]);
    }
    return ansiColor(colour, fallback, bold);
}

QString TerminalColorScheme::displayName() const {
    return QCoreApplication::translate("TerminalColorScheme", name);
}

const QList<TerminalColorScheme> &terminalColorSchemes() {
    static const QList<TerminalColorScheme> schemes = makeSchemes();
    return schemes;
}

const TerminalColorScheme &terminalColorScheme(const QString &id) {
    const QList<TerminalColorScheme> &schemes = terminalColorSchemes();
    for (const TerminalColorScheme &scheme : schemes)
        if (scheme.id == id)
            return scheme;
    return schemes.front();
}

QString defaultTerminalColorScheme() {
    return terminalColorSchemes().front().id;
}

} // namespace sbx
