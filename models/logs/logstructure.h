#pragma once

#include "models/logs/logclassify.h"

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace sbx {

class LogData;

// A line's text that is a JSON object (alone, or after a short prefix such as a container's
// timestamp), pretty-printed with its keys in their order; empty when it is not one.
QString prettyJsonLine(QByteArrayView text);

// The line's time (its timestamp as parseLogTime reads it, escapes removed), or nullopt.
std::optional<qint64> lineTime(const LogData &data, qint64 line, const LogTimeContext &context);

// The first line whose time is at or after ms, by bisection over a log whose times go forward
// (lines without a time take the next line's, looking ahead a few lines); lineCount() when
// every line is earlier. O(log n) line reads.
qint64 firstLineAtOrAfter(const LogData &data, qint64 ms, const LogTimeContext &context);

// The context for a log read on this machine now: this year, this machine's UTC offset.
LogTimeContext localTimeContext();

} // namespace sbx
