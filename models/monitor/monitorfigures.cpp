#include "models/monitor/monitorfigures.h"

#include "models/monitor/monitorpoller.h"

#include "client/api/observejobs.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString percent(double value) {
    return MonitorFigures::tr("%1 %").arg(QLocale().toString(value, 'f', value < 10 ? 1 : 0));
}

QString clock(const QDateTime &t) {
    return QLocale().toString(t.toLocalTime(), u"HH:mm:ss"_s);
}

} // namespace

QString MonitorFigures::size(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString MonitorFigures::cpu(const ObserveSnapshot &s) {
    QString text = s.cpuPct ? tr("CPU %1 of one core").arg(percent(*s.cpuPct)) : tr("CPU –");
    if (s.cpuPeriods && s.cpuThrottled && *s.cpuPeriods > 0)
        text += tr(", throttled in %1 of %2 periods").arg(*s.cpuThrottled).arg(*s.cpuPeriods);
    return text;
}

QString MonitorFigures::memory(const ObserveSnapshot &s) {
    if (!s.memMaxBytes)
        return tr("Memory %1 (no limit)").arg(size(s.memCurrentBytes));
    const double pct = s.memUsagePct.value_or(
        *s.memMaxBytes > 0 ? 100.0 * double(s.memCurrentBytes) / double(*s.memMaxBytes) : 0);
    return tr("Memory %1 of %2 (%3)")
        .arg(size(s.memCurrentBytes), size(*s.memMaxBytes), percent(pct));
}

QString MonitorFigures::disk(const ObserveSnapshot &s) {
    if (s.disks.isEmpty())
        return tr("Disk –");
    const ObserveDisk &d = s.disks.constFirst();
    QString text =
        tr("Disk %1 of %2 (%3)").arg(size(d.usedBytes), size(d.totalBytes), percent(d.usagePct));
    if (d.inodeUsagePct)
        text += tr(", inodes %1").arg(percent(*d.inodeUsagePct));
    return text;
}

QString MonitorFigures::oom(const ObserveSnapshot &s) {
    if (!s.oom && !s.oomKill)
        return {};
    return tr("OOM events %1, OOM kills %2").arg(s.oom.value_or(0)).arg(s.oomKill.value_or(0));
}

QString MonitorFigures::source(const ObserveSnapshot &s) {
    if (s.source == "cgroup"_L1)
        return tr("Source: cgroup of the sandbox");
    if (s.source == "process_tree"_L1) {
        if (s.processCount)
            return tr("Source: sum over the sandbox's processes (%1 now)").arg(*s.processCount);
        return tr("Source: sum over the sandbox's processes");
    }
    if (s.source == "docker_stats"_L1)
        return tr("Source: Docker stats");
    if (s.source == QLatin1String(MonitorPoller::kFallbackSource)) {
        const QString text =
            tr("Source: the container engine's stats (the sandbox has no observe endpoints)");
        return s.processCount ? tr("%1, %2 processes").arg(text).arg(*s.processCount) : text;
    }
    return tr("Source: not stated by the sandbox");
}

QString MonitorFigures::capture(const ObserveStatus &status) {
    if (!status.running)
        return tr("No capture running");
    QString text = status.mode == "guardrail"_L1 ? tr("Guardrail running") : tr("Capture running");
    if (status.startedAt.isValid())
        text += tr(" since %1").arg(clock(status.startedAt));
    if (status.endsAt.isValid())
        text += tr(", until %1").arg(clock(status.endsAt));
    if (status.intervalSeconds > 0)
        text += tr(", every %1 s").arg(QLocale().toString(status.intervalSeconds));
    return text;
}

} // namespace sbx
