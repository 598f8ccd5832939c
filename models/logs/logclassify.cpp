// Level and timestamp classification of one log line: pure functions over its UTF-8 bytes.
// Over 600 lines because the level and time readers share one set of file-local byte readers
// that the hot path inlines; the rules below are the contract the suite tests row by row.
//
// classifyLevel, earliest form wins (a line's own level comes before the text it quotes):
//  - at the start only: a syslog priority "<N>" (N % 8: 0-3 Error, 4 Warning, 5-6 Info,
//    7 Debug); glog/klog "E1201 15:" (I W E F, a valid MMDD, a space and the hour's "hh:");
//    Android logcat "E/Tag: ", "E/Tag( 123): " and, after a logcat time "[YYYY-]MM-DD
//    hh:mm:ss.mmm", the same or "pid tid E Tag" (V D I W E F A).
//  - anywhere in the first kLevelScanBytes: an upper-case word from kBareWords ("ERROR",
//    "WARN", ...); a level name in any case alone in brackets "[error]", "<Info>", "( warn )"
//    or after Apache's module "[core:error]";
//    a level key (level, lvl, severity, loglevel, log_level, any case) followed by = or :,
//    optionally quoted on both sides ("level=warn", "\"level\": \"ERROR\""), whose value is a
//    level name, or in JSON ("\"level\":50") a bunyan/pino number 10..60.
//  - A word is a run of letters, digits, '_' and bytes >= 0x80 (UTF-8 letters), matched whole:
//    "TERRORS", "INFORMATIONAL", "ERROR_COUNT" and "ERRORé" name no level. A word touching '/'
//    is a path segment ("/ERROR/page"). Mixed- and lower-case bare words ("Error:", "no errors")
//    are prose; only brackets and level keys make them count.
// parseLogTime, the first form that parses wins:
//  - at the start, after an optional "<N>" and "[": ISO 8601 / RFC 3339 "YYYY-MM-DD" (or
//    "YYYY/MM/DD", Go's log and nginx) then 'T' or ' ', "hh:mm:ss", an optional '.' or ','
//    fraction of any length (truncated to ms), an optional Z / +hh:mm / +hhmm / +hh; syslog
//    "Dec  1 15:52:14"; ctime and Apache "Tue Dec  1 15:52:14 2026"; glog "I1201 15:52:14.123456";
//    logcat "12-01 15:52:14.123".
//  - a logfmt line (starting "key="): the first ts/time/timestamp/@timestamp/t field of its
//    first kLogfmtFields fields, valued as an ISO time or an epoch number.
//  - a JSON object line: the first top-level ts/time/timestamp/@timestamp/t field that is an
//    epoch number (s, or ms above 1e11, us above 1e14, ns above 1e17), a string holding an ISO
//    time or such a number, or an object {"$date": ...} (MongoDB).
//  Times without an offset are in context.utcOffsetSeconds; forms without a year take
//  context.year and give nothing when it is 0. Invalid dates and times (month 13, Feb 30,
//  hour 24, second 60) give nothing.
#include "models/logs/logclassify.h"

#include <QDate>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string_view>

