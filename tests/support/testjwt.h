#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace sbxtest {

// An RSA key pair made for one test run, and tokens signed with it (or forged) for auth tests.
struct TestRsaKey {
    QByteArray privatePem;
    QByteArray publicPem;
    // The form JWT_PUBLIC_KEY takes: base64 of the PEM, on one line.
    QByteArray publicPemBase64() const { return publicPem.toBase64(); }
};

TestRsaKey generateRsaKey();
// alg is "RS256" (signed with the private key), "HS256" (HMAC keyed with the *public* PEM: the
// classic forgery) or "none".
QByteArray makeJwt(const TestRsaKey &key, const QJsonObject &claims,
                   const QByteArray &alg = "RS256");
// The base64 body lines of a PEM: enough to find a key in a file (settings, logs) whatever
// its line wrapping.
QList<QByteArray> pemBodyLines(const QByteArray &pem);

} // namespace sbxtest
