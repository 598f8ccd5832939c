#pragma once

#include "models/logs/lineindex.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <shared_mutex>
#include <thread>

class QTimer;

namespace sbx {

// One log, never whole in memory: bytes in a file (a spool in the cache folder for what a
// source sends, or a local file read in place) and a compressed line index built as bytes come,
// on a worker for a file. Lines are served by range in O(count); the last line may still be
// growing (no line end yet) and counts as a line.
class LogData final : public QObject {
    Q_OBJECT
public:
    // Display reads stop here; fullLine() reads a longer line whole.
    static constexpr qint64 kMaxLineBytes = 64 * 1024;

    explicit LogData(QObject *parent = nullptr);
    ~LogData() override;
    LogData(const LogData &) = delete;
    LogData &operator=(const LogData &) = delete;

    // A spool for bytes that arrive (append); the cache folder holds it, unlinked at once so it
    // never outlives the console. False with errorText() when it cannot be made.
    bool openSpool();
    // Reads a local file in place, indexing it on a worker (indexProgress, then indexed).
    // follow: keep watching it for appended bytes, truncation and replacement.
    bool openFile(const QString &path, bool follow = false);
    // Bytes from a source: written to the spool and indexed at once.
    void append(QByteArrayView bytes);
    // The source starts again (truncated, replaced, reconnected): everything goes, reset says why.
    void restart(const QString &why);

    qint64 lineCount() const;
    qint64 byteSize() const;
    bool isIndexing() const { return m_indexing; }
    QString path() const { return m_path; }
    QString errorText() const { return m_error; }
    qint64 indexMemoryBytes() const;

    // count lines from first, each without its line end and cut at maxBytes; O(count).
    QList<QByteArray> lines(qint64 first, qint64 count, qint64 maxBytes = kMaxLineBytes) const;
    QByteArray line(qint64 index, qint64 maxBytes = kMaxLineBytes) const;
    // The line's length in bytes without its line end.
    qint64 lineLength(qint64 index) const;
    // The line that holds byte offset.
    qint64 lineAt(qint64 offset) const;
    // Start offset of a line (byteSize() past the end), for readers that scan bytes.
    qint64 lineStart(qint64 index) const;
    // Start and length (line end included) of count lines from first; thread-safe.
    std::vector<std::pair<qint64, qint64>> lineRanges(qint64 first, qint64 count) const;
    // Reads bytes [offset, offset + size) of the log; thread-safe (search workers use it).
    QByteArray readBytes(qint64 offset, qint64 size) const;
    // A consistent picture for a worker: the lines and bytes it may read.
    struct Snapshot {
        qint64 lines = 0;
        qint64 bytes = 0;
    };
    Snapshot snapshot() const;

Q_SIGNALS:
    // Lines from firstChanged on are new or longer (a growing last line); lineCount is the total.
    void grew(qint64 firstChanged, qint64 lineCount);
    void indexProgress(qint64 bytesDone, qint64 bytesTotal);
    void indexed();
    // Everything was dropped (a restart, a truncated or replaced file): why, for the status.
    void reset(const QString &why);
    void failed(const QString &message);

private:
    void closeStorage();
    void startIndexing(qint64 from, qint64 to);
    void indexerDone(qint64 end, qint64 tail, const QString &error);
    void indexerProgress(qint64 lines, qint64 done, qint64 total);
    void poll();
    void stopWorker();

    int m_fd = -1;
    QString m_path; // file mode: the file; spool mode: empty
    QString m_error;
    bool m_spool = false;
    bool m_indexing = false;
    QTimer *m_follow = nullptr;
    quint64 m_inode = 0;

    mutable std::shared_mutex m_lock; // guards m_index (workers add, readers decode)
    LineIndex m_index;
    // GUI-thread view of the log: what signals have announced.
    // Atomic: search workers read them through lineRanges().
    std::atomic<qint64> m_lines = 0; // complete lines announced
    std::atomic<qint64> m_tail = 0;  // bytes after the last line end (a line still growing)
    std::atomic<qint64> m_size = 0;  // bytes announced
    bool m_indexedOnce = false;      // indexed() is said once per file

    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace sbx
