#include "client/transport/jwtkeys.h"

#include "client/transport/lazylibrary.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace sbx {

namespace {

// The libcrypto functions used here, from libcrypto.so.3 at the first key or token: the
// console's start-up does not load OpenSSL for a feature most sessions never touch.
struct Crypto {
    decltype(&BIO_new) bioNew = nullptr;
    decltype(&BIO_s_mem) bioSMem = nullptr;
    decltype(&BIO_new_mem_buf) bioNewMemBuf = nullptr;
    decltype(&BIO_ctrl) bioCtrl = nullptr;
    decltype(&BIO_free) bioFree = nullptr;
    decltype(&PEM_write_bio_PUBKEY) writePublicPem = nullptr;
    decltype(&PEM_write_bio_PrivateKey) writePrivatePem = nullptr;
    decltype(&PEM_read_bio_PrivateKey) readPrivatePem = nullptr;
    decltype(&EVP_PKEY_Q_keygen) keygen = nullptr;
    decltype(&EVP_PKEY_get_base_id) keyBaseId = nullptr;
    decltype(&EVP_PKEY_free) keyFree = nullptr;
    decltype(&EVP_sha256) sha256 = nullptr;
    decltype(&EVP_MD_CTX_new) digestNew = nullptr;
    decltype(&EVP_MD_CTX_free) digestFree = nullptr;
    decltype(&EVP_DigestSignInit) digestSignInit = nullptr;
    decltype(&EVP_DigestSign) digestSign = nullptr;
};

const Crypto *crypto() {
    static const Crypto *loaded = []() -> const Crypto * {
        static Crypto api;
        LazyLibrary library(QStringLiteral("crypto"), 3);
        library.bind(api.bioNew, "BIO_new");
        library.bind(api.bioSMem, "BIO_s_mem");
        library.bind(api.bioNewMemBuf, "BIO_new_mem_buf");
        library.bind(api.bioCtrl, "BIO_ctrl");
        library.bind(api.bioFree, "BIO_free");
        library.bind(api.writePublicPem, "PEM_write_bio_PUBKEY");
        library.bind(api.writePrivatePem, "PEM_write_bio_PrivateKey");
        library.bind(api.readPrivatePem, "PEM_read_bio_PrivateKey");
        library.bind(api.keygen, "EVP_PKEY_Q_keygen");
        library.bind(api.keyBaseId, "EVP_PKEY_get_base_id");
        library.bind(api.keyFree, "EVP_PKEY_free");
        library.bind(api.sha256, "EVP_sha256");
        library.bind(api.digestNew, "EVP_MD_CTX_new");
        library.bind(api.digestFree, "EVP_MD_CTX_free");
        library.bind(api.digestSignInit, "EVP_DigestSignInit");
        library.bind(api.digestSign, "EVP_DigestSign");
        if (const QString error = library.error(); !error.isEmpty()) {
            qWarning("JWT keys are unavailable: %s", qPrintable(error));
            return nullptr;
        }
        return &api;
    }();
    return loaded;
}

struct BioFree {
    void operator()(BIO *bio) const { crypto()->bioFree(bio); }
};
struct KeyFree {
    void operator()(EVP_PKEY *key) const { crypto()->keyFree(key); }
};
struct DigestFree {
    void operator()(EVP_MD_CTX *context) const { crypto()->digestFree(context); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

QByteArray bioText(const Crypto &c, BIO *bio) {
    char *data = nullptr;
    const long size = c.bioCtrl(bio, BIO_CTRL_INFO, 0, &data); // BIO_get_mem_data
    return size > 0 ? QByteArray(data, static_cast<qsizetype>(size)) : QByteArray();
}

QByteArray publicPemOf(const Crypto &c, EVP_PKEY *key) {
    BioPtr bio(c.bioNew(c.bioSMem()));
    if (!bio || c.writePublicPem(bio.get(), key) != 1)
        return {};
    return bioText(c, bio.get());
}

KeyPtr readPrivateKey(const Crypto &c, const QByteArray &privatePem) {
    BioPtr bio(c.bioNewMemBuf(privatePem.constData(), static_cast<int>(privatePem.size())));
    if (!bio)
        return {};
    // A null passphrase callback: an encrypted key fails instead of prompting on a terminal.
    return KeyPtr(c.readPrivatePem(bio.get(), nullptr, nullptr, const_cast<char *>("")));
}

// A private RSA key, or null.
KeyPtr readRsaKey(const Crypto &c, const QByteArray &privatePem) {
    KeyPtr key = readPrivateKey(c, privatePem);
    return key && c.keyBaseId(key.get()) == EVP_PKEY_RSA ? std::move(key) : KeyPtr();
}

QByteArray base64Url(const QByteArray &bytes) {
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

JwtKeyPair generateRsaKeyPair(int bits) {
    const Crypto *c = crypto();
    if (bits < 2048 || !c)
        return {};
    KeyPtr key(c->keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits)));
    if (!key)
        return {};
    BioPtr priv(c->bioNew(c->bioSMem()));
    if (!priv ||
        c->writePrivatePem(priv.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    JwtKeyPair pair{bioText(*c, priv.get()), publicPemOf(*c, key.get())};
    return pair.isNull() ? JwtKeyPair{} : pair;
}

QByteArray publicPemFromPrivate(const QByteArray &privatePem) {
    const Crypto *c = crypto();
    if (!c)
        return {};
    const KeyPtr key = readRsaKey(*c, privatePem);
    return key ? publicPemOf(*c, key.get()) : QByteArray();
}

QByteArray jwtPublicKeyEnvValue(const QByteArray &publicPem) {
    return publicPem.toBase64();
}

QString signRs256(const QByteArray &privatePem, std::chrono::seconds lifetime,
                  const QString &subject) {
    const Crypto *c = crypto();
    if (!c || lifetime.count() <= 0)
        return {};
    const KeyPtr key = readRsaKey(*c, privatePem); // RS256 needs an RSA key
    if (!key)
        return {};
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    // nbf a little in the past: a container's clock may run slightly behind ours.
    const QJsonObject claims{{u"iat"_s, now},
                             {u"nbf"_s, now - 30},
                             {u"exp"_s, now + static_cast<qint64>(lifetime.count())},
                             {u"sub"_s, subject}};
    const QByteArray input = base64Url(R"({"alg":"RS256","typ":"JWT"})") + '.' +
                             base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    const std::unique_ptr<EVP_MD_CTX, DigestFree> digest(c->digestNew());
    size_t length = 0;
    if (!digest || c->digestSignInit(digest.get(), nullptr, c->sha256(), nullptr, key.get()) != 1 ||
        c->digestSign(digest.get(), nullptr, &length,
                      reinterpret_cast<const unsigned char *>(input.constData()),
                      static_cast<size_t>(input.size())) != 1)
        return {};
    QByteArray signature(static_cast<qsizetype>(length), Qt::Uninitialized);
    if (c->digestSign(digest.get(), reinterpret_cast<unsigned char *>(signature.data()), &length,
                      reinterpret_cast<const unsigned char *>(input.constData()),
                      static_cast<size_t>(input.size())) != 1)
        return {};
    signature.truncate(static_cast<qsizetype>(length));
    return QString::fromLatin1(input + '.' + base64Url(signature));
}

} // namespace sbx
