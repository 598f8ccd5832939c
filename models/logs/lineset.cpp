#include "models/logs/lineset.h"

#include <algorithm>

namespace sbx {

void LineSet::append(qint64 line) {
    if (!m_runs.empty()) {
        Run &last = m_runs.back();
        if (line == last.first + last.count) {
            ++last.count;
            return;
        }
    }
    m_runs.push_back({line, 1, count()});
}

void LineSet::truncate(qint64 line) {
    while (!m_runs.empty()) {
        Run &last = m_runs.back();
        if (last.first >= line) {
            m_runs.pop_back();
            continue;
        }
        last.count = std::min(last.count, line - last.first);
        break;
    }
}

void LineSet::clear() {
    m_runs.clear();
}

qint64 LineSet::at(qint64 k) const {
    if (k < 0 || k >= count())
        return -1;
    const auto it = std::upper_bound(m_runs.begin(), m_runs.end(), k,
                                     [](qint64 value, const Run &r) { return value < r.before; });
    const Run &run = *(it - 1);
    return run.first + (k - run.before);
}

qint64 LineSet::lowerBound(qint64 line) const {
    // The first run that ends after line.
    const auto it =
        std::upper_bound(m_runs.begin(), m_runs.end(), line,
                         [](qint64 value, const Run &r) { return value < r.first + r.count; });
    if (it == m_runs.end())
        return count();
    return it->before + std::max<qint64>(0, line - it->first);
}

bool LineSet::contains(qint64 line) const {
    const qint64 k = lowerBound(line);
    return k < count() && at(k) == line;
}

qint64 LineSet::next(qint64 line) const {
    const qint64 k = lowerBound(line + 1);
    return k < count() ? at(k) : -1;
}

qint64 LineSet::previous(qint64 line) const {
    const qint64 k = lowerBound(line);
    return k > 0 ? at(k - 1) : -1;
}

} // namespace sbx
