#pragma once

#include "client/transport/status.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QPointer>

class QTimer;

namespace sbx {

class ApiJob;
class SandboxClient;

// One change AIO's file watch reported (FileEvent).
struct FileChange {
    qint64 seq = 0;
    QString type; // create, write, remove, rename, chmod
    QString path;
    QString oldPath; // renames
    bool isDirectory = false;
    qint64 size = -1;
    QDateTime modified;
    QDateTime time;
};

// One answer of POST /v1/file/watch/{id}/poll (AIO sends it without the envelope).
struct FileWatchBatch {
    QList<FileChange> changes;
    qint64 cursor = 0;
    bool overflow = false;
};
// Tolerant of is_dir as a bool or 0/1 (AIO's rows come from SQLite).
std::pair<Status, FileWatchBatch> parseFileWatchBatch(const QByteArray &body);

// Watches a sandbox folder (recursively) through AIO's /v1/file/watch: creates the watcher,
// long-polls its events from a cursor (so a dropped connection loses nothing), says when events
// were lost (overflow: relist), makes a new watcher when the server lost its own, and deletes
// the watcher when it goes. SSE (/events) would carry the same events; the poll is documented
// and resumable, and needs no stream parser.
class FileWatch final : public QObject {
    Q_OBJECT
public:
    enum class State { Starting, Live, Reconnecting, Unavailable };

    FileWatch(SandboxClient *client, QString path, QObject *parent = nullptr);
    ~FileWatch() override;

    void start();
    State state() const { return m_state; }
    const QString &path() const { return m_path; }
    QString watcherId() const { return m_watcherId; }
    // Why it is not live (no file watch on this sandbox, the watcher limit, ...).
    QString problem() const { return m_problem; }
    void setDebounceMs(int ms) { m_debounceMs = ms; }
    void setRetryDelayMs(int ms) { m_retryDelayMs = ms; }

Q_SIGNALS:
    void stateChanged();
    void changes(const QList<FileChange> &changes);
    // Events were dropped: what is shown may be stale; list again.
    void overflowed();

private:
    void create();
    void poll();
    void retryLater();
    void retryNow();
    void setState(State state, const QString &problem = {});

    QPointer<SandboxClient> m_client;
    QString m_path;
    QString m_watcherId;
    QString m_problem;
    qint64 m_cursor = 0;
    State m_state = State::Starting;
    int m_debounceMs = 100;
    int m_retryDelayMs = 1000;
    QPointer<ApiJob> m_job;
    QTimer *m_retry;
};

} // namespace sbx
