#pragma once

#include "client/api/job.h"
#include "client/providers/engine/enginecontexts.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

class QThreadPool;

namespace sbx {

// One call to the Docker Engine API; the path is below the version prefix.
struct EngineRequest {
    QByteArray method = "GET";
    QString path;          // percent-encoded, e.g. "/containers/json?all=true"
    QByteArray body;       // sent as application/json when not empty
    int timeoutMs = 15000; // whole exchange; 0 means none (streams)

    static EngineRequest get(const QString &path, int timeoutMs = 15000);
    static EngineRequest post(const QString &path, const QByteArray &json = {},
                              int timeoutMs = 15000);
};

// What came back: an HTTP status and body, or a transport error.
struct EngineResponse {
    int httpStatus = 0; // 0 when no HTTP answer arrived
    QByteArray body;
    QString transportError; // for a person; set when httpStatus is 0
    bool cancelled = false;
    bool timedOut = false;
    bool tlsFailure = false; // the certificates, not the network: Status::Kind::Tls

    bool ok() const { return httpStatus >= 200 && httpStatus < 300; }
    // The console's one error type: the kind from the HTTP status or the transport, the message
    // from the transport error or the engine's "message".
    Status status() const;
};

// Where the console looks for an engine: $DOCKER_HOST (unix://), /var/run/docker.sock, then the
// podman sockets. Returns the first that exists, or the first candidate when none does.
QString defaultEngineSocket();

// The endpoint of a local socket.
EngineEndpoint unixEngineEndpoint(const QString &socketPath);

// Runs one exchange on the calling thread (blocking), over a Unix socket or tcp:// (TLS with the
// endpoint's CA, certificate and key; a failed verification is named). onBody, when given,
// receives 2xx body bytes as they arrive instead of collecting them; returning false from it
// ends the exchange. cancel, checked about once a second and on every chunk, aborts it. An
// ssh:// endpoint is reached through socketPath, the local socket its link forwards.
EngineResponse performEngineRequest(const EngineEndpoint &endpoint, const EngineRequest &request,
                                    const std::atomic<bool> *cancel = nullptr,
                                    const std::function<bool(QByteArrayView)> &onBody = {});

class EngineApi;

// One Engine API exchange as a Job: succeeded(response) for a 2xx answer, else failed(Status);
// response() holds the answer either way. abort() stops waiting for it.
class EngineJob final : public Job {
    Q_OBJECT
public:
    EngineJob(EngineApi *api, EngineRequest request);
    void start() override;
    const EngineResponse &response() const { return m_response; }

Q_SIGNALS:
    void succeeded(const EngineResponse &response);

protected:
    void emitSucceeded() override { Q_EMIT succeeded(m_response); }

private:
    friend class EngineApi;
    void answered(const EngineResponse &response);

    QPointer<EngineApi> m_api;
    EngineRequest m_request;
    EngineResponse m_response;
};

// Docker Engine API client over a Unix socket or tcp:// with TLS: libcurl exchanges run on a
// small thread pool, so the GUI thread never waits on the engine; answers come back on the
// caller's thread.
class EngineApi final : public QObject {
public:
    static constexpr auto kVersionPrefix = "/v1.41";
    using Callback = std::function<void(const EngineResponse &response)>;

    explicit EngineApi(EngineEndpoint endpoint, QObject *parent = nullptr);
    // Cancels the exchanges in flight and waits for their threads.
    ~EngineApi() override;

    const EngineEndpoint &endpoint() const { return m_endpoint; }
    QString socketPath() const { return m_endpoint.socketPath; }
    // A job for one exchange (not started).
    EngineJob *call(const EngineRequest &request);
    // Runs call(request); done gets its response, on context's thread, unless context is
    // destroyed first.
    void send(const EngineRequest &request, QObject *context, Callback done);

private:
    friend class EngineJob;
    void perform(EngineJob *job, const EngineRequest &request);

    EngineEndpoint m_endpoint;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QThreadPool *m_pool;
};

} // namespace sbx
