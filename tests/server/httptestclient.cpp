#include "tests/server/httptestclient.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpSocket>
#include <QTimer>

namespace sbxtest {

QByteArray HttpResult::header(const QByteArray &name) const {
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QJsonObject HttpResult::json() const {
    return QJsonDocument::fromJson(body).object();
}

HttpResult request(const QByteArray &method, const QUrl &url, const HeaderPairs &headers,
                   const QByteArray &body, int timeoutMs) {
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (!body.isEmpty() && !request.hasRawHeader("Content-Type"))
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    // QNAM only knows a HEAD reply has no body when it sent the HEAD itself.
    QNetworkReply *reply =
        method == "HEAD" ? manager.head(request) : manager.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();
    HttpResult result;
    if (!reply->isFinished()) {
        reply->abort();
        result.networkError = QStringLiteral("timeout");
    }
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    for (const auto &pair : reply->rawHeaderPairs())
        result.headers.append({pair.first, pair.second});
    if (result.status == 0)
        result.networkError = reply->errorString();
    delete reply;
    return result;
}

qsizetype completeResponseLength(const QByteArray &raw) {
    const qsizetype end = raw.indexOf("\r\n\r\n");
    if (end < 0)
        return -1;
    qsizetype length = 0;
    const QList<QByteArray> lines = raw.left(end).split('\n');
    for (const QByteArray &line : lines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 &&
            line.left(colon).trimmed().compare("content-length", Qt::CaseInsensitive) == 0)
            length = line.mid(colon + 1).trimmed().toLongLong();
    }
    const qsizetype total = end + 4 + length;
    return raw.size() >= total ? total : -1;
}

QByteArray rawExchange(quint16 port, const QByteArray &bytes, bool untilResponse, int timeoutMs,
                       bool *closedByServer) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (closedByServer)
        *closedByServer = false;
    if (!socket.waitForConnected(timeoutMs))
        return {};
    socket.write(bytes);
    QByteArray received;
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (untilResponse && completeResponseLength(received) >= 0)
            break;
        if (socket.state() != QAbstractSocket::ConnectedState) {
            if (closedByServer)
                *closedByServer = true;
            break;
        }
        // Keep writing what is left (a huge header) while reading what comes back.
        socket.waitForBytesWritten(0);
        if (socket.waitForReadyRead(static_cast<int>(qMin<qint64>(200, deadline.remainingTime()))))
            received += socket.readAll();
    }
    received += socket.readAll();
    return received;
}

int rawStatus(const QByteArray &raw) {
    if (!raw.startsWith("HTTP/1."))
        return 0;
    return raw.mid(9, 3).toInt();
}

QByteArray rawBody(const QByteArray &raw) {
    const qsizetype end = raw.indexOf("\r\n\r\n");
    const qsizetype total = completeResponseLength(raw);
    if (end < 0 || total < 0)
        return {};
    return raw.mid(end + 4, total - end - 4);
}

bool isErrorEnvelope(const QByteArray &body, QString *why) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    auto fail = [&](const QString &text) {
        if (why)
            *why = text + QStringLiteral(": ") + QString::fromUtf8(body.left(300));
        return false;
    };
    if (!document.isObject())
        return fail(QStringLiteral("not a JSON object"));
    const QJsonObject object = document.object();
    if (!object.value(QStringLiteral("success")).isBool() ||
        object.value(QStringLiteral("success")).toBool())
        return fail(QStringLiteral("success is not false"));
    if (!object.value(QStringLiteral("message")).isString() ||
        object.value(QStringLiteral("message")).toString().isEmpty())
        return fail(QStringLiteral("message is not a non-empty string"));
    if (!object.contains(QStringLiteral("data")) || !object.value(QStringLiteral("data")).isNull())
        return fail(QStringLiteral("data is not null"));
    if (!object.contains(QStringLiteral("hint")) || !object.value(QStringLiteral("hint")).isNull())
        return fail(QStringLiteral("hint is not null"));
    return true;
}

} // namespace sbxtest
