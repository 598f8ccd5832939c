#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrl>

#include <utility>

// Blocking (bounded) HTTP helpers for the server suites: one request through
// QNetworkAccessManager, or raw bytes over a QTcpSocket for what QNAM will not send.
namespace sbxtest {

using HeaderPairs = QList<std::pair<QByteArray, QByteArray>>;

struct HttpResult {
    // 0 when no HTTP response arrived.
    int status = 0;
    QByteArray body;
    HeaderPairs headers;
    QString networkError;

    QByteArray header(const QByteArray &name) const;
    QJsonObject json() const;
};

HttpResult request(const QByteArray &method, const QUrl &url, const HeaderPairs &headers = {},
                   const QByteArray &body = {}, int timeoutMs = 15000);

// Writes bytes on a fresh connection; returns what the server sent until it closed the
// connection, a complete response arrived (when untilResponse), or the timeout.
QByteArray rawExchange(quint16 port, const QByteArray &bytes, bool untilResponse = true,
                       int timeoutMs = 15000, bool *closedByServer = nullptr);
// Length of the first complete response in raw bytes (by Content-Length), or -1 while incomplete.
qsizetype completeResponseLength(const QByteArray &raw);
// The status code of the first response in raw bytes, 0 if none.
int rawStatus(const QByteArray &raw);
// The body of the first response in raw bytes (by Content-Length).
QByteArray rawBody(const QByteArray &raw);

// True when body is AIO's error envelope: success false, message a non-empty string,
// data and hint null.
bool isErrorEnvelope(const QByteArray &body, QString *why = nullptr);

} // namespace sbxtest
