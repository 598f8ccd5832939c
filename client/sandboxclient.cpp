#include "client/sandboxclient.h"

#include "client/traffic/trafficrecorder.h"
#include "client/transport/jwtkeys.h"
#include "client/transport/status.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>

namespace sbx {

namespace {
// Reply properties: the recorder's serial of the exchange, and whether its body is a file's.
constexpr char kTrafficSerial[] = "sbxTrafficSerial";
constexpr char kTrafficStreamed[] = "sbxTrafficStreamed";

// Qt's form of the body: made anew for each attempt, as sending consumes it.
QHttpMultiPart *multipartBody(const MultipartForm &form) {
    auto *multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    for (const auto &[name, value] : form.fields) {
        QHttpPart part;
        part.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QVariant(QByteArray("form-data; name=\"" + name + '"')));
        part.setBody(value);
        multipart->append(part);
    }
    QHttpPart filePart;
    filePart.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QVariant(QByteArray("form-data; name=\"" + form.fileField +
                                           "\"; filename=\"" + form.fileName + '"')));
    filePart.setHeader(QNetworkRequest::ContentTypeHeader, QVariant(form.contentType));
    auto *file = new QFile(form.localPath, multipart);
    file->open(QIODevice::ReadOnly);
    filePart.setBodyDevice(file);
    multipart->append(filePart);
    return multipart;
}
} // namespace

ApiRequest ApiRequest::get(const QString &path) {
    ApiRequest r;
    r.path = path;
    return r;
}

ApiRequest ApiRequest::postJson(const QString &path, const QByteArray &json, bool idempotent) {
    ApiRequest r;
    r.verb = "POST";
    r.path = path;
    r.body = json;
    r.contentType = "application/json";
    r.idempotent = idempotent;
    return r;
}

SandboxClient::SandboxClient(Endpoint endpoint, Credentials credentials, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_credentials(std::move(credentials))
    , m_network(new QNetworkAccessManager(this)) {
    // Redirects could carry our credentials to another host; AIO never redirects the API.
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

SandboxClient::~SandboxClient() = default;

void SandboxClient::setEndpoint(const Endpoint &endpoint) {
    if (endpoint == m_endpoint)
        return;
    m_endpoint = endpoint;
    m_network->clearConnectionCache();
    Q_EMIT connectionSettingsChanged();
}

void SandboxClient::setCredentials(const Credentials &credentials) {
    if (credentials == m_credentials)
        return;
    m_credentials = credentials;
    m_signedToken.clear();
    Q_EMIT connectionSettingsChanged();
}

void SandboxClient::reportReachable(bool reachable) {
    if (m_reachable == reachable)
        return;
    m_reachable = reachable;
    Q_EMIT reachabilityChanged(reachable);
}

void SandboxClient::setExtensions(const QStringList &extensions) {
    if (extensions == m_extensions)
        return;
    m_extensions = extensions;
    Q_EMIT extensionsChanged();
}

QNetworkRequest SandboxClient::prepareRequest(const QUrl &url) const {
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("SandboxConsole/0.1"));
    if (!m_compression)
        request.setRawHeader("Accept-Encoding", "identity");
    if (const QByteArray secret = authValue(); !secret.isEmpty()) {
        if (m_credentials.kind == Credentials::Kind::ApiKey)
            request.setRawHeader("X-AIO-API-Key", secret);
        else
            request.setRawHeader("Authorization", "Bearer " + secret);
    }
    if (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("wss")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!m_endpoint.tls.caFile.isEmpty()) {
            QList<QSslCertificate> cas = ssl.caCertificates();
            cas += QSslCertificate::fromPath(m_endpoint.tls.caFile, QSsl::Pem);
            ssl.setCaCertificates(cas);
        }
        request.setSslConfiguration(ssl);
    }
    return request;
}

QByteArray SandboxClient::authValue() const {
    if (m_credentials.isEmpty())
        return {};
    if (m_credentials.kind != Credentials::Kind::SignedJwt)
        return m_credentials.secret.toUtf8();
    constexpr std::chrono::minutes lifetime(15);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (m_signedToken.isEmpty() || now >= m_signedTokenRenewAt) {
        // An unusable key sends no token: the sandbox answers 401 and the job says why.
        m_signedToken = signRs256(m_credentials.secret.toUtf8(), lifetime);
        m_signedTokenRenewAt =
            now.addSecs(std::chrono::duration_cast<std::chrono::seconds>(lifetime).count() - 60);
    }
    return m_signedToken.toLatin1();
}

