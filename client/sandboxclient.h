#pragma once

#include "client/transport/credentials.h"
#include "client/transport/directexchange.h"
#include "client/transport/endpoint.h"

#include <QByteArray>
#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>

#include <QPointer>
#include <QStringList>
#include <QUrlQuery>
#include <optional>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QHttpMultiPart;
class QSslCertificate;

namespace sbx {

class TrafficRecorder;
struct Status;
struct TrafficOrigin;
struct TrafficResponse;

// One HTTP exchange as a job describes it, before auth and TLS are applied.
struct ApiRequest {
    QByteArray verb = "GET";
    QString path;    // relative to the endpoint, e.g. "v1/sandbox"
    QUrlQuery query; // never holds credentials; SandboxClient adds those
    QByteArray body;
    QByteArray contentType;
    QList<QPair<QByteArray, QByteArray>> headers; // e.g. Range, If-Range
    // A multipart body streamed from a file. Over plain http it goes through DirectExchange
    // (libcurl, at curl's rate); over TLS through Qt, with the endpoint's pinning.
    std::optional<MultipartForm> form;
    // The answer may be large (a listing of 100 000 rows): over plain http it is read by
    // DirectExchange too, its 2xx body handed to the job's directSink() on libcurl's thread.
    bool largeAnswer = false;
    bool idempotent = true;
    // The response body is a file's bytes (a download): the traffic inspector counts it only.
    bool streamedResponse = false;
    // With no byte moving in either direction for this long, the call fails as a timeout.
    int timeoutMs = 30000;

    static ApiRequest get(const QString &path);
    // A POST with a JSON body; not idempotent unless the endpoint is a read.
    static ApiRequest postJson(const QString &path, const QByteArray &json,
                               bool idempotent = false);
};

// One line of the console's own API traffic log: no query string, no header, no secret.
struct TrafficRecord {
    QString method;
    QString path;
    int httpStatus = 0;
    qint64 elapsedMs = 0;
    QString outcome;
};

// The connection to one sandbox: owns the network manager, endpoint and credentials that every
// job, channel and model for that sandbox goes through.
class SandboxClient final : public QObject {
    Q_OBJECT
public:
    explicit SandboxClient(Endpoint endpoint, Credentials credentials, QObject *parent = nullptr);
    ~SandboxClient() override;

    const Endpoint &endpoint() const { return m_endpoint; }
    void setEndpoint(const Endpoint &endpoint);
    const Credentials &credentials() const { return m_credentials; }
    void setCredentials(const Credentials &credentials);

    // Extensions the server listed in GET /v1/sandbox; empty for the real AIO.
    const QStringList &extensions() const { return m_extensions; }
    bool hasExtension(const QString &name) const { return m_extensions.contains(name); }
    void setExtensions(const QStringList &extensions);

    QNetworkAccessManager *network() const { return m_network; }
    // A request for url with credentials and TLS settings applied.
    QNetworkRequest prepareRequest(const QUrl &url) const;
    // Starts one exchange; the reply accepts a pinned self-signed certificate by itself.
    QNetworkReply *send(const ApiRequest &request);
    // Whether request goes through sendDirect() rather than send(): a form or a large answer
    // over plain http, unless direct exchanges were turned off (to measure or test Qt's path).
    bool sendsDirect(const ApiRequest &request) const;
    void setDirectExchanges(bool on) { m_directExchanges = on; }
    // What will send large exchanges soon (the Files tab) calls this: libcurl is loaded ahead,
    // on a worker, when they would go through it.
    void prepareDirectExchanges() const;
    // Starts an exchange through libcurl; recorded as send()'s are. sink, when set, takes a 2xx
    // body as it comes (keeping keepBytes of it for the inspector).
    DirectExchange *sendDirect(const ApiRequest &request, DirectExchange::BodySink sink,
                               qsizetype keepBytes, QObject *parent);
    void logTraffic(const TrafficRecord &record);

    // The console's traffic inspector: what this client sends and receives is recorded there
    // under sandboxName (a display name, never a secret). None: nothing is recorded.
    void setTrafficRecorder(TrafficRecorder *recorder, const QString &sandboxName);
    TrafficRecorder *trafficRecorder() const;
    const QString &trafficName() const { return m_trafficName; }
    // Whom the recorder records for: the name, and the values it scrubs (the key or token).
    TrafficOrigin trafficOrigin() const;
    // Whether the recorder keeps bodies now: when not, a job copies none for it.
    bool trafficKeepsBodies() const;
    // Ends the record of an exchange send() began: body is what the job read of the reply for
    // the recorder (nothing of a streamed download, nothing while it keeps no bodies), bodySize
    // all it read. A reply deleted unrecorded counts as cancelled.
    void recordReply(QNetworkReply *reply, const QByteArray &body, qint64 bodySize,
                     const Status &status);
    void recordDirect(DirectExchange *exchange, const DirectReply &reply, const Status &status);

    // One view of whether the sandbox answers, shared by the list's probe and the long-lived
    // streams: a stream that went silent says so (the list probes at once); a probe tells the
    // streams what it found (a quiet stream drops at once, a waiting one retries at once).
    void reportLinkSilent() { Q_EMIT linkSilent(); }
    void reportReachable(bool reachable);
    // Unknown (none) until a probe or a stream told.
    std::optional<bool> reachable() const { return m_reachable; }
    // Whether answers are asked for compressed (Qt's Accept-Encoding, decoded on this thread).
    // On by default; worth it when the link is slower than the CPU: the registry turns it off
    // for a sandbox whose probe takes under 20 ms, where decoding a 20 MB listing in one piece
    // would stall the GUI longer than the transfer takes.
    void setCompression(bool on) { m_compression = on; }
    bool compression() const { return m_compression; }

Q_SIGNALS:
    void trafficLogged(const TrafficRecord &record);
    void linkSilent();
    void reachabilityChanged(bool reachable);
    void extensionsChanged();
    void connectionSettingsChanged();

private:
    void applyTls();
    // The record is the carrier's (a reply or a direct exchange): its serial is kept on it, and
    // a carrier deleted unrecorded counts as cancelled.
    void beginTraffic(const ApiRequest &apiRequest, const QNetworkRequest &request,
                      QObject *carrier);
    // The record serial a carrier holds, taken so that it is finished once; 0 when none.
    quint64 takeTrafficSerial(QObject *carrier) const;
    void finishTraffic(quint64 serial, TrafficResponse &response, const HeaderList &headers,
                       const QByteArray &body, const Status &status);
    // What an Authorization/X-AIO-API-Key header carries; for SignedJwt a cached minted token.
    QByteArray authValue() const;

    Endpoint m_endpoint;
    Credentials m_credentials;
    std::optional<bool> m_reachable;
    bool m_compression = true;
    bool m_directExchanges = true;
    // Minted from a SignedJwt private key; reused until a minute before it expires.
    mutable QString m_signedToken;
    mutable QDateTime m_signedTokenRenewAt;
    QStringList m_extensions;
    QNetworkAccessManager *m_network;
    QPointer<TrafficRecorder> m_traffic;
    QString m_trafficName;
};

// The Content-Type of a multipart/form-data body with this boundary, the boundary quoted.
QByteArray multipartContentType(const QByteArray &boundary);

// SHA-256 of a certificate in lowercase hex, as shown to and pinned by the user.
QByteArray certificateFingerprint(const QSslCertificate &certificate);

} // namespace sbx
