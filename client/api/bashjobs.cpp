#include "client/api/bashjobs.h"

#include "client/api/envelope.h"
#include "client/api/jsonskim.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QRegularExpression>
#include <QUrl>
#include <QtConcurrent>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

constexpr qsizetype kAsyncParseBytes = 128 * 1024;
// Beyond a long-poll's wait: the answer may take that long before its first byte.
constexpr int kTransferSlackMs = 20000;

BashCommandState commandState(const json &j) {
    BashCommandState state;
    state.sessionId = jsonString(j, "session_id");
    state.commandId = jsonString(j, "command_id");
    state.command = jsonString(j, "command");
    state.status = jsonString(j, "status");
    const json &code = jsonChild(j, "exit_code");
    if (code.is_number_integer())
        state.exitCode = code.get<int>();
    state.stderrText = jsonString(j, "stderr");
    return state;
}

QByteArray bytesOf(const json &j, const char *key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QByteArray::fromStdString(it->get<std::string>())
                                            : QByteArray();
}

ApiRequest post(const QString &path, const json &body, bool idempotent = false) {
    return ApiRequest::postJson(path, QByteArray::fromStdString(body.dump()), idempotent);
}

} // namespace

std::optional<QMap<QString, QString>> parseEnvironmentLine(const QString &text, QString *error) {
    QMap<QString, QString> environment;
    static const QRegularExpression name(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    // Words as a shell splits them: blanks separate, '...' and "..." quote, \\ escapes.
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (c == u'\\' && quote == u'"' && i + 1 < text.size())
                word += text.at(++i);
            else
                word += c;
        } else if (c == u'\'' || c == u'"') {
            quote = c;
            inWord = true;
        } else if (c == u'\\' && i + 1 < text.size()) {
            word += text.at(++i);
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull()) {
        if (error)
            *error = QCoreApplication::translate("sbx::BashJobs", "A quote is not closed.");
        return std::nullopt;
    }
    if (inWord)
        words << word;
    for (const QString &entry : std::as_const(words)) {
        const qsizetype eq = entry.indexOf(u'=');
        if (eq <= 0 || !name.match(entry.left(eq)).hasMatch()) {
            if (error)
                *error = QCoreApplication::translate("sbx::BashJobs", "\"%1\" is not NAME=value.")
                             .arg(entry);
            return std::nullopt;
        }
        environment.insert(entry.left(eq), entry.mid(eq + 1));
    }
    return environment;
}

std::pair<Status, BashOutputChunk> parseBashOutput(const QByteArray &body) {
    BashOutputChunk chunk;
    Envelope envelope;
    // The two outputs are most of the body: taken out fast, the rest parsed as usual.
    QList<QByteArray> outputs;
    QByteArray rest;
    const bool skimmed = skimJsonStrings(body, {"stdout", "stderr"}, outputs, rest);
    Status status = parseEnvelope(skimmed ? rest : body, u"POST /v1/bash/output"_s, &envelope);
    if (!status.ok())
        return {status, chunk};
    const json &d = envelope.data;
    if (!d.is_object())
        return {Status::error(Status::Kind::BadResponse,
                              QCoreApplication::translate("sbx::BashJobs",
                                                          "The command output had no data.")),
                chunk};
    chunk.stdoutBytes = skimmed ? std::move(outputs[0]) : bytesOf(d, "stdout");
    chunk.stderrBytes = skimmed ? std::move(outputs[1]) : bytesOf(d, "stderr");
    chunk.offset = jsonInt(d, "offset");
    chunk.stderrOffset = jsonInt(d, "stderr_offset");
    const json &command = jsonChild(d, "command");
    if (command.is_object()) {
        chunk.command = commandState(command);
        chunk.command.sessionId = jsonString(d, "session_id");
        chunk.hasCommand = true;
    }
    return {status, chunk};
}

BashExecJob::BashExecJob(SandboxClient *client, const BashExecRequest &request)
    : ApiJob(client, [&] {
        json body{{"command", request.command.toStdString()}, {"async_mode", request.asyncMode}};
        if (!request.sessionId.isEmpty())
            body["session_id"] = request.sessionId.toStdString();
        if (!request.execDir.isEmpty())
            body["exec_dir"] = request.execDir.toStdString();
        if (!request.environment.isEmpty()) {
            json env = json::object();
            for (auto it = request.environment.begin(); it != request.environment.end(); ++it)
                env[it.key().toStdString()] = it.value().toStdString();
            body["env"] = std::move(env);
        }
        if (request.hardTimeoutSeconds > 0)
            body["hard_timeout"] = request.hardTimeoutSeconds;
        return post(u"v1/bash/exec"_s, body);
    }()) {}

Status BashExecJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_state = commandState(envelope.data);
    if (m_state.commandId.isEmpty() || m_state.sessionId.isEmpty())
        return Status::error(Status::Kind::BadResponse,
                             tr("The sandbox did not say which command it started."));
    return Status::success();
}

