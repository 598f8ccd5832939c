#pragma once

#include "client/api/bashjobs.h"
#include "client/providers/sandboxprovider.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QPointer>

class QTimer;

namespace sbx {

class SandboxClient;

// One command followed through /v1/bash: started here or an agent's, its output as a log
// (stdout and stderr in arrival order, each stderr line marked red), its state, input and stop.
// It long-polls /v1/bash/output from its byte offsets, so a dropped connection costs nothing:
// it waits and resumes where it was.
class BashRun final : public LogSource {
    Q_OBJECT
public:
    enum class Phase { Starting, Running, Reconnecting, Finished, Failed };

    // Runs request.command (async) when started.
    BashRun(SandboxClient *client, BashExecRequest request, QObject *parent = nullptr);
    // Follows a command that runs already (an agent's), from its first byte.
    BashRun(SandboxClient *client, const BashCommandState &existing, QObject *parent = nullptr);
    ~BashRun() override;

    void start() override;

    Phase phase() const { return m_phase; }
    bool active() const { return m_phase != Phase::Finished && m_phase != Phase::Failed; }
    const BashExecRequest &request() const { return m_request; }
    const BashCommandState &state() const { return m_state; }
    // "running", "exit 0", "killed (exit 130)", "reconnecting", "failed": for lists and titles.
    QString stateText() const;
    QString error() const { return m_error; }
    // True when the sandbox has no /v1/bash API at all (404 on exec).
    bool noBashApi() const { return m_noBashApi; }
    bool attached() const { return m_attached; }
    QDateTime startedAt() const { return m_startedAt; }
    qint64 durationMs() const;
    qint64 stdoutBytes() const { return m_offset; }
    qint64 stderrBytes() const { return m_stderrOffset; }

    // The signal the next stop() sends: SIGINT, then SIGTERM, then SIGKILL.
    QString nextStopSignal() const;
    // Sends nextStopSignal() and says so through notice().
    void stop();
    // Text for the command's stdin; add the newline yourself.
    void write(const QString &text);
    // How long to wait before a retry after the n-th failure in a row (ms), for tests.
    void setRetryDelays(QList<int> delaysMs) { m_retryDelays = std::move(delaysMs); }

Q_SIGNALS:
    void changed();
    // A line for the person: what was sent, that the connection dropped, that it resumed.
    void notice(const QString &text);

private:
    void poll();
    void onChunk(const BashOutputChunk &chunk);
    void onPollFailed(const Status &status);
    void emitStream(const QByteArray &bytes, bool isStderr);
    void flushOpenLine();
    void setPhase(Phase phase);
    void fail(const QString &why);

    QPointer<SandboxClient> m_client;
    BashExecRequest m_request;
    BashCommandState m_state;
    Phase m_phase = Phase::Starting;
    bool m_attached = false;
    bool m_noBashApi = false;
    QString m_error;
    QDateTime m_startedAt;
    QElapsedTimer m_clock;
    qint64 m_finishedMs = -1;
    qint64 m_offset = 0;
    qint64 m_stderrOffset = 0;
    // Where the log's last line stands: open (no newline yet) and from which stream.
    bool m_lineOpen = false;
    bool m_lineIsStderr = false;
    int m_stops = 0;
    int m_failures = 0;
    QList<int> m_retryDelays = {500, 1000, 2000, 4000, 5000};
    QPointer<BashOutputJob> m_poll;
    QTimer *m_retry;
};

} // namespace sbx
