#pragma once

#include <QColor>
#include <QList>
#include <QString>

#include <array>
#include <cstdint>

namespace sbx {

// A terminal's colours: the sixteen system colours programs pick by index (SGR 30-37, 90-97,
// 38;5;0-15) and the default foreground, background and cursor. Indexes 16-255 (the cube and
// the greys) and RGB colours mean the same in every scheme, as in xterm.
struct TerminalColorScheme {
    QString id;            // what the preferences store; never translated
    const char *name = ""; // QT_TRANSLATE_NOOP("TerminalColorScheme", ...): shown to a person
    std::array<QRgb, 16> system{};
    QRgb foreground = 0;
    QRgb background = 0;
    QRgb cursor = 0;

    // The colour a cell's colour (TerminalColor's encoding) stands for in this scheme;
    // fallback for the default. bold brightens the eight base colours, as xterm does.
    QColor color(uint32_t colour, const QColor &fallback, bool bold = false) const;
    QColor foregroundColor() const { return QColor::fromRgb(foreground); }
    QColor backgroundColor() const { return QColor::fromRgb(background); }
    QColor cursorColor() const { return QColor::fromRgb(cursor); }
    // The name in the user's language.
    QString displayName() const;
};

// Every scheme, the default first.
const QList<TerminalColorScheme> &terminalColorSchemes();
// The scheme with that id; the default one for an empty or unknown id (a setting written by
// a later version, or edited by hand).
const TerminalColorScheme &terminalColorScheme(const QString &id);
QString defaultTerminalColorScheme();

} // namespace sbx