QByteArray multipartContentType(const QByteArray &boundary) {
    // Quoted, always: Qt's boundaries are base64 and so often hold '/', which RFC 2045 allows
    // only inside a quoted-string (python-multipart before 0.0.10 refuses such uploads).
    QByteArray quoted;
    quoted.reserve(boundary.size() + 2);
    for (const char c : boundary) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    return QByteArrayLiteral("multipart/form-data; boundary=\"") + quoted + '"';
}

QNetworkReply *SandboxClient::send(const ApiRequest &apiRequest) {
    QNetworkRequest request = prepareRequest(m_endpoint.resolve(apiRequest.path, apiRequest.query));
    if (!apiRequest.contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, apiRequest.contentType);
    for (const auto &[name, value] : apiRequest.headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = nullptr;
    if (apiRequest.form) {
        QHttpMultiPart *multipart = multipartBody(*apiRequest.form);
        // sendCustomRequest, unlike post, does not announce the boundary itself.
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          multipartContentType(multipart->boundary()));
        reply = m_network->sendCustomRequest(request, apiRequest.verb, multipart);
        multipart->setParent(reply);
    } else if (apiRequest.verb == "HEAD" && apiRequest.body.isEmpty()) {
        // QNAM knows a reply has no body only for a HEAD it sent as one: a custom "HEAD" waits
        // for the Content-Length bytes that never come.
        reply = m_network->head(request);
    } else if (apiRequest.body.isEmpty()) {
        // No body means no body at all: an empty one would still announce Content-Length: 0.
        reply = m_network->sendCustomRequest(request, apiRequest.verb,
                                             static_cast<QIODevice *>(nullptr));
    } else {
        reply = m_network->sendCustomRequest(request, apiRequest.verb, apiRequest.body);
    }
    if (m_traffic)
        beginTraffic(apiRequest, request, reply);
    const QByteArray pinned = m_endpoint.tls.pinnedSha256;
    connect(reply, &QNetworkReply::sslErrors, reply,
            [reply, pinned](const QList<QSslError> &errors) {
                const QSslCertificate leaf = reply->sslConfiguration().peerCertificate();
                const QByteArray fingerprint = certificateFingerprint(leaf);
                reply->setProperty("sbxCertificateSha256", fingerprint);
                if (!pinned.isEmpty() && fingerprint == pinned)
                    reply->ignoreSslErrors(errors);
            });
    return reply;
}

bool SandboxClient::sendsDirect(const ApiRequest &request) const {
    return m_directExchanges && (request.form || request.largeAnswer) &&
           DirectExchange::handles(m_endpoint.resolve(request.path, request.query));
}

void SandboxClient::prepareDirectExchanges() const {
    if (m_directExchanges && m_endpoint.baseUrl.scheme() == QLatin1String("http"))
        DirectExchange::loadAhead();
}

DirectExchange *SandboxClient::sendDirect(const ApiRequest &apiRequest,
                                          DirectExchange::BodySink sink, qsizetype keepBytes,
                                          QObject *parent) {
    const QNetworkRequest request =
        prepareRequest(m_endpoint.resolve(apiRequest.path, apiRequest.query));
    DirectExchange::Request direct;
    direct.url = request.url();
    direct.verb = apiRequest.verb;
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names)
        direct.headers.append({name, request.rawHeader(name)});
    for (const auto &header : apiRequest.headers)
        direct.headers.append(header);
    if (!apiRequest.contentType.isEmpty())
        direct.headers.append({"Content-Type", apiRequest.contentType});
    direct.form = apiRequest.form;
    direct.body = apiRequest.body;
    direct.compressed = m_compression;
    direct.sink = std::move(sink);
    direct.keepBytes = keepBytes;
    direct.silenceMs = apiRequest.timeoutMs > 0 ? apiRequest.timeoutMs : 60000;
    auto *exchange = new DirectExchange(std::move(direct), parent);
    if (m_traffic)
        beginTraffic(apiRequest, request, exchange);
    exchange->start();
    return exchange;
}

void SandboxClient::logTraffic(const TrafficRecord &record) {
    Q_EMIT trafficLogged(record);
}

void SandboxClient::setTrafficRecorder(TrafficRecorder *recorder, const QString &sandboxName) {
    m_traffic = recorder;
    m_trafficName = sandboxName;
}

TrafficRecorder *SandboxClient::trafficRecorder() const {
    return m_traffic.data();
}

TrafficOrigin SandboxClient::trafficOrigin() const {
    TrafficOrigin origin{m_trafficName, {}};
    if (!m_credentials.isEmpty()) {
        origin.secrets << m_credentials.secret.toUtf8();
        if (m_credentials.kind == Credentials::Kind::SignedJwt && !m_signedToken.isEmpty())
            origin.secrets << m_signedToken.toLatin1();
    }
    return origin;
}

