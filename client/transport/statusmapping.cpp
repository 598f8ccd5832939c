#include "client/transport/statusmapping.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {

// One item of FastAPI's validation `detail`: [{loc: ["body","command"], msg, type}, ...].
struct DetailItem {
    QStringList where; // loc without "body"
    QString field;     // the request field named: loc's first name after body/query/path
    QString message;
};

QList<DetailItem> detailItems(const json &detail) {
    QList<DetailItem> items;
    for (const json &item : detail) {
        if (!item.is_object())
            continue;
        DetailItem out;
        if (auto loc = item.find("loc"); loc != item.end() && loc->is_array()) {
            for (const json &seg : *loc) {
                if (seg.is_string()) {
                    const QString name = QString::fromStdString(seg.get<std::string>());
                    if (name != QLatin1String("body"))
                        out.where << name;
                    if (out.field.isEmpty() && name != QLatin1String("body") &&
                        name != QLatin1String("query") && name != QLatin1String("path"))
                        out.field = name;
                } else if (seg.is_number_integer()) {
                    out.where << QString::number(seg.get<long long>());
                }
            }
        }
        out.message = item.value("msg", json()).is_string()
                          ? QString::fromStdString(item["msg"].get<std::string>())
                          : QCoreApplication::translate("sbx::Status", "invalid");
        items << out;
    }
    return items;
}

const json *detailArray(const json &body) {
    if (!body.is_object())
        return nullptr;
    auto detail = body.find("detail");
    return detail != body.end() && detail->is_array() ? &*detail : nullptr;
}

} // namespace

QString messageFromErrorBody(const QByteArray &body) {
    const json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_object())
        return {};
    if (auto it = j.find("message"); it != j.end() && it->is_string())
        return QString::fromStdString(it->get<std::string>());
    if (auto detail = j.find("detail"); detail != j.end() && detail->is_string())
        return QString::fromStdString(detail->get<std::string>());
    const json *detail = detailArray(j);
    if (!detail)
        return {};
    QStringList parts;
    for (const DetailItem &item : detailItems(*detail)) {
        const QString where = item.where.join(QLatin1Char('.'));
        parts << (where.isEmpty() ? item.message : where + u": "_s + item.message);
    }
    return parts.join(u"; "_s);
}

