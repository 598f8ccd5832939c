#include "client/api/jupyterjobs.h"

#include "client/api/envelope.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QUrl>
#include <QtConcurrent>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

constexpr qsizetype kAsyncParseBytes = 128 * 1024;
// Beyond the code's own timeout: the kernel's start and the answer's transfer.
constexpr int kExecuteSlackMs = 90000;
// A kernel takes seconds to start; sandbox-server gives it 60 s.
constexpr int kCreateTimeoutMs = 90000;

// A string, or nbformat's list of lines joined.
QString joinedText(const json &j) {
    if (j.is_string())
        return QString::fromStdString(j.get<std::string>());
    if (!j.is_array())
        return {};
    std::string text;
    for (const json &line : j) {
        if (line.is_string())
            text += line.get_ref<const std::string &>();
    }
    return QString::fromStdString(text);
}

bool isJsonMime(const std::string &mime) {
    return mime == "application/json" ||
           (mime.starts_with("application/") && mime.ends_with("+json"));
}

// A mime bundle with its multi-line strings joined; JSON mime types kept as they are.
json joinedBundle(const json &j) {
    json bundle = json::object();
    if (!j.is_object())
        return bundle;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!isJsonMime(it.key()) && it->is_array())
            bundle[it.key()] = joinedText(*it).toStdString();
        else
            bundle[it.key()] = *it;
    }
    return bundle;
}

json objectOr(const json &j) {
    return j.is_object() ? j : json::object();
}

ApiRequest post(const QString &path, const json &body, bool idempotent = false) {
    return ApiRequest::postJson(path, QByteArray::fromStdString(body.dump()), idempotent);
}

QString sessionPath(const QString &sessionId) {
    return u"v1/jupyter/sessions/"_s + QString::fromLatin1(QUrl::toPercentEncoding(sessionId));
}

} // namespace

QString CodeOutput::typeName() const {
    switch (kind) {
    case Kind::Stream:
        return u"stream"_s;
    case Kind::ExecuteResult:
        return u"execute_result"_s;
    case Kind::DisplayData:
        return u"display_data"_s;
    case Kind::Error:
        return u"error"_s;
    case Kind::Other:
        break;
    }
    return jsonString(raw, "output_type");
}

CodeOutput parseCodeOutput(const json &j) {
    CodeOutput output;
    const QString type = jsonString(j, "output_type");
    if (type == "stream"_L1) {
        output.kind = CodeOutput::Kind::Stream;
        output.streamName = jsonString(j, "name", u"stdout"_s);
        output.text = joinedText(jsonChild(j, "text"));
    } else if (type == "execute_result"_L1 || type == "display_data"_L1) {
        output.kind = type == "execute_result"_L1 ? CodeOutput::Kind::ExecuteResult
                                                  : CodeOutput::Kind::DisplayData;
        output.data = joinedBundle(jsonChild(j, "data"));
        output.metadata = objectOr(jsonChild(j, "metadata"));
        if (const json &count = jsonChild(j, "execution_count"); count.is_number_integer())
            output.executionCount = count.get<int>();
    } else if (type == "error"_L1) {
        output.kind = CodeOutput::Kind::Error;
        output.ename = jsonString(j, "ename");
        output.evalue = jsonString(j, "evalue");
        output.traceback = jsonStringList(j, "traceback");
    } else {
        output.kind = CodeOutput::Kind::Other;
        output.raw = j.is_object() ? j : json::object();
    }
    return output;
}

QList<CodeOutput> parseCodeOutputs(const json &array) {
    QList<CodeOutput> outputs;
    if (!array.is_array())
        return outputs;
    for (const json &item : array) {
        if (item.is_object())
            outputs.append(parseCodeOutput(item));
    }
    return outputs;
}

bool isNoCodeApi(const Status &status) {
    return status.kind == Status::Kind::NotFound && status.httpStatus == 404;
}

std::pair<Status, JupyterExecution> parseJupyterExecution(const QByteArray &body) {
    JupyterExecution execution;
    Envelope envelope;
    Status status = parseEnvelope(body, u"POST /v1/jupyter/execute"_s, &envelope);
    const json &d = envelope.data;
    // success:false with data: the code ran and its kernel died, or its session was shut down;
    // the outputs so far are the person's to see.
    if (!status.ok() &&
        !(status.kind == Status::Kind::Server && d.is_object() && d.contains("outputs")))
        return {status, execution};
    if (!d.is_object())
        return {Status::error(Status::Kind::BadResponse,
                              QCoreApplication::translate("sbx::JupyterJobs",
                                                          "The kernel's answer had no data.")),
                execution};
    execution.sessionId = jsonString(d, "session_id");
    execution.kernelName = jsonString(d, "kernel_name");
    execution.status = jsonString(d, "status");
    if (const json &count = jsonChild(d, "execution_count"); count.is_number_integer())
        execution.executionCount = count.get<int>();
    execution.outputs = parseCodeOutputs(jsonChild(d, "outputs"));
    execution.msgId = jsonString(d, "msg_id");
    execution.kernelRestarted = jsonBool(d, "kernel_restarted");
    execution.message = envelope.message;
    if (!envelope.success) {
        execution.problem = status.message;
        if (execution.status.isEmpty() || execution.status == "ok"_L1)
            execution.status = u"error"_s;
    }
    return {Status::success(), execution};
}