namespace sbx {

namespace {

// A form that starts inside kLevelScanBytes is read at most this far: the longest form,
// "\"log_level\" : \"informational\"" with padding, is shorter.
constexpr qsizetype kMaxFormBytes = 64;
// Spaces tolerated inside brackets and around a key's separator ("[INFO ]" from %-5p).
constexpr int kMaxPadding = 8;
// Longer words are neither level names nor level keys ("log_level", "CRITICAL").
constexpr qsizetype kMaxWordBytes = 13;
constexpr int kLogfmtFields = 8;
constexpr qint64 kUnixEpochJulianDay = 2440588;

struct LevelName {
    std::string_view name;
    LogLevel level;
};

// Bare words count only in upper case: in prose, "error" and "Notice" are ordinary words.
constexpr std::array kBareWords = {
    LevelName{"ERROR", LogLevel::Error},     LevelName{"ERR", LogLevel::Error},
    LevelName{"FATAL", LogLevel::Error},     LevelName{"CRITICAL", LogLevel::Error},
    LevelName{"CRIT", LogLevel::Error},      LevelName{"PANIC", LogLevel::Error},
    LevelName{"ALERT", LogLevel::Error},     LevelName{"EMERG", LogLevel::Error},
    LevelName{"SEVERE", LogLevel::Error},    LevelName{"WARN", LogLevel::Warning},
    LevelName{"WARNING", LogLevel::Warning}, LevelName{"INFO", LogLevel::Info},
    LevelName{"NOTICE", LogLevel::Info},     LevelName{"DEBUG", LogLevel::Debug},
    LevelName{"TRACE", LogLevel::Trace},
};

// Names in brackets and level values, compared ignoring case; adds the long spellings of
// syslog (RFC 5424) and .NET/Serilog, which only ever appear in those places.
constexpr std::array kLevelNames = {
    LevelName{"error", LogLevel::Error},        LevelName{"err", LogLevel::Error},
    LevelName{"fatal", LogLevel::Error},        LevelName{"critical", LogLevel::Error},
    LevelName{"crit", LogLevel::Error},         LevelName{"panic", LogLevel::Error},
    LevelName{"alert", LogLevel::Error},        LevelName{"emerg", LogLevel::Error},
    LevelName{"emergency", LogLevel::Error},    LevelName{"severe", LogLevel::Error},
    LevelName{"warn", LogLevel::Warning},       LevelName{"warning", LogLevel::Warning},
    LevelName{"info", LogLevel::Info},          LevelName{"information", LogLevel::Info},
    LevelName{"informational", LogLevel::Info}, LevelName{"notice", LogLevel::Info},
    LevelName{"debug", LogLevel::Debug},        LevelName{"trace", LogLevel::Trace},
    LevelName{"verbose", LogLevel::Trace},
};

constexpr std::array<std::string_view, 5> kLevelKeys = {"level", "lvl", "severity", "loglevel",
                                                        "log_level"};
constexpr std::array<std::string_view, 5> kTimeKeys = {"ts", "time", "timestamp", "@timestamp",
                                                       "t"};
constexpr std::array<std::string_view, 1> kNestedTimeKeys = {"$date"};

constexpr std::array<std::string_view, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                      "jul", "aug", "sep", "oct", "nov", "dec"};

constexpr bool isUpper(char c) {
    return c >= 'A' && c <= 'Z';
}
constexpr bool isLower(char c) {
    return c >= 'a' && c <= 'z';
}
constexpr bool isAlpha(char c) {
    return isUpper(c) || isLower(c);
}
constexpr bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
constexpr char toLower(char c) {
    return isUpper(c) ? char(c - 'A' + 'a') : c;
}
// One table lookup per byte in classifyLevel's scan instead of a chain of comparisons.
enum ByteClass : quint8 { kWordByte = 1, kOpenBracket = 2 };
constexpr std::array<quint8, 256> kByteClasses = [] {
    std::array<quint8, 256> classes{};
    for (int b = 0; b < 256; ++b) {
        const char c = char(b);
        // '_' and multi-byte UTF-8 continue a word, so "ERROR_COUNT" and "ERRORé" are not ERROR.
        if (isAlpha(c) || isDigit(c) || c == '_' || b >= 0x80)
            classes[size_t(b)] |= kWordByte;
        if (c == '[' || c == '<' || c == '(')
            classes[size_t(b)] |= kOpenBracket;
    }
    return classes;
}();
constexpr quint8 byteClass(char c) {
    return kByteClasses[static_cast<unsigned char>(c)];
}
constexpr bool isWordByte(char c) {
    return byteClass(c) & kWordByte;
}
constexpr bool isSpace(char c) {
    return c == ' ' || c == '\t';
}

// The byte at i, or 0 past the end: every reader below stops at a 0 it does not expect.
char at(QByteArrayView text, qsizetype i) {
    return i < text.size() ? text[i] : '\0';
}

bool equalsIgnoringCase(QByteArrayView word, std::string_view lowerName) {
    if (word.size() != qsizetype(lowerName.size()))
        return false;
    for (qsizetype i = 0; i < word.size(); ++i) {
        if (toLower(word[i]) != lowerName[size_t(i)])
            return false;
    }
    return true;
}

template <size_t N>
bool isOneOf(QByteArrayView word, const std::array<std::string_view, N> &lowerNames) {
    return std::any_of(lowerNames.begin(), lowerNames.end(),
                       [word](std::string_view name) { return equalsIgnoringCase(word, name); });
}

std::optional<LogLevel> namedLevel(QByteArrayView word) {
    for (const LevelName &entry : kLevelNames) {
        if (equalsIgnoringCase(word, entry.name))
            return entry.level;
    }
    return std::nullopt;
}

std::optional<LogLevel> bareWordLevel(QByteArrayView word) {
    // A string_view compare: QByteArrayView's operator== goes out of line to compareMemory.
    const std::string_view text(word.data(), size_t(word.size()));
    for (const LevelName &entry : kBareWords) {
        if (text == entry.name)
            return entry.level;
    }
    return std::nullopt;
}

qsizetype skipSpaces(QByteArrayView text, qsizetype i, int most) {
    for (int n = 0; n < most && isSpace(at(text, i)); ++n)
        ++i;
    return i;
}

qsizetype skipLetters(QByteArrayView text, qsizetype i, qsizetype most) {
    const qsizetype start = i;
    while (i - start < most && isAlpha(at(text, i)))
        ++i;
    return i;
}

qsizetype skipDigits(QByteArrayView text, qsizetype i) {
    while (isDigit(at(text, i)))
        ++i;
    return i;
}

// Exactly count digits at i as a number, advancing i; -1 when they are not there.
int readDigits(QByteArrayView text, qsizetype &i, int count) {
    int value = 0;
    for (int n = 0; n < count; ++n) {
        const char c = at(text, i + n);
        if (!isDigit(c))
            return -1;
        value = value * 10 + (c - '0');
    }
    i += count;
    return value;
}

std::optional<LogLevel> syslogPriorityLevel(int priority) {
    constexpr std::array<LogLevel, 8> kSeverity = {
        LogLevel::Error,   LogLevel::Error, LogLevel::Error, LogLevel::Error,
        LogLevel::Warning, LogLevel::Info,  LogLevel::Info,  LogLevel::Debug};
    return kSeverity[size_t(priority % 8)];
}

// "<N>" at i, N of 1..3 digits up to 191 (facility 23, severity 7); the index after it.
std::optional<qsizetype> syslogPriority(QByteArrayView line, int &priority) {
    if (at(line, 0) != '<')
        return std::nullopt;
    const qsizetype end = skipDigits(line, 1);
    if (end == 1 || end > 4 || at(line, end) != '>')
        return std::nullopt;
    priority = 0;
    for (qsizetype i = 1; i < end; ++i)
        priority = priority * 10 + (line[i] - '0');
    if (priority > 191)
        return std::nullopt;
    return end + 1;
}

std::optional<LogLevel> letterLevel(char c, std::string_view letters) {
    if (letters.find(c) == std::string_view::npos)
        return std::nullopt;
    switch (c) {
    case 'V':
        return LogLevel::Trace;
    case 'D':
        return LogLevel::Debug;
    case 'I':
        return LogLevel::Info;
    case 'W':
        return LogLevel::Warning;
    default: // E, F (fatal), A (assert)
        return LogLevel::Error;
    }
}

bool validMonthDay(int month, int day) {
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// glog/klog "Lmmdd hh:": the hour keeps "I1201 is a room number" out.
std::optional<LogLevel> glogLevel(QByteArrayView line) {
    qsizetype i = 1;
    const int month = readDigits(line, i, 2);
    const int day = readDigits(line, i, 2);
    if (!validMonthDay(month, day) || at(line, i) != ' ' || !isDigit(at(line, i + 1)) ||
        !isDigit(at(line, i + 2)) || at(line, i + 3) != ':')
        return std::nullopt;
    return letterLevel(at(line, 0), "IWEF");
}

// logcat "L/Tag: " or "L/Tag  ( 123): " at i; the tag has no blank, so "I/O error:" is prose.
std::optional<LogLevel> logcatTagLevel(QByteArrayView line, qsizetype i) {
    if (at(line, i + 1) != '/')
        return std::nullopt;
    const auto level = letterLevel(at(line, i), "VDIWEFA");
    if (!level)
        return std::nullopt;
    qsizetype p = i + 2;
    const qsizetype tagStart = p;
    while (p - tagStart < kMaxFormBytes) {
        const char c = at(line, p);
        if (c == '\0' || isSpace(c) || c == '(' || c == ':')
            break;
        ++p;
    }
    if (p == tagStart)
        return std::nullopt;
    p = skipSpaces(line, p, kMaxPadding);
    if (at(line, p) == '(') {
        p = skipSpaces(line, p + 1, kMaxPadding);
        const qsizetype digitsEnd = skipDigits(line, p);
        if (digitsEnd == p || at(line, digitsEnd) != ')')
            return std::nullopt;
        p = digitsEnd + 1;
    }
    return at(line, p) == ':' ? level : std::nullopt;
}

// "[YYYY-]MM-DD hh:mm:ss.mmm" at the start, logcat's time; the index after it.
std::optional<qsizetype> logcatTime(QByteArrayView line) {
    qsizetype i = 0;
    if (isDigit(at(line, 2)) && readDigits(line, i, 4) >= 0 && at(line, i) == '-')
        ++i;
    else
        i = 0;
    const int month = readDigits(line, i, 2);
    if (at(line, i++) != '-')
        return std::nullopt;
    const int day = readDigits(line, i, 2);
    if (!validMonthDay(month, day) || at(line, i++) != ' ')
        return std::nullopt;
    for (const char separator : {':', ':', '.'}) {
        if (readDigits(line, i, 2) < 0 || at(line, i++) != separator)
            return std::nullopt;
    }
    const qsizetype end = skipDigits(line, i);
    return end - i >= 3 ? std::optional(end) : std::nullopt;
}

std::optional<LogLevel> logcatLevel(QByteArrayView line) {
    const auto timeEnd = logcatTime(line);
    if (!timeEnd)
        return logcatTagLevel(line, 0);
    qsizetype p = skipSpaces(line, *timeEnd, kMaxPadding);
    if (p == *timeEnd)
        return std::nullopt;
    if (const auto level = logcatTagLevel(line, p))
        return level;
    // threadtime: "pid tid L Tag: msg"
    for (int field = 0; field < 2; ++field) {
        const qsizetype digitsEnd = skipDigits(line, p);
        const qsizetype next = skipSpaces(line, digitsEnd, kMaxPadding);
        if (digitsEnd == p || next == digitsEnd)
            return std::nullopt;
        p = next;
    }
    if (!isSpace(at(line, p + 1)))
        return std::nullopt;
    return letterLevel(at(line, p), "VDIWEFA");
}

std::optional<LogLevel> startLevel(QByteArrayView line) {
    int priority = 0;
    if (syslogPriority(line, priority))
        return syslogPriorityLevel(priority);
    const char first = at(line, 0);
    if (isUpper(first) && isDigit(at(line, 1))) {
        if (const auto level = glogLevel(line))
            return level;
    }
    if (isUpper(first) || isDigit(first))
        return logcatLevel(line);
    return std::nullopt;
}

// A level name alone in brackets at i: "[error]", "<Info>", "( WARN )", "[core:error]".
std::optional<LogLevel> bracketLevel(QByteArrayView line, qsizetype i) {
    const char open = line[i];
    const char close = open == '[' ? ']' : open == '<' ? '>' : ')';
    qsizetype nameStart = skipSpaces(line, i + 1, kMaxPadding);
    qsizetype nameEnd = skipLetters(line, nameStart, 16);
    // Apache's "[module:level]"; the module's 24 bytes keep the form inside kMaxFormBytes.
    qsizetype moduleEnd = nameStart;
    while (moduleEnd - nameStart < 24 && isWordByte(at(line, moduleEnd)))
        ++moduleEnd;
    if (open == '[' && moduleEnd > nameStart && at(line, moduleEnd) == ':') {
        nameStart = moduleEnd + 1;
        nameEnd = skipLetters(line, nameStart, 16);
    }
    if (at(line, skipSpaces(line, nameEnd, kMaxPadding)) != close)
        return std::nullopt;
    return namedLevel(line.sliced(nameStart, nameEnd - nameStart));
}

// After a level key [keyStart, keyEnd): "=warn", ": \"ERROR\"", "\":50" (JSON only).
std::optional<LogLevel> keyedLevel(QByteArrayView line, qsizetype keyStart, qsizetype keyEnd) {
    qsizetype p = keyEnd;
    const bool jsonKey = keyStart > 0 && line[keyStart - 1] == '"' && at(line, p) == '"';
    if (at(line, p) == '"' || at(line, p) == '\'')
        ++p;
    p = skipSpaces(line, p, kMaxPadding);
    const char separator = at(line, p);
    if (separator != '=' && separator != ':')
        return std::nullopt;
    p = skipSpaces(line, p + 1, kMaxPadding);
    const bool quoted = at(line, p) == '"' || at(line, p) == '\'';
    if (quoted)
        ++p;
    if (jsonKey && !quoted && separator == ':' && isDigit(at(line, p))) {
        // bunyan and pino: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal.
        qsizetype digitsAt = p;
        const int value = readDigits(line, digitsAt, 2);
        if (isDigit(at(line, digitsAt)) || value % 10 != 0 || value < 10 || value > 60)
            return std::nullopt;
        constexpr std::array<LogLevel, 6> kPino = {LogLevel::Trace, LogLevel::Debug,
                                                   LogLevel::Info,  LogLevel::Warning,
                                                   LogLevel::Error, LogLevel::Error};
        return kPino[size_t(value / 10 - 1)];
    }
    const qsizetype valueEnd = skipLetters(line, p, 16);
    if (isWordByte(at(line, valueEnd)))
        return std::nullopt;
    return namedLevel(line.sliced(p, valueEnd - p));
}

// Milliseconds since the epoch of a civil time at offsetSeconds east of UTC, if it exists.
std::optional<qint64> epochMs(int year, int month, int day, int hour, int minute, int second,
                              int ms, int offsetSeconds) {
    if (!QDate::isValid(year, month, day) || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    const qint64 days = QDate(year, month, day).toJulianDay() - kUnixEpochJulianDay;
    const qint64 seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offsetSeconds;
    return seconds * 1000 + ms;
}

struct Clock {
    int hour = 0;
    int minute = 0;
    int second = 0;
    int ms = 0;
};

// "hh:mm:ss" with an optional '.' or ',' fraction of any length, truncated to milliseconds.
bool readClock(QByteArrayView text, qsizetype &i, Clock &clock) {
    clock.hour = readDigits(text, i, 2);
    if (clock.hour < 0 || at(text, i++) != ':')
        return false;
    clock.minute = readDigits(text, i, 2);
    if (clock.minute < 0 || at(text, i++) != ':')
        return false;
    clock.second = readDigits(text, i, 2);
    if (clock.second < 0)
        return false;
    clock.ms = 0;
    if ((at(text, i) == '.' || at(text, i) == ',') && isDigit(at(text, i + 1))) {
        const qsizetype start = ++i;
        for (; isDigit(at(text, i)); ++i) {
            if (i - start < 3)
                clock.ms = clock.ms * 10 + (text[i] - '0');
        }
        for (qsizetype n = i - start; n < 3; ++n)
            clock.ms *= 10;
    }
    return true;
}

enum class Offset { Absent, Present, Invalid };

// "Z", "+hh:mm", "+hhmm" or "+hh" right after a time.
Offset readOffset(QByteArrayView text, qsizetype &i, int &seconds) {
    const char c = at(text, i);
    if (c == 'Z' || c == 'z') {
        ++i;
        seconds = 0;
        return Offset::Present;
    }
    if (c != '+' && c != '-')
        return Offset::Absent;
    ++i;
    const int hours = readDigits(text, i, 2);
    int minutes = 0;
    if (at(text, i) == ':')
        ++i;
    if (isDigit(at(text, i)))
        minutes = readDigits(text, i, 2);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59)
        return Offset::Invalid;
    seconds = (hours * 3600 + minutes * 60) * (c == '-' ? -1 : 1);
    return Offset::Present;
}

// A timestamp ends where its digits do: "15:52:145" is no time.
std::optional<qint64> ended(QByteArrayView text, qsizetype i, std::optional<qint64> value) {
    return isDigit(at(text, i)) ? std::nullopt : value;
}

std::optional<qint64> isoTime(QByteArrayView text, qsizetype i, const LogTimeContext &context) {
    const int year = readDigits(text, i, 4);
    const char dateSeparator = at(text, i);
    if (year < 0 || (dateSeparator != '-' && dateSeparator != '/'))
        return std::nullopt;
    ++i;
    const int month = readDigits(text, i, 2);
    if (month < 0 || at(text, i++) != dateSeparator)
        return std::nullopt;
    const int day = readDigits(text, i, 2);
    const char timeSeparator = at(text, i++);
    if (day < 0 || (timeSeparator != 'T' && timeSeparator != 't' && timeSeparator != ' '))
        return std::nullopt;
    Clock clock;
    if (!readClock(text, i, clock))
        return std::nullopt;
    int offset = context.utcOffsetSeconds;
    if (readOffset(text, i, offset) == Offset::Invalid)
        return std::nullopt;
    return ended(
        text, i,
        epochMs(year, month, day, clock.hour, clock.minute, clock.second, clock.ms, offset));
}

struct MonthDay {
    int month = 0;
    int day = 0;
};

// "Dec  1" or "Dec 01" and the space after it.
std::optional<MonthDay> readMonthDay(QByteArrayView text, qsizetype &i) {
    if (!isAlpha(at(text, i + 2)) || at(text, i + 3) != ' ')
        return std::nullopt;
    const auto month = std::find_if(kMonths.begin(), kMonths.end(), [&](std::string_view name) {
        return equalsIgnoringCase(text.sliced(i, 3), name);
    });
    if (month == kMonths.end())
        return std::nullopt;
    const qsizetype dayStart = skipSpaces(text, i + 4, 1);
    const qsizetype dayEnd = skipDigits(text, dayStart);
    if (dayEnd == dayStart || dayEnd - dayStart > 2 || at(text, dayEnd) != ' ')
        return std::nullopt;
    int day = 0;
    for (qsizetype p = dayStart; p < dayEnd; ++p)
        day = day * 10 + (text[p] - '0');
    i = dayEnd + 1;
    return MonthDay{int(month - kMonths.begin()) + 1, day};
}

// syslog's "Dec  1 15:52:14", in context's year and offset.
std::optional<qint64> syslogTime(QByteArrayView text, qsizetype i, const LogTimeContext &context) {
    const auto date = readMonthDay(text, i);
    Clock clock;
    if (context.year == 0 || !date || !readClock(text, i, clock))
        return std::nullopt;
    return ended(text, i,
                 epochMs(context.year, date->month, date->day, clock.hour, clock.minute,
                         clock.second, clock.ms, context.utcOffsetSeconds));
}

// ctime's "Tue Dec  1 15:52:14 2026", Apache's error log "[Tue Dec 01 15:52:14.123456 2026]".
std::optional<qint64> ctimeTime(QByteArrayView text, qsizetype i, const LogTimeContext &context) {
    if (!isAlpha(at(text, i + 2)) || at(text, i + 3) != ' ')
        return std::nullopt;
    i += 4;
    const auto date = readMonthDay(text, i);
    Clock clock;
    if (!date || !readClock(text, i, clock) || at(text, i++) != ' ')
        return std::nullopt;
    const int year = readDigits(text, i, 4);
    if (year < 0)
        return std::nullopt;
    return ended(text, i,
                 epochMs(year, date->month, date->day, clock.hour, clock.minute, clock.second,
                         clock.ms, context.utcOffsetSeconds));
}

// "MMDD hh:mm:ss..." (glog after its letter) or "MM-DD hh:mm:ss..." (logcat).
std::optional<qint64> monthDayTime(QByteArrayView text, qsizetype i, bool dashed,
                                   const LogTimeContext &context) {
    if (context.year == 0)
        return std::nullopt;
    const int month = readDigits(text, i, 2);
    if (dashed && at(text, i++) != '-')
        return std::nullopt;
    const int day = readDigits(text, i, 2);
    Clock clock;
    if (month < 0 || day < 0 || at(text, i++) != ' ' || !readClock(text, i, clock))
        return std::nullopt;
    return ended(text, i,
                 epochMs(context.year, month, day, clock.hour, clock.minute, clock.second, clock.ms,
                         context.utcOffsetSeconds));
}

// An epoch number at i ("1764604334.123", "1764604334123"), its unit told by its size.
std::optional<qint64> epochNumber(QByteArrayView text, qsizetype i) {
    const qsizetype intEnd = skipDigits(text, i);
    if (intEnd == i || intEnd - i > 19)
        return std::nullopt;
    // Unsigned: 19 digits may exceed qint64 before the check below.
    quint64 digits = 0;
    for (qsizetype p = i; p < intEnd; ++p)
        digits = digits * 10 + quint64(text[p] - '0');
    if (digits > quint64(std::numeric_limits<qint64>::max()))
        return std::nullopt;
    const qint64 value = qint64(digits);
    qsizetype end = intEnd;
    int fractionMs = 0;
    if (at(text, end) == '.') {
        const qsizetype fractionStart = ++end;
        end = skipDigits(text, end);
        for (qsizetype p = fractionStart; p < fractionStart + 3; ++p)
            fractionMs = fractionMs * 10 + (p < end ? text[p] - '0' : 0);
    }
    const char next = at(text, end);
    if (next == 'e' || next == 'E' || next == '.')
        return std::nullopt;
    if (value > 100'000'000'000'000'000LL)
        return value / 1'000'000;
    if (value > 100'000'000'000'000LL)
        return value / 1000;
    if (value > 100'000'000'000LL)
        return value;
    return value * 1000 + fractionMs;
}

// A time value as text: an ISO time, or an epoch number filling the whole string.
std::optional<qint64> textTime(QByteArrayView value, const LogTimeContext &context) {
    if (value.size() > 4 && isDigit(value[0]) && !isDigit(value[4]))
        return isoTime(value, 0, context);
    const bool numeric = !value.isEmpty() && std::all_of(value.begin(), value.end(), [](char c) {
        return isDigit(c) || c == '.';
    });
    return numeric ? epochNumber(value, 0) : std::nullopt;
}

// A JSON string at i (the opening quote); its raw contents, escapes left as written.
std::optional<QByteArrayView> jsonString(QByteArrayView text, qsizetype &i) {
    if (at(text, i) != '"')
        return std::nullopt;
    const qsizetype start = ++i;
    for (; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return text.sliced(start, i++ - start);
    }
    return std::nullopt;
}

qsizetype skipJsonSpace(QByteArrayView text, qsizetype i) {
    while (isSpace(at(text, i)) || at(text, i) == '\r' || at(text, i) == '\n')
        ++i;
    return i;
}

// Past one JSON value at i, nested objects and arrays included; text.size() when unclosed.
qsizetype skipJsonValue(QByteArrayView text, qsizetype i) {
    int depth = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
            if (!jsonString(text, i))
                return text.size();
            if (depth == 0)
                return i;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            if (--depth == 0)
                return i + 1;
        } else if (c == ',' && depth == 0) {
            return i;
        }
        ++i;
    }
    return i;
}

// The first time field of the JSON object at i; nested is the {"$date": ...} inside one, which
// goes no deeper, so a line of nested braces cannot exhaust the stack.
std::optional<qint64> jsonObjectTime(QByteArrayView text, qsizetype i, bool nested,
                                     const LogTimeContext &context) {
    if (at(text, i) != '{')
        return std::nullopt;
    ++i;
    while (true) {
        i = skipJsonSpace(text, i);
        const auto key = jsonString(text, i);
        i = skipJsonSpace(text, i);
        if (!key || at(text, i) != ':')
            return std::nullopt;
        i = skipJsonSpace(text, i + 1);
        if (nested ? isOneOf(*key, kNestedTimeKeys) : isOneOf(*key, kTimeKeys)) {
            std::optional<qint64> time;
            qsizetype valueAt = i;
            if (at(text, i) == '"') {
                if (const auto value = jsonString(text, valueAt))
                    time = textTime(*value, context);
            } else if (at(text, i) == '{') {
                if (!nested)
                    time = jsonObjectTime(text, i, true, context);
            } else {
                time = epochNumber(text, i);
            }
            if (time)
                return time;
        }
        i = skipJsonSpace(text, skipJsonValue(text, i));
        if (at(text, i) != ',')
            return std::nullopt;
        ++i;
    }
}

// logfmt: "level=info ts=2026-12-01T15:52:14Z msg=..." or "time=\"...\"".
std::optional<qint64> logfmtTime(QByteArrayView line, const LogTimeContext &context) {
    qsizetype i = 0;
    for (int field = 0; field < kLogfmtFields; ++field) {
        const qsizetype keyStart = i;
        while (isWordByte(at(line, i)) || at(line, i) == '@' || at(line, i) == '.')
            ++i;
        if (i == keyStart || at(line, i) != '=')
            return std::nullopt;
        const QByteArrayView key = line.sliced(keyStart, i - keyStart);
        ++i;
        QByteArrayView value;
        if (at(line, i) == '"') {
            const auto quoted = jsonString(line, i);
            if (!quoted)
                return std::nullopt;
            value = *quoted;
        } else {
            const qsizetype valueStart = i;
            while (i < line.size() && !isSpace(line[i]))
                ++i;
            value = line.sliced(valueStart, i - valueStart);
        }
        if (isOneOf(key, kTimeKeys)) {
            if (const auto time = textTime(value, context))
                return time;
        }
        i = skipSpaces(line, i, kMaxPadding);
    }
    return std::nullopt;
}

} // namespace

LogLevel classifyLevel(QByteArrayView line) {
    // Every reader below stops at the window's end. A form starting before kLevelScanBytes
    // ends, the byte that bounds it included, before the window does: a word the window cuts
    // is longer than kMaxWordBytes, so the cut never makes "ERRORS" read as ERROR.
    const QByteArrayView window =
        line.first(std::min(line.size(), kLevelScanBytes + kMaxFormBytes));
    if (const auto level = startLevel(window))
        return *level;
    const qsizetype scanEnd = std::min(window.size(), kLevelScanBytes);
    qsizetype i = 0;
    while (i < scanEnd) {
        const char c = window[i];
        const quint8 kind = byteClass(c);
        if (kind & kOpenBracket) {
            if (const auto level = bracketLevel(window, i))
                return *level;
            ++i;
            continue;
        }
        if (!(kind & kWordByte)) {
            ++i;
            continue;
        }
        qsizetype end = i + 1;
        while (end < window.size() && isWordByte(window[end]))
            ++end;
        const QByteArrayView word = window.sliced(i, end - i);
        if (word.size() <= kMaxWordBytes) {
            // Every level key starts with l or s: most words are rejected on their first byte.
            const char first = toLower(c);
            if ((first == 'l' || first == 's') && isOneOf(word, kLevelKeys)) {
                if (const auto level = keyedLevel(window, i, end))
                    return *level;
            }
            if (isUpper(c)) {
                const bool pathSegment = (i > 0 && window[i - 1] == '/') || at(window, end) == '/';
                const auto level = bareWordLevel(word);
                if (level && !pathSegment)
                    return *level;
            }
        }
        i = end;
    }
    return LogLevel::None;
}

std::optional<qint64> parseLogTime(QByteArrayView line, const LogTimeContext &context) {
    const qsizetype first = skipJsonSpace(line, 0);
    if (at(line, first) == '{')
        return jsonObjectTime(line, first, false, context);
    int priority = 0;
    qsizetype i = syslogPriority(line, priority).value_or(0);
    if (i > 0 && isDigit(at(line, i)) && at(line, i + 1) == ' ')
        i += 2; // RFC 5424's version: "<13>1 2026-12-01T..."
    if (at(line, i) == '[')
        ++i;
    const char c = at(line, i);
    if (isDigit(c)) {
        if (isDigit(at(line, i + 2)))
            return isoTime(line, i, context);
        return monthDayTime(line, i, true, context);
    }
    if (isUpper(c) && isDigit(at(line, i + 1)))
        return std::string_view("IWEF").find(c) != std::string_view::npos
                   ? monthDayTime(line, i + 1, false, context)
                   : std::nullopt;
    if (isAlpha(c) && isAlpha(at(line, i + 1))) {
        if (const auto time = syslogTime(line, i, context))
            return time;
        if (const auto time = ctimeTime(line, i, context))
            return time;
    }
    if (i == 0)
        return logfmtTime(line, context);
    return std::nullopt;
}

} // namespace sbx
