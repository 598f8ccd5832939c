#include "models/monitor/resourcehistory.h"

#include "client/api/observejobs.h"

#include <algorithm>

namespace sbx {

void ResourceHistory::append(const Sample &sample) {
    // A clock step backwards would leave points out of order for the axis: start again.
    if (!m_samples.empty() && sample.time < m_samples.back().time)
        m_samples.clear();
    m_samples.push_back(sample);
    const QDateTime oldest = sample.time.addMSecs(-kWindowMs);
    while (m_samples.front().time < oldest)
        m_samples.pop_front();
}

void ResourceHistory::append(const ObserveSnapshot &snapshot) {
    Sample s;
    s.time = snapshot.capturedAt.isValid() ? snapshot.capturedAt : QDateTime::currentDateTimeUtc();
    s.cpuPct = snapshot.cpuPct;
    s.memBytes = snapshot.memCurrentBytes;
    s.memMaxBytes = snapshot.memMaxBytes;
    if (!snapshot.disks.isEmpty()) {
        s.diskUsedBytes = snapshot.disks.constFirst().usedBytes;
        s.diskTotalBytes = snapshot.disks.constFirst().totalBytes;
    }
    append(s);
}

QList<QPointF> ResourceHistory::cpuPoints() const {
    QList<QPointF> points;
    points.reserve(size());
    for (const Sample &s : m_samples) {
        if (s.cpuPct)
            points.append({double(s.time.toMSecsSinceEpoch()), *s.cpuPct});
    }
    return points;
}

QList<QPointF> ResourceHistory::memoryPoints(double divisor) const {
    QList<QPointF> points;
    points.reserve(size());
    for (const Sample &s : m_samples)
        points.append({double(s.time.toMSecsSinceEpoch()), double(s.memBytes) / divisor});
    return points;
}

QList<QPointF> ResourceHistory::diskPoints(double divisor) const {
    QList<QPointF> points;
    points.reserve(size());
    for (const Sample &s : m_samples)
        points.append({double(s.time.toMSecsSinceEpoch()), double(s.diskUsedBytes) / divisor});
    return points;
}

double ResourceHistory::maxCpu() const {
    double top = 0;
    for (const Sample &s : m_samples)
        top = std::max(top, s.cpuPct.value_or(0));
    return top;
}

qint64 ResourceHistory::maxMemory() const {
    qint64 top = 0;
    for (const Sample &s : m_samples)
        top = std::max(top, s.memBytes);
    return top;
}

} // namespace sbx