JupyterExecuteJob::JupyterExecuteJob(SandboxClient *client, const JupyterExecuteRequest &request)
    : ApiJob(client, [&] {
        json body{{"code", request.code.toStdString()}, {"timeout", request.timeoutSeconds}};
        if (!request.sessionId.isEmpty())
            body["session_id"] = request.sessionId.toStdString();
        if (!request.kernelName.isEmpty())
            body["kernel_name"] = request.kernelName.toStdString();
        if (!request.cwd.isEmpty())
            body["cwd"] = request.cwd.toStdString();
        ApiRequest r = post(u"v1/jupyter/execute"_s, body);
        r.timeoutMs = request.timeoutSeconds * 1000 + kExecuteSlackMs;
        return r;
    }()) {}

Status JupyterExecuteJob::parseReply(const QByteArray &body, QNetworkReply *) {
    auto [status, execution] = parseJupyterExecution(body);
    m_execution = std::move(execution);
    return status;
}

bool JupyterExecuteJob::parseReplyAsync(const QByteArray &body) {
    if (body.size() < kAsyncParseBytes)
        return false;
    using Watcher = QFutureWatcher<std::pair<Status, JupyterExecution>>;
    m_watcher = new Watcher(this);
    connect(m_watcher, &Watcher::finished, this, [this] {
        auto [status, execution] = m_watcher->result();
        m_execution = std::move(execution);
        finishParse(status);
    });
    m_watcher->setFuture(QtConcurrent::run([body] { return parseJupyterExecution(body); }));
    return true;
}

JupyterInfoJob::JupyterInfoJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/jupyter/info"_s)) {}

Status JupyterInfoJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    const json &d = envelope.data;
    if (!d.is_object())
        return Status::error(Status::Kind::BadResponse, tr("The Jupyter info had no data."));
    m_info.defaultKernel = jsonString(d, "default_kernel");
    m_info.availableKernels = jsonStringList(d, "available_kernels");
    m_info.activeSessions = static_cast<int>(jsonInt(d, "active_sessions"));
    m_info.sessionTimeoutSeconds = static_cast<int>(jsonInt(d, "session_timeout_seconds"));
    m_info.maxSessions = static_cast<int>(jsonInt(d, "max_sessions"));
    m_info.description = jsonString(d, "description");
    m_info.kernelDetection = jsonString(d, "kernel_detection");
    m_info.problem = jsonString(d, "problem");
    if (const json &kernels = jsonChild(d, "kernels"); kernels.is_array()) {
        for (const json &k : kernels) {
            JupyterKernelInfo kernel;
            kernel.name = jsonString(k, "name");
            kernel.displayName = jsonString(k, "display_name");
            kernel.pythonVersion = jsonString(k, "python_version");
            if (!kernel.name.isEmpty())
                m_info.kernels.append(kernel);
        }
    }
    return Status::success();
}

JupyterSessionsJob::JupyterSessionsJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/jupyter/sessions"_s)) {}

Status JupyterSessionsJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    const json &sessions = jsonChild(envelope.data, "sessions");
    if (!sessions.is_object())
        return Status::error(Status::Kind::BadResponse, tr("The session list was not a map."));
    for (auto it = sessions.begin(); it != sessions.end(); ++it) {
        JupyterSessionInfo info;
        info.id = QString::fromStdString(it.key());
        info.kernelName = jsonString(*it, "kernel_name");
        info.lastUsed = jsonDouble(*it, "last_used");
        info.ageSeconds = jsonInt(*it, "age_seconds");
        info.state = jsonString(*it, "state");
        m_sessions.append(info);
    }
    return Status::success();
}

JupyterCreateSessionJob::JupyterCreateSessionJob(SandboxClient *client, const QString &sessionId,
                                                 const QString &kernelName, const QString &cwd)
    : ApiJob(client, [&] {
        json body = json::object();
        if (!sessionId.isEmpty())
            body["session_id"] = sessionId.toStdString();
        if (!kernelName.isEmpty())
            body["kernel_name"] = kernelName.toStdString();
        if (!cwd.isEmpty())
            body["cwd"] = cwd.toStdString();
        // Creating a session that exists answers it: safe to send again.
        ApiRequest r = post(u"v1/jupyter/sessions/create"_s, body, !sessionId.isEmpty());
        r.timeoutMs = kCreateTimeoutMs;
        return r;
    }()) {}

Status JupyterCreateSessionJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_sessionId = jsonString(envelope.data, "session_id");
    m_kernelName = jsonString(envelope.data, "kernel_name");
    if (m_sessionId.isEmpty())
        return Status::error(Status::Kind::BadResponse,
                             tr("The sandbox did not say which session it made."));
    return Status::success();
}

JupyterDeleteSessionJob::JupyterDeleteSessionJob(SandboxClient *client, const QString &sessionId)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(sessionId.isEmpty() ? u"v1/jupyter/sessions"_s
                                                           : sessionPath(sessionId));
        r.verb = "DELETE";
        return r;
    }()) {}

Status JupyterDeleteSessionJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    return parseEnvelope(body, what(), &envelope);
}

JupyterInterruptJob::JupyterInterruptJob(SandboxClient *client, const QString &sessionId)
    : ApiJob(client, post(sessionPath(sessionId) + u"/interrupt"_s, json::object())) {}

Status JupyterInterruptJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_interrupted = jsonBool(envelope.data, "interrupted");
    return Status::success();
}

} // namespace sbx
