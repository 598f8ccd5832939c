#pragma once

#include <QByteArrayView>
#include <QtGlobal>

namespace sbx {

// Severity of one log line; Error also covers fatal, critical, panic, alert and emerg.
enum class LogLevel : quint8 { None, Trace, Debug, Info, Warning, Error };

// How far into a line classifyLevel looks for the start of a level form. A form that starts
// inside the bound is read to its end, so no more than kLevelScanBytes + 64 bytes are examined.
inline constexpr qsizetype kLevelScanBytes = 512;

// The line's level from the common forms, None when it names none. line is one line's UTF-8
// text without escape sequences or line end. The earliest form in the line wins; the rules
// are listed in logclassify.cpp. Hot path (a level filter runs it on every line of a
// 10 M-line log): no allocation, no QString, no regex.
LogLevel classifyLevel(QByteArrayView line);

} // namespace sbx
