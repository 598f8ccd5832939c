#include "client/api/codejobs.h"

#include "client/api/envelope.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QtConcurrent>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

constexpr qsizetype kAsyncParseBytes = 128 * 1024;
constexpr int kExecuteSlackMs = 60000;

} // namespace

std::pair<Status, CodeExecution> parseCodeExecution(const QByteArray &body) {
    CodeExecution execution;
    Envelope envelope;
    Status status = parseEnvelope(body, u"POST /v1/code/execute"_s, &envelope);
    const json &d = envelope.data;
    // As for Jupyter: success:false with outputs is code that ran and lost its kernel.
    if (!status.ok() &&
        !(status.kind == Status::Kind::Server && d.is_object() && d.contains("outputs")))
        return {status, execution};
    if (!d.is_object())
        return {Status::error(
                    Status::Kind::BadResponse,
                    QCoreApplication::translate("sbx::CodeJobs", "The run's answer had no data.")),
                execution};
    execution.language = jsonString(d, "language");
    execution.status = jsonString(d, "status");
    execution.outputs = parseCodeOutputs(jsonChild(d, "outputs"));
    execution.stdoutText = jsonString(d, "stdout");
    execution.stderrText = jsonString(d, "stderr");
    if (const json &code = jsonChild(d, "exit_code"); code.is_number_integer())
        execution.exitCode = code.get<int>();
    execution.traceback = jsonStringList(d, "traceback");
    execution.sessionId = jsonString(d, "session_id");
    execution.message = envelope.success ? envelope.message : status.message;
    if (!envelope.success && execution.status == "ok"_L1)
        execution.status = u"error"_s;
    return {Status::success(), execution};
}

CodeExecuteJob::CodeExecuteJob(SandboxClient *client, const CodeExecuteRequest &request)
    : ApiJob(client, [&] {
        json body{{"language", request.language.toStdString()},
                  {"code", request.code.toStdString()},
                  {"timeout", request.timeoutSeconds},
                  {"stateful", request.stateful}};
        if (!request.cwd.isEmpty())
            body["cwd"] = request.cwd.toStdString();
        if (!request.sessionId.isEmpty())
            body["session_id"] = request.sessionId.toStdString();
        ApiRequest r = ApiRequest::postJson(u"v1/code/execute"_s,
                                            QByteArray::fromStdString(body.dump()), false);
        r.timeoutMs = request.timeoutSeconds * 1000 + kExecuteSlackMs;
        return r;
    }()) {}

Status CodeExecuteJob::parseReply(const QByteArray &body, QNetworkReply *) {
    auto [status, execution] = parseCodeExecution(body);
    m_execution = std::move(execution);
    return status;
}

bool CodeExecuteJob::parseReplyAsync(const QByteArray &body) {
    if (body.size() < kAsyncParseBytes)
        return false;
    using Watcher = QFutureWatcher<std::pair<Status, CodeExecution>>;
    m_watcher = new Watcher(this);
    connect(m_watcher, &Watcher::finished, this, [this] {
        auto [status, execution] = m_watcher->result();
        m_execution = std::move(execution);
        finishParse(status);
    });
    m_watcher->setFuture(QtConcurrent::run([body] { return parseCodeExecution(body); }));
    return true;
}

CodeInfoJob::CodeInfoJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/code/info"_s)) {}

Status CodeInfoJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    const json &languages = jsonChild(envelope.data, "languages");
    if (!languages.is_array())
        return Status::error(Status::Kind::BadResponse, tr("The code info had no languages."));
    for (const json &l : languages) {
        CodeLanguageInfo info;
        info.language = jsonString(l, "language");
        info.description = jsonString(l, "description");
        info.runtimeVersion = jsonString(l, "runtime_version");
        info.defaultTimeout = static_cast<int>(jsonInt(l, "default_timeout", 30));
        info.maxTimeout = static_cast<int>(jsonInt(l, "max_timeout", 300));
        if (!info.language.isEmpty())
            m_languages.append(info);
    }
    return Status::success();
}

} // namespace sbx
