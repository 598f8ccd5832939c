#pragma once

#include "client/api/apijob.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>

namespace sbx {

// One shell session as GET /v1/shell/sessions lists it.
struct ShellSessionInfo {
    QString id;
    QString workingDir;
    QDateTime createdAt;
    QDateTime lastUsedAt;
    qint64 ageSeconds = 0;
    QString status;
    QString currentCommand;
};

// What POST /v1/shell/exec answers. AIO statuses: running, completed, no_change_timeout,
// hard_timeout, terminated.
struct ShellCommandResult {
    QString sessionId;
    QString command;
    QString status;
    QString output;
    int exitCode = -1; // -1 while unknown
    QString message;   // the envelope's message (why a command is still "running", ...)
    bool completed() const { return status == QLatin1String("completed"); }
};

struct ShellExecRequest {
    QString command;
    QString sessionId; // empty: the server creates a session
    QString execDir;
    bool asyncMode = false;
    double timeoutSeconds = 0;     // 0: not sent
    double hardTimeoutSeconds = 0; // 0: not sent
};

// GET /v1/shell/sessions: the map of sessions, as a list sorted by creation.
class ListShellSessionsJob final : public ApiJob {
    Q_OBJECT
public:
    explicit ListShellSessionsJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QList<ShellSessionInfo> &sessions);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_sessions); }

private:
    QList<ShellSessionInfo> m_sessions;
};

// POST /v1/shell/sessions/create.
class CreateShellSessionJob final : public ApiJob {
    Q_OBJECT
public:
    CreateShellSessionJob(SandboxClient *client, const QString &id = {},
                          const QString &execDir = {});
Q_SIGNALS:
    void succeeded(const QString &sessionId, const QString &workingDir);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_sessionId, m_workingDir); }

private:
    QString m_sessionId;
    QString m_workingDir;
};

// DELETE /v1/shell/sessions/{id}: ends the shell for good.
class DeleteShellSessionJob final : public ApiJob {
    Q_OBJECT
public:
    DeleteShellSessionJob(SandboxClient *client, const QString &sessionId);
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(); }
};

// POST /v1/shell/exec. Requests name the session `id`, responses `session_id`.
class ShellExecJob final : public ApiJob {
    Q_OBJECT
public:
    ShellExecJob(SandboxClient *client, const ShellExecRequest &request);
Q_SIGNALS:
    void succeeded(const ShellCommandResult &result);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_result); }

private:
    ShellCommandResult m_result;
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::ShellCommandResult)
