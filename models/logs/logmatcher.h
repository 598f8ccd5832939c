#pragma once

#include "models/logs/logclassify.h"

#include <QByteArrayView>
#include <QString>

#include <memory>

namespace sbx {

struct LogQuery {
    QString pattern;
    bool regex = false;
    bool caseSensitive = false;
    // A filter of the lines that do not match the pattern.
    bool invert = false;
    // Only lines of this level or worse (None: any line, with a level or not).
    LogLevel minLevel = LogLevel::None;
    // Something to look for: a pattern, a level, or both.
    bool isEmpty() const { return pattern.isEmpty() && minLevel == LogLevel::None; }
    bool operator==(const LogQuery &) const = default;
};

// A compiled search pattern (PCRE2, JIT where it can) over UTF-8 bytes: one mechanism for plain
// and regular-expression searches. Invalid UTF-8 in the text never fails a match. One matcher
// per thread: matching uses its own scratch space.
class LogMatcher final {
public:
    explicit LogMatcher(const LogQuery &query);
    ~LogMatcher();
    LogMatcher(const LogMatcher &) = delete;
    LogMatcher &operator=(const LogMatcher &) = delete;

    bool isValid() const { return m_code != nullptr; }
    // Why the pattern does not compile, for the search field.
    QString errorText() const { return m_error; }
    // True when the line's text holds a match.
    bool matches(QByteArrayView text) const;
    // Where the next match at or after from starts in text, -1 for none. A regex runs in
    // multi-line mode here, so ^ and $ work per line of a buffer of many lines.
    qint64 find(QByteArrayView text, qint64 from) const;

private:
    void *m_code = nullptr;      // pcre2_code_8
    void *m_matchData = nullptr; // pcre2_match_data_8
    bool m_jit = false;
    QString m_error;
};

} // namespace sbx
