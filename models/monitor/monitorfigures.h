#pragma once

#include <QCoreApplication>
#include <QString>

namespace sbx {

struct ObserveSnapshot;
struct ObserveStatus;

// The Monitor's figures as a person reads them: each against its limit, and where it comes from.
class MonitorFigures final {
    Q_DECLARE_TR_FUNCTIONS(sbx::MonitorFigures)
public:
    // "CPU 12.5 % of one core", with throttling where the cgroup counts it.
    static QString cpu(const ObserveSnapshot &s);
    // "Memory 312 MB of 2 GB (15 %)", or "... (no limit)" when mem_max is null.
    static QString memory(const ObserveSnapshot &s);
    // The first (workspace) disk: "Disk 20 GB of 100 GB (20 %), inodes 3 %".
    static QString disk(const ObserveSnapshot &s);
    // OOM counters where the source has them; "" otherwise.
    static QString oom(const ObserveSnapshot &s);
    // "Source: cgroup of the sandbox" or "Source: sum over the sandbox's processes (N)".
    static QString source(const ObserveSnapshot &s);
    // A capture session's state: running since, until, how often.
    static QString capture(const ObserveStatus &status);
    static QString size(qint64 bytes);
};

} // namespace sbx
