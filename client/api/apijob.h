#pragma once

#include "client/sandboxclient.h"
#include "client/transport/status.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QNetworkReply;
class QTimer;

// Base of every REST call: always emits finished(), then exactly one of the subclass's
// succeeded(...) or failed(Status), and deletes itself afterwards. abort() emits only finished().
class ApiJob : public QObject {
    Q_OBJECT
public:
    ApiJob(SandboxClient *client, ApiRequest request);
    ~ApiJob() override;

    void start();
    void abort();

    const Status &status() const { return m_status; }
    // Duration of the last attempt, from send to the last byte.
    qint64 elapsedMs() const { return m_elapsedMs; }
    int attempts() const { return m_attempts; }
    const ApiRequest &request() const { return m_request; }

Q_SIGNALS:
    void finished();
    void failed(const Status &status);

protected:
    // Interprets a 2xx body: stores the result and returns Ok, or returns the error to report.
    virtual Status parseReply(const QByteArray &body, QNetworkReply *reply) = 0;
    virtual void emitSucceeded() = 0;
    SandboxClient *client() const { return m_client; }
    // A short name for messages, e.g. "GET /v1/sandbox".
    QString what() const;

private:
    void sendAttempt();
    void onReplyFinished();
    void complete(const Status &status);

    QPointer<SandboxClient> m_client;
    ApiRequest m_request;
    QNetworkReply *m_reply = nullptr;
    QTimer *m_timeout = nullptr;
    QElapsedTimer m_clock;
    Status m_status;
    qint64 m_elapsedMs = 0;
    int m_attempts = 0;
    bool m_started = false;
    bool m_timedOut = false;
    bool m_done = false;
};
