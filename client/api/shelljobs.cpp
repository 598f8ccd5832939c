#include "client/api/shelljobs.h"

#include "client/api/envelope.h"

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {

QDateTime isoTime(const json &j, const char *key) {
    return QDateTime::fromString(jsonString(j, key), Qt::ISODateWithMs);
}

int timeoutMsFor(const ShellExecRequest &r) {
    // A synchronous exec holds the reply until the command ends or its own timeout: wait longer.
    const double seconds = std::max({r.timeoutSeconds, r.hardTimeoutSeconds, 0.0});
    return r.asyncMode ? 30000 : static_cast<int>(std::max(60.0, seconds + 15) * 1000);
}

QByteArray execBody(const ShellExecRequest &r) {
    json body{{"command", r.command.toStdString()}, {"async_mode", r.asyncMode}};
    if (!r.sessionId.isEmpty())
        body["id"] = r.sessionId.toStdString();
    if (!r.execDir.isEmpty())
        body["exec_dir"] = r.execDir.toStdString();
    if (r.timeoutSeconds > 0)
        body["timeout"] = r.timeoutSeconds;
    if (r.hardTimeoutSeconds > 0)
        body["hard_timeout"] = r.hardTimeoutSeconds;
    return QByteArray::fromStdString(body.dump());
}

} // namespace

ListShellSessionsJob::ListShellSessionsJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/shell/sessions"_s)) {}

Status ListShellSessionsJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    const json &sessions = jsonChild(envelope.data, "sessions");
    if (!sessions.is_object())
        return Status::error(Status::Kind::BadResponse,
                             tr("%1: the reply has no sessions map").arg(what()));
    for (auto it = sessions.begin(); it != sessions.end(); ++it) {
        const json &info = it.value();
        m_sessions.append({QString::fromStdString(it.key()), jsonString(info, "working_dir"),
                           isoTime(info, "created_at"), isoTime(info, "last_used_at"),
                           jsonInt(info, "age_seconds"), jsonString(info, "status"),
                           jsonString(info, "current_command")});
    }
    std::sort(m_sessions.begin(), m_sessions.end(),
              [](const ShellSessionInfo &a, const ShellSessionInfo &b) {
                  return a.createdAt < b.createdAt;
              });
    return Status::success();
}

CreateShellSessionJob::CreateShellSessionJob(SandboxClient *client, const QString &id,
                                             const QString &execDir)
    : ApiJob(client, [&] {
        json body = json::object();
        if (!id.isEmpty())
            body["id"] = id.toStdString();
        if (!execDir.isEmpty())
            body["exec_dir"] = execDir.toStdString();
        return ApiRequest::postJson(u"v1/shell/sessions/create"_s,
                                    QByteArray::fromStdString(body.dump()));
    }()) {}

Status CreateShellSessionJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_sessionId = jsonString(envelope.data, "session_id");
    m_workingDir = jsonString(envelope.data, "working_dir");
    if (m_sessionId.isEmpty())
        return Status::error(Status::Kind::BadResponse,
                             tr("%1: the reply has no session_id").arg(what()));
    return Status::success();
}

DeleteShellSessionJob::DeleteShellSessionJob(SandboxClient *client, const QString &sessionId)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(u"v1/shell/sessions/"_s +
                                       QString::fromLatin1(QUrl::toPercentEncoding(sessionId)));
        r.verb = "DELETE";
        return r;
    }()) {}

Status DeleteShellSessionJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    return parseEnvelope(body, what(), &envelope);
}

ShellExecJob::ShellExecJob(SandboxClient *client, const ShellExecRequest &request)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::postJson(u"v1/shell/exec"_s, execBody(request));
        r.timeoutMs = timeoutMsFor(request);
        return r;
    }()) {}

Status ShellExecJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    const json &d = envelope.data;
    m_result.sessionId = jsonString(d, "session_id");
    m_result.command = jsonString(d, "command");
    m_result.status = jsonString(d, "status");
    m_result.output = jsonString(d, "output");
    m_result.exitCode = static_cast<int>(jsonInt(d, "exit_code", -1));
    m_result.message = envelope.message;
    if (m_result.status.isEmpty())
        return Status::error(Status::Kind::BadResponse,
                             tr("%1: the reply has no status").arg(what()));
    return Status::success();
}

} // namespace sbx
