#include "client/transport/jwtkeys.h"

#include <jwt.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <QDateTime>

#include <cstdlib>
#include <memory>

namespace sbx {

namespace {

using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using JwtPtr = std::unique_ptr<jwt_t, decltype(&jwt_free)>;

QByteArray bioText(BIO *bio) {
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? QByteArray(data, static_cast<qsizetype>(size)) : QByteArray();
}

QByteArray publicPemOf(EVP_PKEY *key) {
    BioPtr bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio || PEM_write_bio_PUBKEY(bio.get(), key) != 1)
        return {};
    return bioText(bio.get());
}

KeyPtr readPrivateKey(const QByteArray &privatePem) {
    BioPtr bio(BIO_new_mem_buf(privatePem.constData(), static_cast<int>(privatePem.size())),
               &BIO_free);
    if (!bio)
        return {nullptr, &EVP_PKEY_free};
    // A null passphrase callback: an encrypted key fails instead of prompting on a terminal.
    return {PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, const_cast<char *>("")),
            &EVP_PKEY_free};
}

} // namespace

JwtKeyPair generateRsaKeyPair(int bits) {
    if (bits < 2048)
        return {};
    KeyPtr key(EVP_RSA_gen(static_cast<unsigned>(bits)), &EVP_PKEY_free);
    if (!key)
        return {};
    BioPtr priv(BIO_new(BIO_s_mem()), &BIO_free);
    if (!priv ||
        PEM_write_bio_PrivateKey(priv.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    JwtKeyPair pair{bioText(priv.get()), publicPemOf(key.get())};
    return pair.isNull() ? JwtKeyPair{} : pair;
}

QByteArray publicPemFromPrivate(const QByteArray &privatePem) {
    const KeyPtr key = readPrivateKey(privatePem);
    if (!key || EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA)
        return {};
    return publicPemOf(key.get());
}

QByteArray jwtPublicKeyEnvValue(const QByteArray &publicPem) {
    return publicPem.toBase64();
}

QString signRs256(const QByteArray &privatePem, std::chrono::seconds lifetime,
                  const QString &subject) {
    // libjwt would sign with any PEM it can read; RS256 needs an RSA private key.
    if (publicPemFromPrivate(privatePem).isEmpty() || lifetime.count() <= 0)
        return {};
    jwt_t *raw = nullptr;
    if (jwt_new(&raw) != 0)
        return {};
    JwtPtr jwt(raw, &jwt_free);
    const long now = static_cast<long>(QDateTime::currentSecsSinceEpoch());
    // nbf a little in the past: a container's clock may run slightly behind ours.
    const bool ok =
        jwt_add_grant_int(jwt.get(), "iat", now) == 0 &&
        jwt_add_grant_int(jwt.get(), "nbf", now - 30) == 0 &&
        jwt_add_grant_int(jwt.get(), "exp", now + static_cast<long>(lifetime.count())) == 0 &&
        jwt_add_grant(jwt.get(), "sub", subject.toUtf8().constData()) == 0 &&
        jwt_set_alg(jwt.get(), JWT_ALG_RS256,
                    reinterpret_cast<const unsigned char *>(privatePem.constData()),
                    static_cast<int>(privatePem.size())) == 0;
    if (!ok)
        return {};
    char *encoded = jwt_encode_str(jwt.get());
    if (!encoded)
        return {};
    const QString token = QString::fromLatin1(encoded);
    std::free(encoded);
    return token;
}

} // namespace sbx
