#pragma once

#include <QDateTime>
#include <QString>

namespace sbx {

// How requests to one sandbox authenticate. Tickets are minted on demand from these.
struct Credentials {
    // SignedJwt: `secret` is an RSA private key PEM; SandboxClient signs short-lived RS256
    // tokens with it (sandboxes the console created with JWT_PUBLIC_KEY). Values are persisted.
    enum class Kind { None, ApiKey, Jwt, SignedJwt };

    Kind kind = Kind::None;
    QString secret;
    // Where the secret came from when not from the user's entry or the keychain, for messages:
    // e.g. "the environment variable SBX_KEY (--api-key-env)". Never the secret; not persisted.
    QString origin = {};

    bool isEmpty() const { return kind == Kind::None || secret.isEmpty(); }
    bool operator==(const Credentials &) const = default;
};

// Reads a JWT's `exp` claim without verifying it (display only). Invalid when absent.
QDateTime jwtExpiry(const QString &token);
// How long before its expiry a JWT is flagged in the list and notified.
inline constexpr int kJwtExpiryWarningSecs = 5 * 60;

QString credentialsKindName(Credentials::Kind kind);

} // namespace sbx
