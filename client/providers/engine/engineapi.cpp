#include "client/providers/engine/engineapi.h"

#include "client/transport/curlapi.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QThreadPool>
#include <QUrl>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// An error body is kept for its message; nothing the engine sends should be this large.
constexpr qsizetype kMaxBodyBytes = 64 * 1024 * 1024;
constexpr long kConnectTimeoutMs = 5000;

struct Transfer {
    const CurlApi *lib = nullptr;
    CURL *curl = nullptr;
    const std::atomic<bool> *cancel = nullptr;
    const std::function<bool(QByteArrayView)> *onBody = nullptr;
    EngineResponse *response = nullptr;
    bool stoppedByReader = false;
    bool overflow = false;
};

bool cancelled(const Transfer *transfer) {
    return transfer->cancel && transfer->cancel->load(std::memory_order_relaxed);
}

size_t onWrite(char *data, size_t size, size_t count, void *user) {
    auto *transfer = static_cast<Transfer *>(user);
    const size_t bytes = size * count;
    if (cancelled(transfer))
        return 0;
    long status = 0;
    transfer->lib->easyGetinfo(transfer->curl, CURLINFO_RESPONSE_CODE, &status);
    if (*transfer->onBody && status >= 200 && status < 300) {
        if (!(*transfer->onBody)(QByteArrayView(data, static_cast<qsizetype>(bytes)))) {
            transfer->stoppedByReader = true;
            return 0;
        }
        return bytes;
    }
    if (transfer->response->body.size() + static_cast<qsizetype>(bytes) > kMaxBodyBytes) {
        transfer->overflow = true;
        return 0;
    }
    transfer->response->body.append(data, static_cast<qsizetype>(bytes));
    return bytes;
}

int onProgress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return cancelled(static_cast<Transfer *>(user)) ? 1 : 0;
}

// A TLS 1.3 server refuses a missing client certificate after the handshake, with an alert
// that arrives as a read error.
bool refusedWithoutCertificate(const char *buffer) {
    return QByteArrayView(buffer).contains("certificate required");
}

// Or the server hangs up before its alert is read: over TLS without a client certificate, a
// connection closed at once most likely means the same.
bool closedWithoutCertificate(CURLcode code, const EngineEndpoint &endpoint) {
    return endpoint.kind == EngineEndpoint::Kind::Tcp && endpoint.tls &&
           endpoint.certFile.isEmpty() &&
           (code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR || code == CURLE_GOT_NOTHING);
}

bool isTlsFailure(CURLcode code, const char *buffer, const EngineEndpoint &endpoint) {
    return code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE ||
           code == CURLE_SSL_CERTPROBLEM || code == CURLE_SSL_CONNECT_ERROR ||
           refusedWithoutCertificate(buffer) || closedWithoutCertificate(code, endpoint);
}

// curl's own words for the failure (its error buffer), without its trailing newline.
QString curlDetail(CURLcode code, const char *buffer) {
    const QString detail = QString::fromUtf8(buffer).trimmed();
    return detail.isEmpty() ? QString::fromUtf8(curlApi()->easyStrerror(code)) : detail;
}