bool SandboxClient::trafficKeepsBodies() const {
    return m_traffic && m_traffic->keepsDetails();
}

void SandboxClient::beginTraffic(const ApiRequest &apiRequest, const QNetworkRequest &request,
                                 QObject *carrier) {
    TrafficRecorder *recorder = m_traffic;
    TrafficRequest r;
    r.method = apiRequest.verb;
    r.url = request.url();
    const QList<QByteArray> names = request.rawHeaderList();
    r.headers.reserve(names.size());
    for (const QByteArray &name : names)
        r.headers.append({name, request.rawHeader(name)});
    r.mimeType = request.header(QNetworkRequest::ContentTypeHeader).toByteArray();
    r.streamed = apiRequest.form.has_value();
    if (r.streamed && r.mimeType.isEmpty())
        r.mimeType = "multipart/form-data";
    r.bodySize = r.streamed ? -1 : apiRequest.body.size();
    if (!r.streamed && recorder->keepsDetails())
        r.body = apiRequest.body;
    const quint64 serial = recorder->begin(trafficOrigin(), r);
    carrier->setProperty(kTrafficSerial, serial);
    carrier->setProperty(kTrafficStreamed, apiRequest.streamedResponse);
    const auto sent = [recorder, serial](qint64 done, qint64) {
        recorder->progressed(serial, done, -1);
    };
    if (auto *reply = qobject_cast<QNetworkReply *>(carrier)) {
        connect(reply, &QNetworkReply::metaDataChanged, recorder,
                [recorder, serial] { recorder->headersArrived(serial); });
        connect(
            reply, &QNetworkReply::downloadProgress, recorder,
            [recorder, serial](qint64 done, qint64) { recorder->progressed(serial, -1, done); });
        if (r.streamed)
            connect(reply, &QNetworkReply::uploadProgress, recorder, sent);
    } else if (auto *exchange = qobject_cast<DirectExchange *>(carrier)) {
        if (r.streamed)
            connect(exchange, &DirectExchange::progress, recorder, sent);
        else
            connect(exchange, &DirectExchange::progress, recorder,
                    [recorder, serial](qint64 done, qint64) {
                        recorder->progressed(serial, -1, done);
                    });
    }
    // A job that aborts its exchange never finishes the record itself.
    connect(carrier, &QObject::destroyed, recorder,
            [recorder, serial] { recorder->abandon(serial, tr("Cancelled")); });
}

void SandboxClient::recordReply(QNetworkReply *reply, const QByteArray &body, qint64 bodySize,
                                const Status &status) {
    const quint64 serial = takeTrafficSerial(reply);
    if (serial == 0)
        return;
    TrafficResponse r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.statusText = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    r.httpVersion = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool()
                        ? QByteArrayLiteral("HTTP/2")
                        : QByteArrayLiteral("HTTP/1.1");
    r.mimeType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    r.bodySize = bodySize;
    r.streamed = reply->property(kTrafficStreamed).toBool();
    finishTraffic(serial, r, reply->rawHeaderPairs(), body, status);
}

void SandboxClient::recordDirect(DirectExchange *exchange, const DirectReply &reply,
                                 const Status &status) {
    const quint64 serial = takeTrafficSerial(exchange);
    if (serial == 0)
        return;
    TrafficResponse r;
    r.status = reply.httpStatus;
    r.statusText = reply.reason;
    r.httpVersion = QByteArrayLiteral("HTTP/1.1");
    for (const auto &[name, value] : reply.headers)
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            r.mimeType = value;
    const bool sunk = reply.sunk >= 0;
    r.bodySize = sunk ? reply.sunk : reply.body.size();
    r.streamed = exchange->property(kTrafficStreamed).toBool();
    finishTraffic(serial, r, reply.headers, sunk ? reply.kept : reply.body, status);
}

quint64 SandboxClient::takeTrafficSerial(QObject *carrier) const {
    if (!m_traffic)
        return 0;
    const QVariant serial = carrier->property(kTrafficSerial);
    carrier->setProperty(kTrafficSerial, QVariant());
    return serial.isValid() ? serial.toULongLong() : 0;
}

void SandboxClient::finishTraffic(quint64 serial, TrafficResponse &response,
                                  const HeaderList &headers, const QByteArray &body,
                                  const Status &status) {
    if (m_traffic->keepsDetails()) {
        response.headers = headers;
        response.body = body;
    }
    if (!status.ok())
        response.error = status.message;
    m_traffic->finish(serial, trafficOrigin(), response);
}

QByteArray certificateFingerprint(const QSslCertificate &certificate) {
    if (certificate.isNull())
        return {};
    return certificate.digest(QCryptographicHash::Sha256).toHex();
}

} // namespace sbx
