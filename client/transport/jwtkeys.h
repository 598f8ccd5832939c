#pragma once

#include <QByteArray>
#include <QString>

#include <chrono>

namespace sbx {

using namespace Qt::StringLiterals;

// RSA key pairs and RS256 tokens for sandboxes the console creates: the sandbox gets the public
// key (JWT_PUBLIC_KEY), the console keeps the private key in its SecretStore and signs
// short-lived tokens with it.
struct JwtKeyPair {
    QByteArray privatePem; // PKCS#8 PEM: a secret
    QByteArray publicPem;  // SubjectPublicKeyInfo PEM

    bool isNull() const { return privatePem.isEmpty() || publicPem.isEmpty(); }
};

// A fresh RSA pair through OpenSSL EVP; null on failure.
JwtKeyPair generateRsaKeyPair(int bits = 2048);
// The public half of a private key PEM; empty when privatePem is not a private key.
QByteArray publicPemFromPrivate(const QByteArray &privatePem);
// JWT_PUBLIC_KEY's form, as AIO documents it: the PEM in base64 on one line.
QByteArray jwtPublicKeyEnvValue(const QByteArray &publicPem);

// An RS256 token with iat, nbf, exp (now + lifetime) and sub; empty when the key is unusable.
QString signRs256(const QByteArray &privatePem,
                  std::chrono::seconds lifetime = std::chrono::minutes(15),
                  const QString &subject = u"sandbox-console"_s);

} // namespace sbx