QString describeCurlError(CURLcode code, const EngineEndpoint &endpoint, int timeoutMs,
                          const char *buffer) {
    const QString where = endpoint.where();
    const QString detail = curlDetail(code, buffer);
    if (refusedWithoutCertificate(buffer) || closedWithoutCertificate(code, endpoint))
        return QCoreApplication::translate(
                   "sbx::EngineApi",
                   "The container engine at %1 requires a client certificate signed by its CA "
                   "(set the engine's certificate and key): %2")
            .arg(where, detail);
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        if (endpoint.kind == EngineEndpoint::Kind::Ssh)
            return QCoreApplication::translate(
                       "sbx::EngineApi", "The SSH link to %1 does not carry the engine socket now")
                .arg(where);
        if (endpoint.kind == EngineEndpoint::Kind::Unix && !QFileInfo::exists(endpoint.socketPath))
            return QCoreApplication::translate("sbx::EngineApi", "No container engine socket at %1")
                .arg(where);
        if (endpoint.kind == EngineEndpoint::Kind::Unix)
            return QCoreApplication::translate(
                       "sbx::EngineApi",
                       "The container engine at %1 refuses connections (is the service running, "
                       "and may this user use it?)")
                .arg(where);
        return QCoreApplication::translate(
                   "sbx::EngineApi",
                   "Nothing accepts connections at %1 (is the engine listening on that address "
                   "and port, and does a firewall let it through?)")
            .arg(where);
    case CURLE_COULDNT_RESOLVE_HOST:
        return QCoreApplication::translate("sbx::EngineApi", "The host of %1 is not known (%2)")
            .arg(where, detail);
    case CURLE_OPERATION_TIMEDOUT:
        return QCoreApplication::translate("sbx::EngineApi",
                                           "The container engine at %1 did not answer within %2 s")
            .arg(where)
            .arg(qMax(1, (timeoutMs ? timeoutMs : int(kConnectTimeoutMs)) / 1000));
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
        return QCoreApplication::translate("sbx::EngineApi",
                                           "The container engine at %1 closed the connection")
            .arg(where);
    case CURLE_PEER_FAILED_VERIFICATION:
        return QCoreApplication::translate(
                   "sbx::EngineApi",
                   "The certificate of the container engine at %1 failed verification: %2. Check "
                   "that %3 is the CA that signed it and that it names this host.")
            .arg(where, detail,
                 endpoint.caFile.isEmpty()
                     ? QCoreApplication::translate("sbx::EngineApi", "the system's CA store")
                     : endpoint.caFile);
    case CURLE_SSL_CACERT_BADFILE:
        return QCoreApplication::translate("sbx::EngineApi",
                                           "The CA file %1 for %2 cannot be read: %3")
            .arg(endpoint.caFile, where, detail);
    case CURLE_SSL_CERTPROBLEM:
        return QCoreApplication::translate(
                   "sbx::EngineApi", "The client certificate %1 (key %2) for %3 cannot be used: %4")
            .arg(endpoint.certFile, endpoint.keyFile, where, detail);
    case CURLE_SSL_CONNECT_ERROR:
        return QCoreApplication::translate(
                   "sbx::EngineApi",
                   "The TLS handshake with the container engine at %1 failed: %2 (does it speak "
                   "TLS there, and does it accept this client certificate?)")
            .arg(where, detail);
    default:
        return QCoreApplication::translate("sbx::EngineApi",
                                           "Talking to the container engine at %1 failed: %2")
            .arg(where, detail);
    }
}

} // namespace

EngineRequest EngineRequest::get(const QString &path, int timeoutMs) {
    EngineRequest request;
    request.path = path;
    request.timeoutMs = timeoutMs;
    return request;
}

EngineRequest EngineRequest::post(const QString &path, const QByteArray &json, int timeoutMs) {
    EngineRequest request;
    request.method = "POST";
    request.path = path;
    request.body = json;
    request.timeoutMs = timeoutMs;
    return request;
}

Status EngineResponse::status() const {
    if (ok())
        return Status::success();
    if (cancelled)
        return Status::error(Status::Kind::Cancelled, transportError);
    if (httpStatus == 0) {
        const QString why = transportError.isEmpty()
                                ? QCoreApplication::translate("sbx::EngineApi",
                                                              "No answer from the container engine")
                                : transportError;
        const Status::Kind kind = tlsFailure ? Status::Kind::Tls
                                  : timedOut ? Status::Kind::Timeout
                                             : Status::Kind::Network;
        return Status::error(kind, why);
    }
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    QString message = object.value(u"message"_s).toString().trimmed();
    if (message.isEmpty())
        message =
            QCoreApplication::translate("sbx::EngineApi", "the container engine answered HTTP %1")
                .arg(httpStatus);
    // Docker before 20.10 refuses the version prefix: "client version 1.41 is too new. Maximum
    // supported API version is 1.40".
    if (httpStatus == 400 && message.contains(u"is too new"_s))
        return Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate(
                "sbx::EngineApi",
                "The container engine is too old for the console, which needs Engine API 1.41 "
                "or later (Docker 20.10, podman 3.0 and newer): %1")
                .arg(message),
            httpStatus);
    Status::Kind kind = Status::Kind::Server;
    if (httpStatus == 401 || httpStatus == 403)
        kind = Status::Kind::Auth;
    else if (httpStatus == 404)
        kind = Status::Kind::NotFound;
    else if (httpStatus == 409)
        kind = Status::Kind::Conflict;
    else if (httpStatus == 400 || httpStatus == 422)
        kind = Status::Kind::Validation;
    else if (httpStatus < 500)
        kind = Status::Kind::BadResponse;
    return Status::error(kind, message, httpStatus);
}

