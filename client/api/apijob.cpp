#include "client/api/apijob.h"

#include "client/traffic/trafficrecorder.h"
#include "client/transport/retrypolicy.h"
#include "client/transport/statusmapping.h"

#include <QNetworkReply>
#include <QTimer>

#include <algorithm>
#include <climits>

namespace sbx {

using namespace Qt::StringLiterals;

ApiJob::ApiJob(SandboxClient *client, ApiRequest request)
    : Job(client)
    , m_client(client)
    , m_request(std::move(request))
    , m_timeout(new QTimer(this)) {
    m_timeout->setSingleShot(true);
    connect(m_timeout, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_reply)
            m_reply->abort();
    });
}

ApiJob::~ApiJob() {
    delete std::exchange(m_direct, nullptr);
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

QString ApiJob::what() const {
    QString path = m_request.path;
    if (!path.startsWith(QLatin1Char('/')))
        path.prepend(QLatin1Char('/'));
    return QString::fromLatin1(m_request.verb) + QLatin1Char(' ') + path;
}

void ApiJob::start() {
    if (!beginStart())
        return;
    // Deferred so that a caller can connect to the signals after start().
    QTimer::singleShot(0, this, &ApiJob::sendAttempt);
}

void ApiJob::sendAttempt() {
    if (isDone())
        return;
    if (!m_client) {
        complete(Status::error(Status::Kind::Cancelled, tr("The sandbox was closed")));
        return;
    }
    ++m_attempts;
    if (Status s = preflight(); !s.ok()) {
        complete(s);
        return;
    }
    m_timedOut = false;
    m_tapped.clear();
    m_tappedBytes = 0;
    m_tapping = m_client->trafficKeepsBodies() && !m_request.streamedResponse;
    m_tapBound = m_tapping ? m_client->trafficRecorder()->limits().bodyBound : 0;
    m_clock.start();
    if (m_client->sendsDirect(m_request)) {
        // libcurl watches for silence itself (its low-speed limit over timeoutMs).
        m_direct = m_client->sendDirect(m_request, directSink(), m_tapping ? m_tapBound : 0, this);
        connect(m_direct, &DirectExchange::progress, this, &ApiJob::progress);
        connect(m_direct, &DirectExchange::finished, this, &ApiJob::onDirectFinished);
        return;
    }
    m_reply = m_client->send(m_request);
    prepareReply(m_reply);
    connect(m_reply, &QNetworkReply::finished, this, &ApiJob::onReplyFinished);
    // The timeout is for silence, not for the whole transfer: any progress restarts it.
    auto onProgress = [this](qint64 done, qint64 total) {
        if (m_request.timeoutMs > 0)
            m_timeout->start(m_request.timeoutMs);
        if (done > 0 || total > 0)
            Q_EMIT progress(done, total);
    };
    if (m_request.form || !m_request.body.isEmpty())
        connect(m_reply, &QNetworkReply::uploadProgress, this, onProgress);
    else
        connect(m_reply, &QNetworkReply::downloadProgress, this, onProgress);
    connect(m_reply, &QNetworkReply::readyRead, this, [this] {
        const int http = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (http >= 200 && http < 300)
            onBodyData(m_reply);
    });
    if (m_request.timeoutMs > 0)
        m_timeout->start(m_request.timeoutMs);
}

ReplyFacts ApiJob::factsOf(QNetworkReply::NetworkError error, int httpStatus,
                           const QByteArray &body) const {
    ReplyFacts facts;
    facts.error = error;
    facts.httpStatus = httpStatus;
    facts.body = body;
    facts.timedOut = m_timedOut;
    facts.timeoutMs = m_request.timeoutMs;
    facts.method = QString::fromLatin1(m_request.verb);
    facts.path = what().section(QLatin1Char(' '), 1);
    if (m_client) {
        facts.address = m_client->endpoint().displayAddress();
        facts.credentials = m_client->credentials().isEmpty() ? Credentials::Kind::None
                                                              : m_client->credentials().kind;
        facts.credentialsOrigin = m_client->credentials().origin;
    }
    return facts;
}

void ApiJob::onReplyFinished() {
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    m_timeout->stop();
    m_elapsedMs = m_clock.elapsed();
    reply->deleteLater();

    const QByteArray body = reply->readAll();
    m_lengthDeclared = reply->header(QNetworkRequest::ContentLengthHeader).isValid();
    m_receivedBytes = m_tappedBytes + body.size();
    ReplyFacts facts = factsOf(
        reply->error(), reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), body);
    facts.certificateSha256 = reply->property("sbxCertificateSha256").toByteArray();
    const Status status = statusFromReply(facts);
    if (m_client) {
        const qint64 size = m_tappedBytes + body.size();
        if (!m_tapping)
            m_client->recordReply(reply, {}, size, status);
        else if (m_tapped.isEmpty())
            m_client->recordReply(reply, body, size, status); // shared, not copied
        else
            m_client->recordReply(reply, m_tapped + body.left(m_tapBound - m_tapped.size()), size,
                                  status);
        m_tapped.clear();
    }
    conclude(facts, status, reply);
}

