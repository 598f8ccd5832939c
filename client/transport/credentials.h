#pragma once

#include <QDateTime>
#include <QString>

// How requests to one sandbox authenticate. Tickets are minted on demand from these.
struct Credentials {
    enum class Kind { None, ApiKey, Jwt };

    Kind kind = Kind::None;
    QString secret;

    bool isEmpty() const { return kind == Kind::None || secret.isEmpty(); }
    bool operator==(const Credentials &) const = default;
};

// Reads a JWT's `exp` claim without verifying it (display only). Invalid when absent.
QDateTime jwtExpiry(const QString &token);

QString credentialsKindName(Credentials::Kind kind);
