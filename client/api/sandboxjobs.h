#pragma once

#include "client/api/apijob.h"
#include "client/api/sandboxtypes.h"

namespace sbx {

// GET /v1/sandbox: the sandbox's context. Also records the server's extensions on the client.
class GetContextJob final : public ApiJob {
    Q_OBJECT
public:
    explicit GetContextJob(SandboxClient *client);
    const SandboxContext &result() const { return m_result; }
Q_SIGNALS:
    void succeeded(const SandboxContext &context);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_result); }

private:
    SandboxContext m_result;
};

// Liveness: GET /v1/sandbox with a short timeout and no retry, timed.
class ProbeJob final : public ApiJob {
    Q_OBJECT
public:
    explicit ProbeJob(SandboxClient *client, int timeoutMs = 5000);
Q_SIGNALS:
    void succeeded(const ProbeResult &result);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_result); }

private:
    ProbeResult m_result;
};

// GET /llms.txt: the agent manual, as text.
class GetLlmsTxtJob final : public ApiJob {
    Q_OBJECT
public:
    explicit GetLlmsTxtJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const QString &text);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_text); }

private:
    QString m_text;
};

// POST /tickets: a one-time ticket for a URL that cannot carry headers. Not idempotent.
class MintTicketJob final : public ApiJob {
    Q_OBJECT
public:
    explicit MintTicketJob(SandboxClient *client);
Q_SIGNALS:
    void succeeded(const Ticket &ticket);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_ticket); }

private:
    Ticket m_ticket;
};

// Parses a GET /v1/sandbox body; exposed for fixture tests.
Status parseSandboxContext(const QByteArray &body, SandboxContext *out);

} // namespace sbx
