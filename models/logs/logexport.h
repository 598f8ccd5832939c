#pragma once

#include "models/logs/lineset.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

namespace sbx {

class LogData;

// Writes a log, or only the lines of a filter, to a local file on a worker: into a ".part"
// file renamed at the end, so a full disk or a cancel leaves nothing half written behind.
class LogExport final : public QObject {
    Q_OBJECT
public:
    explicit LogExport(QObject *parent = nullptr);
    ~LogExport() override;

    // lines: only these (with their text, escapes removed); none: the whole log, bytes as they are.
    void start(const LogData *data, const QString &path, std::optional<LineSet> lines = {});
    void cancel();
    bool isRunning() const { return m_worker.joinable(); }

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    // Empty error: written whole.
    void finished(const QString &error);

private:
    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace sbx
