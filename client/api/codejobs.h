#pragma once

#include "client/api/jupyterjobs.h"

#include <QList>
#include <QMetaType>

#include <optional>

namespace sbx {

struct CodeExecuteRequest {
    QString language = QStringLiteral("python"); // python or javascript
    QString code;
    int timeoutSeconds = 30; // 1-300
    QString cwd;
    bool stateful = false; // python only: a Jupyter kernel session
    QString sessionId;
};

// What POST /v1/code/execute answered. status: ok, error or timeout (the server's word).
struct CodeExecution {
    QString language;
    QString status;
    QList<CodeOutput> outputs;
    QString stdoutText;
    QString stderrText;
    std::optional<int> exitCode;
    QStringList traceback;
    QString sessionId;
    QString message;
};

// One runtime of GET /v1/code/info.
struct CodeLanguageInfo {
    QString language;
    QString description;
    QString runtimeVersion;
    int defaultTimeout = 30;
    int maxTimeout = 300;
};

std::pair<Status, CodeExecution> parseCodeExecution(const QByteArray &body);

// POST /v1/code/execute: python or javascript, a fresh process per request unless stateful.
// Never retried; large answers are parsed on a worker.
class CodeExecuteJob final : public ApiJob {
    Q_OBJECT
public:
    CodeExecuteJob(SandboxClient *client, const CodeExecuteRequest &request);
Q_SIGNALS:
    void succeeded(const sbx::CodeExecution &execution);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_execution); }
    bool shouldRetry(const Status &) override { return false; }

private:
    CodeExecution m_execution;
    QFutureWatcher<std::pair<Status, CodeExecution>> *m_watcher = nullptr;
};

// GET /v1/code/info.
class CodeInfoJob final : public ApiJob {
    Q_OBJECT
public:
    explicit CodeInfoJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QList<sbx::CodeLanguageInfo> &languages);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_languages); }

private:
    QList<CodeLanguageInfo> m_languages;
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::CodeExecution)
