#pragma once

#include <QtGlobal>

#include <vector>

namespace sbx {

// A sorted set of line numbers kept as runs of consecutive lines, so a filter that keeps a few
// lines and one that keeps nearly all of them (an inverted filter) both stay small.
class LineSet final {
public:
    // Adds line, which must be greater than every line already in the set.
    void append(qint64 line);
    // Drops every line at or after line (a search that rescans a changed end).
    void truncate(qint64 line);
    void clear();

    qint64 count() const { return m_runs.empty() ? 0 : m_runs.back().before + m_runs.back().count; }
    bool isEmpty() const { return m_runs.empty(); }
    // The k-th line of the set; O(log runs).
    qint64 at(qint64 k) const;
    // The position of the first line at or after line (count() when there is none).
    qint64 lowerBound(qint64 line) const;
    bool contains(qint64 line) const;
    // The first line after line / the last line before it, or -1.
    qint64 next(qint64 line) const;
    qint64 previous(qint64 line) const;

private:
    struct Run {
        qint64 first = 0;
        qint64 count = 0;
        qint64 before = 0; // lines in the runs before this one
    };
    std::vector<Run> m_runs;
};

} // namespace sbx
