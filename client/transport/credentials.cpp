#include "client/transport/credentials.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace sbx {

QDateTime jwtExpiry(const QString &token) {
    const QStringList parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    const QByteArray payload = QByteArray::fromBase64(
        parts.at(1).toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    const QJsonObject claims = QJsonDocument::fromJson(payload).object();
    const QJsonValue exp = claims.value(QLatin1String("exp"));
    if (!exp.isDouble())
        return {};
    return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(exp.toDouble()), Qt::UTC);
}

QString credentialsKindName(Credentials::Kind kind) {
    switch (kind) {
    case Credentials::Kind::None:
        return QCoreApplication::translate("sbx::Credentials", "None");
    case Credentials::Kind::ApiKey:
        return QCoreApplication::translate("sbx::Credentials", "API key");
    case Credentials::Kind::Jwt:
        return QCoreApplication::translate("sbx::Credentials", "JWT");
    case Credentials::Kind::SignedJwt:
        return QCoreApplication::translate("sbx::Credentials", "Console-signed JWT");
    }
    return {};
}

} // namespace sbx