BashOutputJob::BashOutputJob(SandboxClient *client, const QString &sessionId,
                             const QString &commandId, qint64 offset, qint64 stderrOffset,
                             int waitSeconds)
    : ApiJob(client, [&] {
        json body{{"session_id", sessionId.toStdString()},
                  {"offset", offset},
                  {"stderr_offset", stderrOffset},
                  {"wait", waitSeconds > 0}};
        if (!commandId.isEmpty())
            body["command_id"] = commandId.toStdString();
        if (waitSeconds > 0)
            body["wait_timeout"] = waitSeconds;
        ApiRequest r = post(u"v1/bash/output"_s, body, true);
        r.timeoutMs = waitSeconds * 1000 + kTransferSlackMs;
        return r;
    }()) {}

void BashOutputJob::prepareReply(QNetworkReply *) {
    m_body.clear();
}

void BashOutputJob::onBodyData(QNetworkReply *reply) {
    if (m_body.isEmpty()) {
        const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        if (length > 0 && length < (qint64(1) << 30))
            m_body.reserve(length);
    }
    const QByteArray bytes = reply->readAll();
    tapBody(bytes);
    m_body += bytes;
}

QByteArray BashOutputJob::wholeBody(const QByteArray &rest) {
    if (m_body.isEmpty())
        return rest;
    m_body += rest;
    return std::exchange(m_body, {});
}

Status BashOutputJob::parseReply(const QByteArray &rest, QNetworkReply *) {
    auto [status, chunk] = parseBashOutput(wholeBody(rest));
    m_chunk = std::move(chunk);
    return status;
}

bool BashOutputJob::parseReplyAsync(const QByteArray &rest) {
    if (m_body.size() + rest.size() < kAsyncParseBytes)
        return false;
    QByteArray body = wholeBody(rest);
    m_watcher = new QFutureWatcher<std::pair<Status, BashOutputChunk>>(this);
    connect(m_watcher, &QFutureWatcher<std::pair<Status, BashOutputChunk>>::finished, this, [this] {
        auto [status, chunk] = m_watcher->result();
        m_chunk = std::move(chunk);
        finishParse(status);
    });
    m_watcher->setFuture(QtConcurrent::run([body] { return parseBashOutput(body); }));
    return true;
}

BashActionJob::BashActionJob(SandboxClient *client, ApiRequest request)
    : ApiJob(client, std::move(request)) {}

namespace {
json commandTarget(const QString &sessionId, const QString &commandId) {
    json body{{"session_id", sessionId.toStdString()}};
    if (!commandId.isEmpty())
        body["command_id"] = commandId.toStdString();
    return body;
}
} // namespace

BashActionJob *BashActionJob::write(SandboxClient *client, const QString &sessionId,
                                    const QString &commandId, const QString &input) {
    json body = commandTarget(sessionId, commandId);
    body["input"] = input.toStdString();
    return new BashActionJob(client, post(u"v1/bash/write"_s, body));
}

BashActionJob *BashActionJob::kill(SandboxClient *client, const QString &sessionId,
                                   const QString &commandId, const QString &signal) {
    json body = commandTarget(sessionId, commandId);
    body["signal"] = signal.toStdString();
    return new BashActionJob(client, post(u"v1/bash/kill"_s, body));
}

BashActionJob *BashActionJob::closeSession(SandboxClient *client, const QString &sessionId) {
    return new BashActionJob(client, post(u"v1/bash/sessions/%1/close"_s.arg(QString::fromLatin1(
                                              QUrl::toPercentEncoding(sessionId))),
                                          json::object()));
}

Status BashActionJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    return parseEnvelope(body, what(), &envelope);
}

ListBashSessionsJob::ListBashSessionsJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/bash/sessions"_s)) {}

Status ListBashSessionsJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    if (!envelope.data.is_array())
        return Status::error(Status::Kind::BadResponse, tr("The session list was not a list."));
    for (const json &j : envelope.data) {
        if (!j.is_object())
            continue;
        BashSessionInfo info;
        info.id = jsonString(j, "session_id");
        info.status = jsonString(j, "status");
        info.workingDir = jsonString(j, "working_dir");
        info.createdAt = QDateTime::fromString(jsonString(j, "created_at"), Qt::ISODateWithMs);
        info.lastUsedAt = QDateTime::fromString(jsonString(j, "last_used_at"), Qt::ISODateWithMs);
        info.currentCommand = jsonString(j, "current_command");
        info.currentCommandId = jsonString(j, "current_command_id");
        info.commandCount = static_cast<int>(jsonInt(j, "command_count"));
        if (!info.id.isEmpty())
            m_sessions.append(info);
    }
    return Status::success();
}

} // namespace sbx
