// Level classification of one log line: a pure function over its UTF-8 bytes.
//
// classifyLevel, earliest form wins (a line's own level comes before the text it quotes):
//  - at the start only: a syslog priority "<N>" (N % 8: 0-3 Error, 4 Warning, 5-6 Info,
//    7 Debug); glog/klog "E1201 15:" (I W E F, a valid MMDD, a space and the hour's "hh:");
//    Android logcat "E/Tag: ", "E/Tag( 123): " and, after a logcat time "[YYYY-]MM-DD
//    hh:mm:ss.mmm", the same or "pid tid E Tag" (V D I W E F A).
//  - anywhere in the first kLevelScanBytes: an upper-case word from kBareWords ("ERROR",
//    "WARN", ...); a level name in any case alone in brackets "[error]", "<Info>", "( warn )";
//    a level key (level, lvl, severity, loglevel, log_level, any case) followed by = or :,
//    optionally quoted on both sides ("level=warn", "\"level\": \"ERROR\""), whose value is a
//    level name, or in JSON ("\"level\":50") a bunyan/pino number 10..60.
//  - A word is a run of letters, digits, '_' and bytes >= 0x80 (UTF-8 letters), matched whole:
//    "TERRORS", "INFORMATIONAL", "ERROR_COUNT" and "ERRORé" name no level. A word touching '/'
//    is a path segment ("/ERROR/page"). Mixed- and lower-case bare words ("Error:", "no errors")
//    are prose; only brackets and level keys make them count.
#include "models/logs/logclassify.h"

#include <algorithm>
#include <array>
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
// '_' and multi-byte UTF-8 continue a word, so "ERROR_COUNT" and "ERRORé" are not ERROR.
constexpr bool isWordByte(char c) {
    return isAlpha(c) || isDigit(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
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
    for (const LevelName &entry : kBareWords) {
        if (word == QByteArrayView(entry.name.data(), qsizetype(entry.name.size())))
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

// A level name alone in brackets at i: "[error]", "<Info>", "( WARN )".
std::optional<LogLevel> bracketLevel(QByteArrayView line, qsizetype i) {
    const char open = line[i];
    const char close = open == '[' ? ']' : open == '<' ? '>' : ')';
    const qsizetype nameStart = skipSpaces(line, i + 1, kMaxPadding);
    const qsizetype nameEnd = skipLetters(line, nameStart, 16);
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
        if (c == '[' || c == '<' || c == '(') {
            if (const auto level = bracketLevel(window, i))
                return *level;
            ++i;
            continue;
        }
        if (!isWordByte(c)) {
            ++i;
            continue;
        }
        qsizetype end = i + 1;
        while (end < window.size() && isWordByte(window[end]))
            ++end;
        const QByteArrayView word = window.sliced(i, end - i);
        if (word.size() <= kMaxWordBytes) {
            if (isAlpha(c) && isOneOf(word, kLevelKeys)) {
                if (const auto level = keyedLevel(window, i, end))
                    return *level;
            }
            const bool pathSegment = (i > 0 && window[i - 1] == '/') || at(window, end) == '/';
            if (isUpper(c) && !pathSegment) {
                if (const auto level = bareWordLevel(word))
                    return *level;
            }
        }
        i = end;
    }
    return LogLevel::None;
}

} // namespace sbx
