#pragma once

#include "client/api/apijob.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QMetaType>
#include <QStringList>

#include <optional>
#include <utility>

template <typename T> class QFutureWatcher;

namespace sbx {

// One output of a kernel or a run, shaped as nbformat 4 stores it: AIO's JupyterOutput with
// the fields that do not apply to its type left out. Mime values are joined strings (base64 for
// images) or, for JSON mime types, JSON.
struct CodeOutput {
    enum class Kind { Stream, ExecuteResult, DisplayData, Error, Other };
    Kind kind = Kind::Stream;
    QString streamName;                                 // stream: stdout or stderr
    QString text;                                       // stream
    nlohmann::json data = nlohmann::json::object();     // execute_result, display_data
    nlohmann::json metadata = nlohmann::json::object(); // execute_result, display_data
    std::optional<int> executionCount;                  // execute_result
    QString ename;                                      // error
    QString evalue;
    QStringList traceback;
    // Other: the output as it came, kept whole for a notebook's round trip.
    nlohmann::json raw;

    // The nbformat name of kind ("stream", ...; Other: raw's output_type).
    QString typeName() const;
};

// Reads one output object (AIO's JupyterOutput or nbformat's; lists of lines are joined).
CodeOutput parseCodeOutput(const nlohmann::json &j);
QList<CodeOutput> parseCodeOutputs(const nlohmann::json &array);

struct JupyterExecuteRequest {
    QString code;
    QString sessionId;       // empty: a new session
    QString kernelName;      // empty: the session's, or the default
    int timeoutSeconds = 30; // 1-300, AIO's bounds
    QString cwd;
};

// What POST /v1/jupyter/execute answered. status: ok, error or timeout.
struct JupyterExecution {
    QString sessionId;
    QString kernelName;
    QString status;
    std::optional<int> executionCount;
    QList<CodeOutput> outputs;
    QString msgId;
    QString message;
    // The server says the session's kernel had died and was replaced: earlier state is lost.
    bool kernelRestarted = false;
    // success:false with the outputs so far (the kernel died, the session was shut down): the
    // envelope's message, for the person to read.
    QString problem;
};

// One kernel sandbox-server lists beyond AIO (`kernels`).
struct JupyterKernelInfo {
    QString name;
    QString displayName;
    QString pythonVersion;
};

// GET /v1/jupyter/info.
struct JupyterInfo {
    QString defaultKernel;
    QStringList availableKernels;
    int activeSessions = 0;
    int sessionTimeoutSeconds = 0;
    int maxSessions = 0;
    QString description;
    QString kernelDetection;
    QList<JupyterKernelInfo> kernels; // sandbox-server only; empty elsewhere
    QString problem;                  // sandbox-server: why there is no kernel
};

struct JupyterSessionInfo {
    QString id;
    QString kernelName;
    double lastUsed = 0; // AIO does not say its unit; sandbox-server: epoch seconds
    qint64 ageSeconds = 0;
    QString state; // sandbox-server: starting, idle, busy, dead; empty elsewhere
};

// Whether a failed /v1/jupyter or /v1/code call means the sandbox has no such API (404).
bool isNoCodeApi(const Status &status);

// The name of sandbox-server's extension POST /v1/jupyter/sessions/{id}/interrupt.
inline constexpr char kJupyterInterruptExtension[] = "jupyter-interrupt";

// Parses a /v1/jupyter/execute body (for tests and the worker).
std::pair<Status, JupyterExecution> parseJupyterExecution(const QByteArray &body);

// POST /v1/jupyter/execute. Never retried (the code would run twice); an answer with images
// is parsed on a worker. The exchange may be silent for the whole timeout, so the transfer
// timeout is the code's plus a margin.
class JupyterExecuteJob final : public ApiJob {
    Q_OBJECT
public:
    JupyterExecuteJob(SandboxClient *client, const JupyterExecuteRequest &request);
Q_SIGNALS:
    void succeeded(const sbx::JupyterExecution &execution);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_execution); }
    bool shouldRetry(const Status &) override { return false; }

private:
    JupyterExecution m_execution;
    QFutureWatcher<std::pair<Status, JupyterExecution>> *m_watcher = nullptr;
};

// GET /v1/jupyter/info.
class JupyterInfoJob final : public ApiJob {
    Q_OBJECT
public:
    explicit JupyterInfoJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const sbx::JupyterInfo &info);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_info); }

private:
    JupyterInfo m_info;
};

// GET /v1/jupyter/sessions.
class JupyterSessionsJob final : public ApiJob {
    Q_OBJECT
public:
    explicit JupyterSessionsJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QList<sbx::JupyterSessionInfo> &sessions);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_sessions); }

private:
    QList<JupyterSessionInfo> m_sessions;
};

// POST /v1/jupyter/sessions/create; answers once the kernel is ready (it may take seconds).
class JupyterCreateSessionJob final : public ApiJob {
    Q_OBJECT
public:
    JupyterCreateSessionJob(SandboxClient *client, const QString &sessionId,
                            const QString &kernelName, const QString &cwd = {});
Q_SIGNALS:
    // The session's id and kernel as the server names them.
    void succeeded(const QString &sessionId, const QString &kernelName);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_sessionId, m_kernelName); }

private:
    QString m_sessionId;
    QString m_kernelName;
};

// DELETE /v1/jupyter/sessions/{id}, or every session for an empty id.
class JupyterDeleteSessionJob final : public ApiJob {
    Q_OBJECT
public:
    JupyterDeleteSessionJob(SandboxClient *client, const QString &sessionId);
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(); }
};

// POST /v1/jupyter/sessions/{id}/interrupt, sandbox-server's extension "jupyter-interrupt"
// (AIO has no interrupt: a cell there stops only at its timeout). The running cell ends with
// KeyboardInterrupt and its own execute answer; the kernel keeps its state.
class JupyterInterruptJob final : public ApiJob {
    Q_OBJECT
public:
    JupyterInterruptJob(SandboxClient *client, const QString &sessionId);
Q_SIGNALS:
    // Whether code was running to be interrupted.
    void succeeded(bool interrupted);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_interrupted); }

private:
    bool m_interrupted = false;
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::CodeOutput)
Q_DECLARE_METATYPE(sbx::JupyterExecution)
Q_DECLARE_METATYPE(sbx::JupyterInfo)
