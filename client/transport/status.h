#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

class QNetworkReply;

namespace sbx {

// One field a request was refused for (a 422's `detail` item): the body field it names.
struct FieldError {
    QString field;
    QString message;
};

// The outcome of a call, with a message a person can act on. Never carries a secret.
struct Status {
    enum class Kind {
        Ok,
        Network,     // refused, host not found, connection dropped
        Timeout,     // no answer in time
        Tls,         // certificate not trusted; see certificateSha256
        Auth,        // 401/403: missing or wrong credentials
        NotFound,    // 404
        Conflict,    // 409
        Validation,  // 400/422
        Server,      // 5xx, or success:false from the server
        BadResponse, // answered, but not with what the AIO contract says
        Cancelled,   // abort()
    };

    Kind kind = Kind::Ok;
    int httpStatus = 0;
    QString message;
    // SHA-256 of the peer's leaf certificate when kind is Tls, so the user can pin it.
    QByteArray certificateSha256;
    // AIO's file error_type when the server gave one (not_found, permission_denied, ...).
    QString errorType;
    // Per-field reasons of a validation refusal, so a form can show each under its field.
    QList<FieldError> fieldErrors;
    // BadResponse for JSON well-formed as far as it went: an answer of no declared length
    // (chunked) that stopped there was cut (ApiJob makes it a Network failure).
    bool endedEarly = false;

    bool ok() const { return kind == Kind::Ok; }
    static Status success() { return {}; }
    static Status error(Kind kind, QString message, int httpStatus = 0) {
        return Status{kind, httpStatus, std::move(message), {}, {}, {}};
    }
    // Whether retrying the same idempotent call later may succeed.
    bool transient() const { return kind == Kind::Network || kind == Kind::Timeout; }
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::Status)
