#pragma once

#include "client/transport/credentials.h"
#include "client/transport/status.h"

#include <QNetworkReply>

namespace sbx {

// Everything known about a finished HTTP exchange, gathered before mapping it to a Status.
struct ReplyFacts {
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int httpStatus = 0;
    QByteArray body;
    bool timedOut = false;
    int timeoutMs = 0;
    bool cancelled = false;
    QByteArray certificateSha256;
    QString method;
    QString path;    // API path only: never the query, which may carry a secret
    QString address; // Endpoint::displayAddress()
    Credentials::Kind credentials = Credentials::Kind::None;
    QString credentialsOrigin; // Credentials::origin
};

// The one place where HTTP statuses, transport errors and AIO envelopes become a Status.
// A 2xx reply maps to Ok; the caller then parses its body.
Status statusFromReply(const ReplyFacts &facts);

// The text a person reads for an error body: the envelope's message, FastAPI's `detail`, or
// nothing when the body says nothing useful.
QString messageFromErrorBody(const QByteArray &body);

} // namespace sbx
