#pragma once

#include "client/api/job.h"
#include "client/sandboxclient.h"
#include "client/transport/status.h"
#include "client/transport/statusmapping.h"

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>

class QNetworkReply;
class QTimer;

namespace sbx {

// Base of every REST call, a Job: finished(), then exactly one of the subclass's succeeded(...)
// or failed(Status), then it deletes itself. abort() emits only finished().
class ApiJob : public Job {
    Q_OBJECT
public:
    ApiJob(SandboxClient *client, ApiRequest request);
    ~ApiJob() override;

    void start() override;

    // Duration of the last attempt, from send to the last byte.
    qint64 elapsedMs() const { return m_elapsedMs; }
    int attempts() const { return m_attempts; }
    const ApiRequest &request() const { return m_request; }

Q_SIGNALS:
    // Bytes moved so far in the direction that matters (upload body, or download body).
    void progress(qint64 done, qint64 total);

protected:
    // Interprets a 2xx body: stores the result and returns Ok, or returns the error to report.
    // reply is null for an exchange that went through DirectExchange.
    virtual Status parseReply(const QByteArray &body, QNetworkReply *reply) = 0;
    void cancelWork() override;
    // Called with each attempt's reply before any byte of it arrives (a read buffer bound, ...).
    virtual void prepareReply(QNetworkReply *reply) { Q_UNUSED(reply); }
    // Streaming bodies: called as 2xx body bytes arrive; what it reads is not in parseReply's body.
    virtual void onBodyData(QNetworkReply *reply) { Q_UNUSED(reply); }
    // The same for a large answer read by a direct exchange (ApiRequest::largeAnswer): called
    // before each such attempt, the sink it returns takes the 2xx body's bytes on libcurl's
    // thread (tapBody() is not needed: the exchange keeps the inspector's share itself).
    virtual DirectExchange::BodySink directSink() { return {}; }
    // Large bodies may be parsed on a worker: return true and call finishParse() later.
    virtual bool parseReplyAsync(const QByteArray &body) {
        Q_UNUSED(body);
        return false;
    }
    void finishParse(const Status &parsed);
    // Checked before each attempt is sent (a local file to read or write, ...).
    virtual Status preflight() { return Status::success(); }
    // Stops the exchange now and reports status (a local write failed, ...).
    void failWith(const Status &status);
    // Whether to send again after a failure; the default is the retry table.
    virtual bool shouldRetry(const Status &status);
    ApiRequest &mutableRequest() { return m_request; }
    // A job that reads body bytes itself in onBodyData shows them to the traffic inspector here
    // (bounded, and only while it keeps bodies); a streamed download does not.
    void tapBody(const QByteArray &bytes);
    SandboxClient *client() const { return m_client; }
    // A short name for messages, e.g. "GET /v1/sandbox".
    QString what() const;

private:
    void sendAttempt();
    void onReplyFinished();
    void onDirectFinished(const DirectReply &direct);
    ReplyFacts factsOf(QNetworkReply::NetworkError error, int httpStatus,
                       const QByteArray &body) const;
    // Parses a success, retries or reports a failure: the end of every attempt.
    void conclude(const ReplyFacts &facts, const Status &status, QNetworkReply *reply);
    // After an upload cut before any answer: asks the server whether it refused the
    // credentials, and reports that if so, else status.
    void explainCut(const ReplyFacts &facts, const Status &status);
    static constexpr int kExplainTimeoutMs = 10000;

    QPointer<SandboxClient> m_client;
    ApiRequest m_request;
    // Guarded: the network manager (the client's child, deleted before its jobs) owns replies.
    QPointer<QNetworkReply> m_reply;
    DirectExchange *m_direct = nullptr; // the job's child, while a direct attempt runs
    QTimer *m_timeout = nullptr;
    QElapsedTimer m_clock;
    qint64 m_elapsedMs = 0;
    int m_attempts = 0;
    bool m_timedOut = false;
    // What onBodyData read of this attempt's body, for the inspector.
    QByteArray m_tapped;
    qint64 m_tappedBytes = 0;
    bool m_lengthDeclared = true; // the last answer had a Content-Length
    qint64 m_receivedBytes = 0;   // of its body
    qsizetype m_tapBound = 0;     // the recorder keeps no more of a body
    bool m_tapping = false;
};

} // namespace sbx
