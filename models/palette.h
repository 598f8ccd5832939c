#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

namespace sbx {

// Named colour roles for states and banners, derived from the application's QPalette so that
// a dark theme gets dark banners and readable state colours. The one place colours are chosen.
namespace Palette {

enum class Role {
    BannerError,   // background of an error banner
    BannerWarning, // background of a warning or notice banner
    BannerBorder,  // its border
    TextError,     // error text on the window background
    TextSuccess,   // "connected" and other good news
    TextMuted,     // read-only or inactive rows
    SearchMatch,   // background of a search match
    StateOnline,
    StateBusy, // starting, stopping
    StatePaused,
    StateStopped,
    StateFailed, // auth failed, unreachable
    LevelError,  // a log line's level, in the log view's gutter
    LevelWarning,
    LevelInfo,
    LevelDebug,   // debug and trace
    CurrentLine,  // background of the current line of a log
    CurrentMatch, // background of the match a search stands on
    // Code cells: the editor's background and its syntax colours.
    CodeBackground,
    SyntaxKeyword,
    SyntaxBuiltin,
    SyntaxString,
    SyntaxNumber,
    SyntaxComment,
    SyntaxDefinition, // the name after def, class, function
};

// The colour of a role for palette (the application's by default).
QColor color(Role role, const QPalette &palette);
QColor color(Role role);
// A style sheet rule "#objectName { background: ...; border: ... }" for a banner.
QString bannerStyle(const QString &objectName, bool error);
// "color: #rrggbb;" for a label.
QString textStyle(Role role);
// True when the window background is dark.
bool isDark(const QPalette &palette);

} // namespace Palette

} // namespace sbx