namespace {

QList<FieldError> fieldErrorsFromErrorBody(const QByteArray &body) {
    const json j = json::parse(body.begin(), body.end(), nullptr, false);
    QList<FieldError> errors;
    if (const json *detail = detailArray(j)) {
        for (const DetailItem &item : detailItems(*detail)) {
            if (!item.field.isEmpty())
                errors.append({item.field, item.message});
        }
    }
    return errors;
}

// AIO's FileOperationError, wherever a body carries it: in the envelope's data (AIO's JSON file
// routes), in FastAPI's detail (an HTTPException raised with it), or as the body itself.
struct FileErrorFacts {
    QString type;
    QString message;
};

QString stringField(const json &object, const char *name) {
    if (!object.is_object())
        return {};
    const auto it = object.find(name);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

// What errno a file failure's text or errno_name names, as AIO's error_type; "" for anything else.
QString errorTypeFromText(const QString &text) {
    static const QStringList denied = {u"Permission denied"_s,
                                       u"Operation not permitted"_s,
                                       u"EACCES"_s,
                                       u"EPERM"_s,
                                       u"[Errno 13]"_s,
                                       u"[Errno 1]"_s,
                                       u"PermissionError"_s};
    static const QStringList missing = {u"No such file or directory"_s, u"ENOENT"_s, u"[Errno 2]"_s,
                                        u"FileNotFoundError"_s};
    const auto names = [&text](const QStringList &words) {
        return std::any_of(words.begin(), words.end(), [&text](const QString &w) {
            return text.contains(w, Qt::CaseInsensitive);
        });
    };
    if (names(denied))
        return u"permission_denied"_s;
    if (names(missing))
        return u"not_found"_s;
    return {};
}

FileErrorFacts fileErrorFacts(const QByteArray &body, const ReplyFacts &f) {
    const json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_object())
        return {};
    const json empty;
    const auto child = [&j, &empty](const char *name) -> const json & {
        const auto it = j.find(name);
        return it != j.end() && it->is_object() ? *it : empty;
    };
    for (const json *holder : {&child("data"), &child("detail"), &j}) {
        const QString type = stringField(*holder, "error_type");
        if (!type.isEmpty())
            return {type, stringField(*holder, "message")};
    }
    // Without error_type (an implementation that raises its own error shape): on a file route,
    // a refusal whose text or errno names a file failure is that failure, not a credential
    // problem. A 401 is always about credentials.
    if (!f.path.startsWith(QLatin1String("/v1/file/")) || f.httpStatus == 401)
        return {};
    for (const json *holder : {&child("data"), &child("detail"), &j}) {
        const QString message = stringField(*holder, "message");
        const QString text = message + QLatin1Char(' ') + stringField(*holder, "errno_name") +
                             QLatin1Char(' ') + stringField(*holder, "exception_type") +
                             QLatin1Char(' ') + stringField(*holder, "detail");
        if (const QString type = errorTypeFromText(text); !type.isEmpty())
            return {type, message.isEmpty() ? stringField(*holder, "detail") : message};
    }
    return {};
}

Status transportStatus(const ReplyFacts &f) {
    using E = QNetworkReply::NetworkError;
    const QString at = f.address;
    switch (f.error) {
    case E::ConnectionRefusedError:
        return Status::error(Status::Kind::Network,
                             QCoreApplication::translate(
                                 "sbx::Status", "Connection refused at %1: is the sandbox running?")
                                 .arg(at));
    case E::HostNotFoundError:
        return Status::error(
            Status::Kind::Network,
            QCoreApplication::translate("sbx::Status", "Host not found: %1").arg(at));
    case E::RemoteHostClosedError:
        return Status::error(
            Status::Kind::Network,
            QCoreApplication::translate("sbx::Status",
                                        "The server at %1 closed the connection before answering")
                .arg(at));
    case E::TimeoutError:
        return Status::error(
            Status::Kind::Timeout,
            QCoreApplication::translate("sbx::Status", "No answer from %1").arg(at));
    case E::SslHandshakeFailedError: {
        Status s = Status::error(
            Status::Kind::Tls,
            QCoreApplication::translate("sbx::Status", "The TLS certificate of %1 is not trusted")
                .arg(at));
        s.certificateSha256 = f.certificateSha256;
        return s;
    }
    case E::TemporaryNetworkFailureError:
    case E::NetworkSessionFailedError:
    case E::UnknownNetworkError:
        return Status::error(
            Status::Kind::Network,
            QCoreApplication::translate("sbx::Status", "Network failure while talking to %1")
                .arg(at));
    case E::ProxyConnectionRefusedError:
    case E::ProxyConnectionClosedError:
    case E::ProxyNotFoundError:
    case E::ProxyTimeoutError:
    case E::ProxyAuthenticationRequiredError:
    case E::UnknownProxyError:
        return Status::error(
            Status::Kind::Network,
            QCoreApplication::translate("sbx::Status", "The proxy in front of %1 failed").arg(at));
    default:
        return Status::error(
            Status::Kind::Network,
            QCoreApplication::translate("sbx::Status", "Could not talk to %1").arg(at));
    }
}

QString authMessage(const ReplyFacts &f, const QString &serverText) {
    // A 403 with a reason refuses this one operation (an env hook cannot be removed, ...): the
    // server's reason says why; guessing at the credentials would mislead.
    if (f.httpStatus == 403 && !serverText.isEmpty())
        return QCoreApplication::translate("sbx::Status", "%1 refused %2 %3: %4")
            .arg(f.address, f.method, f.path, serverText);
    QString text;
    switch (f.credentials) {
    case Credentials::Kind::None:
        text = QCoreApplication::translate("sbx::Status",
                                           "%1 requires authentication: add its API key or a JWT")
                   .arg(f.address);
        break;
    case Credentials::Kind::ApiKey:
        // The key's origin is the cause to name: a stale keychain entry is not the problem when
        // the key came from somewhere else.
        text =
            f.credentialsOrigin.isEmpty()
                ? QCoreApplication::translate("sbx::Status", "Wrong API key for %1").arg(f.address)
                : QCoreApplication::translate("sbx::Status", "%1 refused the API key from %2")
                      .arg(f.address, f.credentialsOrigin);
        break;
    case Credentials::Kind::Jwt:
        text =
            QCoreApplication::translate(
                "sbx::Status", "%1 refused the JWT: expired, not yet valid, or not signed with the "
                               "sandbox's key")
                .arg(f.address);
        break;
    case Credentials::Kind::SignedJwt:
        text = QCoreApplication::translate(
                   "sbx::Status", "%1 refused the console's signed JWT: it does not trust this "
                                  "console's key")
                   .arg(f.address);
        break;
    }
    return text;
}

} // namespace

