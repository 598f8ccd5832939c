#pragma once

#include "models/logs/lineset.h"
#include "models/logs/logmatcher.h"

#include <QObject>
#include <QPointer>

class QTimer;

#include <atomic>
#include <memory>
#include <thread>

namespace sbx {

class LogData;

// Searches a whole LogData on a worker (never only what is on screen): the lines whose text
// (escapes removed) matches, or with invert those that do not. Results arrive as the worker
// goes; the search keeps up while the log grows and starts again when it is reset.
class LogSearch final : public QObject {
    Q_OBJECT
public:
    explicit LogSearch(LogData *data, QObject *parent = nullptr);
    ~LogSearch() override;

    // Starts over with query; false with errorText() for a pattern that does not compile.
    // An empty query clears the search.
    bool start(const LogQuery &query);
    // Stops where the worker is; what it found stays, and the log's growth no longer resumes it.
    void cancel();
    bool isStopped() const { return m_stopped; }
    bool isActive() const { return !m_query.isEmpty(); }
    // A worker searches, or the log grew and one is about to.
    bool isRunning() const;
    const LogQuery &query() const { return m_query; }
    QString errorText() const { return m_error; }
    // The lines found so far, in order.
    const LineSet &matches() const { return m_matches; }
    // Lines of the log searched so far.
    qint64 scannedLines() const { return m_scanned; }

Q_SIGNALS:
    void progress(qint64 linesDone, qint64 linesTotal);
    void matchesChanged(qint64 count);
    void finished();

private:
    void scanFrom(qint64 line);
    void chunkDone(quint64 generation, const std::vector<qint64> &found, qint64 scannedTo,
                   qint64 total);
    void workerDone(quint64 generation);
    void stopWorker();
    void onGrew(qint64 firstChanged, qint64 lineCount);

    QPointer<LogData> m_data;
    LogQuery m_query;
    QString m_error;
    LineSet m_matches;
    qint64 m_scanned = 0;
    qint64 m_rescanFrom = -1; // the log changed while the worker ran
    bool m_running = false;
    bool m_stopped = false;
    QTimer *m_growth; // gathers the growth of the log before a worker searches it
    quint64 m_generation = 0;
    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace sbx
