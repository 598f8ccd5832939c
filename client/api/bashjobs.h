#pragma once

#include "client/api/apijob.h"

#include <QDateTime>
#include <QList>
#include <QMap>

#include <optional>

template <typename T> class QFutureWatcher;

namespace sbx {

// A /v1/bash command as the server last described it. AIO statuses: running, completed,
// timed_out (hard_timeout), killed.
struct BashCommandState {
    QString sessionId;
    QString commandId;
    QString command;
    QString status;
    std::optional<int> exitCode;
    QString stderrText; // a sync exec's stderr; empty for async ones and output chunks
    bool running() const { return status == QLatin1String("running"); }
};

struct BashExecRequest {
    QString command;
    QString sessionId; // empty: a new session
    QString execDir;   // empty: the session's
    QMap<QString, QString> environment;
    bool asyncMode = true;
    double hardTimeoutSeconds = 0; // 0: none
};

// One answer of /v1/bash/output: what followed the offsets asked from, and where to go on.
struct BashOutputChunk {
    QByteArray stdoutBytes;
    QByteArray stderrBytes;
    qint64 offset = 0;
    qint64 stderrOffset = 0;
    BashCommandState command;
    bool hasCommand = false;
};

// One /v1/bash session as GET /v1/bash/sessions lists it.
struct BashSessionInfo {
    QString id;
    QString status;
    QString workingDir;
    QDateTime createdAt;
    QDateTime lastUsedAt;
    QString currentCommand;
    QString currentCommandId; // sandbox-server only; empty elsewhere
    int commandCount = 0;
};

// POST /v1/bash/exec.
class BashExecJob final : public ApiJob {
    Q_OBJECT
public:
    BashExecJob(SandboxClient *client, const BashExecRequest &request);
Q_SIGNALS:
    void succeeded(const BashCommandState &state);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_state); }

private:
    BashCommandState m_state;
};

// POST /v1/bash/output, long-polling up to waitSeconds (0: at once). Large answers are parsed on
// a worker so the GUI thread never holds a 4 MiB JSON document.
class BashOutputJob final : public ApiJob {
    Q_OBJECT
public:
    BashOutputJob(SandboxClient *client, const QString &sessionId, const QString &commandId,
                  qint64 offset, qint64 stderrOffset, int waitSeconds);
Q_SIGNALS:
    void succeeded(const BashOutputChunk &chunk);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    // Read as it arrives: QNAM's own buffer grows by small appends and costs a copy at the end.
    void prepareReply(QNetworkReply *reply) override;
    void onBodyData(QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_chunk); }
    // The follower resumes from its offsets itself; a retry here would hide the drop from it.
    bool shouldRetry(const Status &) override { return false; }

private:
    QByteArray wholeBody(const QByteArray &rest);

    BashOutputChunk m_chunk;
    QByteArray m_body;
    QFutureWatcher<std::pair<Status, BashOutputChunk>> *m_watcher = nullptr;
};

// A bash call whose answer is untyped: write to stdin, kill, close a session.
class BashActionJob final : public ApiJob {
    Q_OBJECT
public:
    // POST /v1/bash/write: text for a running command's stdin (a newline is the caller's).
    static BashActionJob *write(SandboxClient *client, const QString &sessionId,
                                const QString &commandId, const QString &input);
    // POST /v1/bash/kill with SIGINT, SIGTERM or SIGKILL (command_id is sandbox-server's
    // narrowing; AIO signals the session's running command).
    static BashActionJob *kill(SandboxClient *client, const QString &sessionId,
                               const QString &commandId, const QString &signal);
    // POST /v1/bash/sessions/{id}/close.
    static BashActionJob *closeSession(SandboxClient *client, const QString &sessionId);

Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(); }

private:
    BashActionJob(SandboxClient *client, ApiRequest request);
};

// GET /v1/bash/sessions.
class ListBashSessionsJob final : public ApiJob {
    Q_OBJECT
public:
    explicit ListBashSessionsJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QList<BashSessionInfo> &sessions);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_sessions); }

private:
    QList<BashSessionInfo> m_sessions;
};

// "NAME=value OTHER='two words'" as a person types it into an environment field; nullopt with
// *error set when an entry has no name or no '='.
std::optional<QMap<QString, QString>> parseEnvironmentLine(const QString &text, QString *error);

// Parses one /v1/bash/output body (for tests and the worker).
std::pair<Status, BashOutputChunk> parseBashOutput(const QByteArray &body);

} // namespace sbx

Q_DECLARE_METATYPE(sbx::BashCommandState)
Q_DECLARE_METATYPE(sbx::BashOutputChunk)
