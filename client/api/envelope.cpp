#include "client/api/envelope.h"

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

Status parseJsonObject(const QByteArray &body, const QString &what, json *out) {
    // endedEarly: well-formed as far as it went, so the answer stopped short.
    const auto invalid = [&](bool endedEarly) {
        Status status = Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::Envelope", "%1: the server replied with invalid JSON")
                .arg(what));
        status.endedEarly = endedEarly && !body.isEmpty();
        return status;
    };
    try {
        *out = json::parse(body.begin(), body.end());
    } catch (const json::parse_error &e) {
        return invalid(e.byte > static_cast<std::size_t>(body.size()));
    } catch (const json::exception &) {
        return invalid(false);
    }
    if (!out->is_object())
        return Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::Envelope",
                                        "%1: the server replied with JSON that is not an object")
                .arg(what));
    return Status::success();
}

Status parseEnvelope(const QByteArray &body, const QString &what, Envelope *out) {
    json j;
    if (Status s = parseJsonObject(body, what, &j); !s.ok())
        return s;
    out->success = jsonBool(j, "success", true);
    out->message = jsonString(j, "message");
    out->hint = jsonString(j, "hint");
    if (auto it = j.find("data"); it != j.end())
        out->data = *it;
    out->raw = std::move(j);
    if (!out->success) {
        QString text = out->message;
        // File errors carry a more precise message in data (FileOperationError).
        if (out->data.is_object()) {
            const QString detail = jsonString(out->data, "message");
            if (!detail.isEmpty() && detail != text)
                text = text.isEmpty() ? detail : text + u": "_s + detail;
        }
        Status status = Status::error(
            Status::Kind::Server,
            text.isEmpty() ? QCoreApplication::translate("sbx::Envelope", "%1 failed").arg(what)
                           : text,
            200);
        status.errorType = jsonString(out->data, "error_type");
        if (status.errorType == QLatin1String("not_found"))
            status.kind = Status::Kind::NotFound;
        return status;
    }
    return Status::success();
}

const json &jsonChild(const json &j, const char *key) {
    static const json null;
    if (!j.is_object())
        return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

QString jsonString(const json &j, const char *key, const QString &fallback) {
    const json &v = jsonChild(j, key);
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_integer())
        return QString::number(v.get<long long>());
    return fallback;
}

qint64 jsonInt(const json &j, const char *key, qint64 fallback) {
    const json &v = jsonChild(j, key);
    if (v.is_number_integer())
        return v.get<qint64>();
    if (v.is_number())
        return static_cast<qint64>(v.get<double>());
    return fallback;
}

double jsonDouble(const json &j, const char *key, double fallback) {
    const json &v = jsonChild(j, key);
    return v.is_number() ? v.get<double>() : fallback;
}

bool jsonBool(const json &j, const char *key, bool fallback) {
    const json &v = jsonChild(j, key);
    return v.is_boolean() ? v.get<bool>() : fallback;
}

QStringList jsonStringList(const json &j, const char *key) {
    QStringList out;
    const json &v = jsonChild(j, key);
    if (!v.is_array())
        return out;
    for (const json &item : v) {
        if (item.is_string())
            out << QString::fromStdString(item.get<std::string>());
        else if (item.is_number_integer())
            out << QString::number(item.get<long long>());
    }
    return out;
}

} // namespace sbx
