#pragma once

#include "client/transport/status.h"

#include <nlohmann/json.hpp>

#include <QString>

namespace sbx {

// AIO's `{success, message, data, hint}` wrapper, read defensively: every field is optional.
struct Envelope {
    bool success = true;
    QString message;
    nlohmann::json data;
    QString hint;
    nlohmann::json raw;
};

// Parses a JSON body. A body that is not a JSON object is a BadResponse naming `what`.
// An envelope with success:false maps to a Server status carrying its message.
Status parseEnvelope(const QByteArray &body, const QString &what, Envelope *out);
Status parseJsonObject(const QByteArray &body, const QString &what, nlohmann::json *out);

// Tolerant field readers: a missing, null or wrongly typed field gives the fallback.
QString jsonString(const nlohmann::json &j, const char *key, const QString &fallback = {});
qint64 jsonInt(const nlohmann::json &j, const char *key, qint64 fallback = 0);
double jsonDouble(const nlohmann::json &j, const char *key, double fallback = 0);
bool jsonBool(const nlohmann::json &j, const char *key, bool fallback = false);
QStringList jsonStringList(const nlohmann::json &j, const char *key);
const nlohmann::json &jsonChild(const nlohmann::json &j, const char *key);

} // namespace sbx
