#pragma once

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QSize>
#include <QString>
#include <QStringList>

namespace sbx {

// The console's icons: the desktop's icon theme by freedesktop name first, and the console's own
// line icons (resources/icons/*.svg, drawn in the palette's text colour so that they follow a dark
// palette) for what the theme lacks, for sandbox states and when no theme is installed.
namespace Icons {

// The icons are drawn on a 16 px grid: at 16 (or 32) px their 1 px lines stay sharp, at a
// style's 24 px toolbar size they blur.
inline constexpr QSize kToolBarSize{16, 16};

// Every action and tab icon in resources/icons, by name ("start", "files", ...).
QStringList names();
// Once, after QApplication: where the platform names no usable icon theme (no desktop running),
// picks an installed one that suits the palette (breeze or breeze-dark, else Adwaita). Returns
// the theme in use, empty when none is installed.
QString setupTheme(const QPalette &palette);
// Off: every icon is the console's own (tests, and a preference for those who want them).
void setThemeEnabled(bool enabled);
// The freedesktop name the theme provides for name, empty when the console's own icon is used.
QString themeNameFor(const QString &name);
// The theme's icon for name, else ownIcon(name, palette). The default palette is the
// application's at the time of the call.
QIcon icon(const QString &name, const QPalette &palette);
QIcon icon(const QString &name);
// The console's own icon name, drawn with palette's WindowText (the Disabled group's for the
// disabled mode, HighlightedText for the selected mode); a null QIcon for an unknown name.
// Cached per name and colours.
QIcon ownIcon(const QString &name, const QPalette &palette);
// A sandbox state's shape ("online", "busy", "paused", "stopped", "failed") in colour.
QIcon stateIcon(const QString &state, const QColor &colour);
// The application's icon, in its own colours.
QIcon appIcon();

} // namespace Icons

} // namespace sbx
