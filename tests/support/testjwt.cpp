#include "tests/support/testjwt.h"

#include <jwt.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <QtGlobal>

#include <cstdlib>

namespace sbxtest {

namespace {
QByteArray bioText(BIO *bio) {
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, static_cast<qsizetype>(size));
}
} // namespace

TestRsaKey generateRsaKey() {
    EVP_PKEY *pkey = EVP_RSA_gen(2048);
    if (!pkey)
        qFatal("EVP_RSA_gen failed");
    TestRsaKey key;
    BIO *priv = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(priv, pkey, nullptr, nullptr, 0, nullptr, nullptr);
    key.privatePem = bioText(priv);
    BIO_free(priv);
    BIO *pub = BIO_new(BIO_s_mem());
    PEM_write_bio_PUBKEY(pub, pkey);
    key.publicPem = bioText(pub);
    BIO_free(pub);
    EVP_PKEY_free(pkey);
    return key;
}

QByteArray makeJwt(const TestRsaKey &key, const QJsonObject &claims, const QByteArray &alg) {
    jwt_t *jwt = nullptr;
    jwt_new(&jwt);
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        const QByteArray name = it.key().toUtf8();
        if (it.value().isDouble())
            jwt_add_grant_int(jwt, name.constData(), static_cast<long>(it.value().toDouble()));
        else
            jwt_add_grant(jwt, name.constData(), it.value().toString().toUtf8().constData());
    }
    int rc = 0;
    if (alg == "RS256")
        rc = jwt_set_alg(jwt, JWT_ALG_RS256,
                         reinterpret_cast<const unsigned char *>(key.privatePem.constData()),
                         static_cast<int>(key.privatePem.size()));
    else if (alg == "HS256")
        rc = jwt_set_alg(jwt, JWT_ALG_HS256,
                         reinterpret_cast<const unsigned char *>(key.publicPem.constData()),
                         static_cast<int>(key.publicPem.size()));
    else
        rc = jwt_set_alg(jwt, JWT_ALG_NONE, nullptr, 0);
    if (rc != 0)
        qFatal("jwt_set_alg failed");
    char *encoded = jwt_encode_str(jwt);
    QByteArray token(encoded ? encoded : "");
    std::free(encoded);
    jwt_free(jwt);
    return token;
}

QList<QByteArray> pemBodyLines(const QByteArray &pem) {
    QList<QByteArray> lines;
    for (const QByteArray &line : pem.split('\n')) {
        if (line.size() > 40 && !line.startsWith("-----"))
            lines << line;
    }
    return lines;
}

} // namespace sbxtest