QString defaultEngineSocket() {
    QStringList candidates;
    const QString dockerHost = qEnvironmentVariable("DOCKER_HOST");
    if (dockerHost.startsWith(QLatin1String("unix://")))
        candidates << dockerHost.mid(7);
    candidates << u"/var/run/docker.sock"_s;
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtimeDir.isEmpty())
        candidates << runtimeDir + u"/podman/podman.sock"_s;
    candidates << u"/run/podman/podman.sock"_s;
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo::exists(candidate))
            return candidate;
    }
    return candidates.first();
}

EngineEndpoint unixEngineEndpoint(const QString &socketPath) {
    EngineEndpoint endpoint;
    endpoint.name = u"default"_s;
    endpoint.host = u"unix://"_s + socketPath;
    endpoint.socketPath = socketPath;
    return endpoint;
}

EngineResponse performEngineRequest(const EngineEndpoint &endpoint, const EngineRequest &request,
                                    const std::atomic<bool> *cancel,
                                    const std::function<bool(QByteArrayView)> &onBody) {
    EngineResponse response;
    if (endpoint.kind == EngineEndpoint::Kind::Ssh && endpoint.socketPath.isEmpty()) {
        response.transportError = QCoreApplication::translate(
            "sbx::EngineApi", "An ssh:// engine is reached through its SSH link");
        return response;
    }
    if (endpoint.plainRemote() && !endpoint.plainConfirmed) {
        // Refused before connecting: the request would cross the network in the clear.
        response.transportError =
            QCoreApplication::translate(
                "sbx::EngineApi",
                "Plain TCP to %1 is refused: anyone on the way could drive the engine. Use TLS, "
                "or confirm plain TCP for this engine.")
                .arg(endpoint.where());
        return response;
    }
    QString why;
    const CurlApi *lib = curlApi(&why);
    CURL *curl = lib ? lib->easyInit() : nullptr;
    if (!curl) {
        response.transportError =
            QCoreApplication::translate("sbx::EngineApi", "Cannot set up a connection (libcurl)");
        if (!why.isEmpty())
            response.transportError += u": "_s + why;
        return response;
    }
    Transfer transfer{lib, curl, cancel, &onBody, &response};
    char errorBuffer[CURL_ERROR_SIZE] = {};
    const bool tcp = endpoint.kind == EngineEndpoint::Kind::Tcp;
    const QByteArray socket = QFile::encodeName(endpoint.socketPath);
    QByteArray origin = "http://localhost";
    if (tcp) {
        // QUrl brackets an IPv6 address as a URL needs.
        QUrl base;
        base.setScheme(endpoint.tls ? u"https"_s : u"http"_s);
        base.setHost(endpoint.address);
        base.setPort(endpoint.port);
        origin = base.toString(QUrl::FullyEncoded).toUtf8();
    }
    const QByteArray url = origin + EngineApi::kVersionPrefix + request.path.toUtf8();
    const QByteArray caFile = QFile::encodeName(endpoint.caFile);
    const QByteArray certFile = QFile::encodeName(endpoint.certFile);
    const QByteArray keyFile = QFile::encodeName(endpoint.keyFile);
    curl_slist *headers = lib->slistAppend(nullptr, "Expect:");
    if (!request.body.isEmpty())
        headers = lib->slistAppend(headers, "Content-Type: application/json");

    if (!tcp)
        lib->easySetopt(curl, CURLOPT_UNIX_SOCKET_PATH, socket.constData());
    if (tcp && endpoint.tls) {
        if (!caFile.isEmpty())
            lib->easySetopt(curl, CURLOPT_CAINFO, caFile.constData());
        if (!certFile.isEmpty())
            lib->easySetopt(curl, CURLOPT_SSLCERT, certFile.constData());
        if (!keyFile.isEmpty())
            lib->easySetopt(curl, CURLOPT_SSLKEY, keyFile.constData());
        lib->easySetopt(curl, CURLOPT_SSL_VERIFYPEER, endpoint.verify ? 1L : 0L);
        lib->easySetopt(curl, CURLOPT_SSL_VERIFYHOST, endpoint.verify ? 2L : 0L);
    }
    // Only the engine itself: never a proxy from the environment.
    lib->easySetopt(curl, CURLOPT_NOPROXY, "*");
    lib->easySetopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    lib->easySetopt(curl, CURLOPT_URL, url.constData());
    lib->easySetopt(curl, CURLOPT_CUSTOMREQUEST, request.method.constData());
    if (request.method != "GET" && request.method != "DELETE") {
        lib->easySetopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
        lib->easySetopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    }
    lib->easySetopt(curl, CURLOPT_HTTPHEADER, headers);
    lib->easySetopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib->easySetopt(curl, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
    lib->easySetopt(curl, CURLOPT_TIMEOUT_MS, long(request.timeoutMs));
    lib->easySetopt(curl, CURLOPT_WRITEFUNCTION, onWrite);
    lib->easySetopt(curl, CURLOPT_WRITEDATA, &transfer);
    lib->easySetopt(curl, CURLOPT_NOPROGRESS, 0L);
    lib->easySetopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
    lib->easySetopt(curl, CURLOPT_XFERINFODATA, &transfer);

    const CURLcode code = lib->easyPerform(curl);
    long status = 0;
    lib->easyGetinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    lib->slistFreeAll(headers);
    lib->easyCleanup(curl);

    response.cancelled = cancelled(&transfer);
    response.timedOut = code == CURLE_OPERATION_TIMEDOUT;
    response.tlsFailure = code != CURLE_OK && isTlsFailure(code, errorBuffer, endpoint);
    if (code == CURLE_OK || transfer.stoppedByReader) {
        response.httpStatus = int(status);
    } else if (transfer.overflow) {
        response.transportError = QCoreApplication::translate(
            "sbx::EngineApi", "The container engine sent an oversized answer");
    } else if (response.cancelled) {
        response.transportError = QCoreApplication::translate("sbx::EngineApi", "Cancelled");
    } else {
        response.transportError = describeCurlError(code, endpoint, request.timeoutMs, errorBuffer);
        // A stream cut after its headers still tells the caller how it began.
        if (status >= 200 && status < 300 && onBody)
            response.httpStatus = int(status);
    }
    return response;
}

EngineApi::EngineApi(EngineEndpoint endpoint, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
    , m_pool(new QThreadPool(this)) {
    // Room for a long stop (its grace period) without holding up listing and inspecting.
    m_pool->setMaxThreadCount(4);
}

EngineApi::~EngineApi() {
    m_cancel->store(true);
    m_pool->waitForDone();
}

EngineJob::EngineJob(EngineApi *api, EngineRequest request)
    : Job(api)
    , m_api(api)
    , m_request(std::move(request)) {}

void EngineJob::start() {
    if (!beginStart())
        return;
    if (!m_api) {
        complete(Status::error(Status::Kind::Cancelled, tr("The container engine was closed")));
        return;
    }
    m_api->perform(this, m_request);
}

void EngineJob::answered(const EngineResponse &response) {
    m_response = response;
    complete(response.status());
}

EngineJob *EngineApi::call(const EngineRequest &request) {
    return new EngineJob(this, request);
}

void EngineApi::perform(EngineJob *job, const EngineRequest &request) {
    QPointer<EngineJob> guard(job);
    m_pool->start([this, endpoint = m_endpoint, cancel = m_cancel, request, guard] {
        EngineResponse response = performEngineRequest(endpoint, request, cancel.get());
        if (response.cancelled)
            return;
        // Through this object, which outlives the pool's threads; the guard is read on its
        // thread. An aborted job is done and ignores the answer.
        QMetaObject::invokeMethod(
            this,
            [guard, response = std::move(response)] {
                if (guard)
                    guard->answered(response);
            },
            Qt::QueuedConnection);
    });
}

void EngineApi::send(const EngineRequest &request, QObject *context, Callback done) {
    EngineJob *job = call(request);
    // The connection ends with context: done never runs on a destroyed one.
    connect(job, &Job::finished, context, [job, done = std::move(done)] { done(job->response()); });
    job->start();
}

} // namespace sbx