void ApiJob::onDirectFinished(const DirectReply &direct) {
    DirectExchange *exchange = std::exchange(m_direct, nullptr);
    exchange->deleteLater();
    m_elapsedMs = m_clock.elapsed();
    m_lengthDeclared = std::any_of(direct.headers.begin(), direct.headers.end(), [](const auto &h) {
        return h.first.compare("content-length", Qt::CaseInsensitive) == 0;
    });
    m_receivedBytes = std::max<qint64>(direct.sunk, 0) + direct.body.size();
    ReplyFacts facts = factsOf(direct.error, direct.httpStatus, direct.body);
    facts.timedOut = direct.timedOut;
    Status status = statusFromReply(facts);
    if (direct.localReadFailed && m_request.form)
        status = Status::error(
            Status::Kind::Validation,
            tr("%1 could not be read to its end while it was sent (it changed or went away)")
                .arg(m_request.form->localPath));
    if (m_client)
        m_client->recordDirect(exchange, direct, status);
    conclude(facts, status, nullptr);
}

void ApiJob::conclude(const ReplyFacts &facts, const Status &status, QNetworkReply *reply) {
    if (status.ok()) {
        if (m_client)
            m_client->logTraffic(
                {facts.method, facts.path, facts.httpStatus, m_elapsedMs, u"ok"_s});
        if (parseReplyAsync(facts.body))
            return;
        finishParse(parseReply(facts.body, reply));
        return;
    }
    if (shouldRetry(status)) {
        QTimer::singleShot(RetryPolicy::delayBeforeAttempt(m_attempts), this, &ApiJob::sendAttempt);
        return;
    }
    if (m_client)
        m_client->logTraffic(
            {facts.method, facts.path, facts.httpStatus, m_elapsedMs, status.message});
    if (reply && m_request.form && facts.httpStatus == 0 && status.kind == Status::Kind::Network) {
        explainCut(facts, status);
        return;
    }
    complete(status);
}

void ApiJob::explainCut(const ReplyFacts &facts, const Status &status) {
    // Qt sends a body without Expect: 100-continue, so a server that refuses an upload early
    // (a wrong key) and closes reaches Qt as a reset while it still writes, and its answer is
    // lost. A plain GET, refused the same way, names the cause.
    QNetworkReply *probe = m_client->send(ApiRequest::get(u"v1/sandbox"_s));
    m_reply = probe; // aborted by cancelWork and by the timeout like any attempt
    m_timeout->start(kExplainTimeoutMs);
    connect(probe, &QNetworkReply::finished, this, [this, probe, facts, status] {
        m_reply = nullptr;
        m_timeout->stop();
        probe->deleteLater();
        const int http = probe->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = probe->readAll();
        ReplyFacts asked = factsOf(probe->error(), http, body);
        asked.method = u"GET"_s;
        asked.path = u"/v1/sandbox"_s;
        if (m_client)
            m_client->recordReply(probe, {}, body.size(), statusFromReply(asked));
        if (http != 401 && http != 403) {
            complete(status);
            return;
        }
        ReplyFacts refused = facts;
        refused.httpStatus = http;
        refused.body = body;
        complete(statusFromReply(refused));
    });
}

void ApiJob::tapBody(const QByteArray &bytes) {
    m_tappedBytes += bytes.size();
    if (m_tapping && m_tapped.size() < m_tapBound)
        m_tapped += bytes.left(m_tapBound - m_tapped.size());
}

bool ApiJob::shouldRetry(const Status &status) {
    return RetryPolicy::shouldRetry(m_request.idempotent, status, m_attempts);
}

void ApiJob::failWith(const Status &status) {
    cancelWork();
    complete(status);
}

void ApiJob::finishParse(const Status &parsed) {
    Status status = parsed;
    // Qt 6.4 ends a chunked body cut by the connection's close as if it were whole (so do
    // several HTTP stacks): JSON stopping short, with no declared length, is a dropped
    // connection, retried as one.
    if (status.kind == Status::Kind::BadResponse && status.endedEarly && !m_lengthDeclared)
        status = Status::error(Status::Kind::Network,
                               tr("%1: the connection was cut before the whole answer came "
                                  "(%n bytes of it)",
                                  nullptr, int(qMin<qint64>(m_receivedBytes, INT_MAX)))
                                   .arg(what()));
    // A body found short (a download cut before Content-Length) is as retryable as a dropped
    // connection.
    if (!status.ok() && !isDone() && shouldRetry(status)) {
        QTimer::singleShot(RetryPolicy::delayBeforeAttempt(qMax(1, m_attempts)), this,
                           &ApiJob::sendAttempt);
        return;
    }
    complete(status);
}

void ApiJob::cancelWork() {
    m_timeout->stop();
    if (DirectExchange *exchange = std::exchange(m_direct, nullptr)) {
        // Its thread ends at libcurl's next call back, telling nobody.
        exchange->disconnect(this);
        exchange->abort();
        exchange->deleteLater();
    }
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
}

} // namespace sbx
