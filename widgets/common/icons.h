#pragma once

#include <QIcon>
#include <QPalette>
#include <QSize>
#include <QString>
#include <QStringList>

namespace sbx {

// The console's own line icons (resources/icons/*.svg), drawn in the palette's text colour so
// that they follow a dark theme.
namespace Icons {

// The icons are drawn on a 16 px grid: at 16 (or 32) px their 1 px lines stay sharp, at a
// style's 24 px toolbar size they blur.
inline constexpr QSize kToolBarSize{16, 16};

// Every action and tab icon in resources/icons, by name ("start", "files", ...).
QStringList names();
// The icon name, drawn with palette's WindowText (the Disabled group's for the disabled mode,
// HighlightedText for the selected mode); a null QIcon for an unknown name. Cached per name and
// colours. The default is the application's palette at the time of the call.
QIcon icon(const QString &name, const QPalette &palette);
QIcon icon(const QString &name);
// The application's icon, in its own colours.
QIcon appIcon();

} // namespace Icons

} // namespace sbx