Status statusFromReply(const ReplyFacts &f) {
    if (f.cancelled)
        return Status::error(Status::Kind::Cancelled,
                             QCoreApplication::translate("sbx::Status", "Cancelled"));
    if (f.timedOut)
        return Status::error(
            Status::Kind::Timeout,
            QCoreApplication::translate("sbx::Status", "No answer from %1 within %2 s")
                .arg(f.address)
                .arg(qMax(1, f.timeoutMs / 1000)));
    if (f.httpStatus == 0)
        return transportStatus(f);
    if (f.httpStatus >= 200 && f.httpStatus < 300)
        return Status::success();

    const QString serverText = messageFromErrorBody(f.body);
    // A file error keeps its own meaning whatever the status and body shape (a download refused
    // with 403 for permission denied is not an authentication failure).
    if (const FileErrorFacts file = fileErrorFacts(f.body, f); !file.type.isEmpty()) {
        Status s = Status::error(file.type == QLatin1String("not_found") ? Status::Kind::NotFound
                                                                         : Status::Kind::Server,
                                 serverText.isEmpty() ? file.message : serverText, f.httpStatus);
        if (s.message.isEmpty())
            s.message = QCoreApplication::translate("sbx::Status", "%1 %2 failed: %3 (HTTP %4)")
                            .arg(f.method, f.path, file.type)
                            .arg(f.httpStatus);
        s.errorType = file.type;
        return s;
    }
    const QString what = u"%1 %2"_s.arg(f.method, f.path);
    switch (f.httpStatus) {
    case 401:
    case 403:
        return Status::error(Status::Kind::Auth, authMessage(f, serverText), f.httpStatus);
    case 404:
        return Status::error(Status::Kind::NotFound,
                             serverText.isEmpty() || f.path == QLatin1String("/v1/sandbox")
                                 ? QCoreApplication::translate(
                                       "sbx::Status", "%1 has no %2: is this an AIO sandbox?")
                                       .arg(f.address, f.path)
                                 : serverText,
                             f.httpStatus);
    case 409:
        return Status::error(
            Status::Kind::Conflict,
            serverText.isEmpty()
                ? QCoreApplication::translate("sbx::Status", "%1: conflict").arg(what)
                : serverText,
            f.httpStatus);
    case 400:
    case 405:
    case 413:
    case 422: {
        Status s = Status::error(
            Status::Kind::Validation,
            serverText.isEmpty()
                ? QCoreApplication::translate("sbx::Status", "%1 was refused as invalid (HTTP %2)")
                      .arg(what)
                      .arg(f.httpStatus)
                : serverText,
            f.httpStatus);
        s.fieldErrors = fieldErrorsFromErrorBody(f.body);
        return s;
    }
    default:
        break;
    }
    if (f.httpStatus >= 500)
        return Status::error(
            Status::Kind::Server,
            QCoreApplication::translate("sbx::Status", "Sandbox service error (HTTP %1)%2")
                .arg(f.httpStatus)
                .arg(serverText.isEmpty() ? QString() : u": "_s + serverText),
            f.httpStatus);
    return Status::error(
        Status::Kind::BadResponse,
        QCoreApplication::translate("sbx::Status", "Unexpected HTTP %1 from %2 for %3")
            .arg(f.httpStatus)
            .arg(f.address, what),
        f.httpStatus);
}

} // namespace sbx
