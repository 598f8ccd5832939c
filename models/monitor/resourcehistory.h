#pragma once

#include <QDateTime>
#include <QList>
#include <QPointF>

#include <deque>
#include <optional>

namespace sbx {

struct ObserveSnapshot;

// The sandbox's figures over the last minutes, one sample per live poll, oldest first: what the
// Monitor charts draw. Samples older than the window (taken from the newest) are dropped.
class ResourceHistory final {
public:
    struct Sample {
        QDateTime time;
        std::optional<double> cpuPct;
        qint64 memBytes = 0;
        std::optional<qint64> memMaxBytes;
        qint64 diskUsedBytes = 0;
        qint64 diskTotalBytes = 0;
    };

    static constexpr qint64 kWindowMs = 15 * 60 * 1000;

    void append(const Sample &sample);
    // The snapshot's figures (the first disk row is the workspace's).
    void append(const ObserveSnapshot &snapshot);
    void clear() { m_samples.clear(); }

    int size() const { return static_cast<int>(m_samples.size()); }
    bool isEmpty() const { return m_samples.empty(); }
    const Sample &last() const { return m_samples.back(); }
    const Sample &at(int i) const { return m_samples.at(static_cast<std::size_t>(i)); }

    // Chart points: x is milliseconds since the epoch (QDateTimeAxis), y the figure. Samples
    // without a CPU figure (the first of a scan) are left out rather than drawn as 0.
    QList<QPointF> cpuPoints() const;
    // Bytes scaled by 1/divisor (1 MiB: MiB on the axis).
    QList<QPointF> memoryPoints(double divisor) const;
    QList<QPointF> diskPoints(double divisor) const;
    // The largest value of each series, for the axis range.
    double maxCpu() const;
    qint64 maxMemory() const;

private:
    std::deque<Sample> m_samples;
};

} // namespace sbx
