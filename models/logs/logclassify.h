#pragma once

#include <QByteArrayView>
#include <QtGlobal>

#include <optional>

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

// What a line's timestamp leaves out.
struct LogTimeContext {
    int year = 0;             // for syslog, glog and logcat times; 0: unknown, such lines give none
    int utcOffsetSeconds = 0; // for times written without an offset (east of UTC is positive)
};

// Milliseconds since the Unix epoch (UTC) of the line's timestamp, or std::nullopt. The
// timestamp is looked for at the start of the line (after an optional "<N>" and "["), in a
// logfmt ts=/time= first field, and in the top-level fields of a line that is a JSON object;
// never in the middle of prose. The forms are listed in logclassify.cpp.
std::optional<qint64> parseLogTime(QByteArrayView line, const LogTimeContext &context);

} // namespace sbx
