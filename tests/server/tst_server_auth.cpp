// Authentication of sandbox-server (design.md section 6): API key, RS256 JWT, one-time
// tickets, refusals with the AIO envelope, WebSocket upgrades guarded before routing.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QTest>
#include <QUrlQuery>

#include <jwt.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdlib>
#include <ctime>
#include <memory>

using namespace sbxtest;

namespace {

const QByteArray kApiKey = QByteArrayLiteral("test-key-4f1c9a7e5d2b8f30");

struct KeyPair {
    QByteArray privatePem;
    QByteArray publicPem;
};

KeyPair generateRsaKeyPair() {
    KeyPair pair;
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> context(
        EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nullptr), &EVP_PKEY_CTX_free);
    EVP_PKEY *raw = nullptr;
    if (!context || EVP_PKEY_keygen_init(context.get()) != 1 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(context.get(), 2048) != 1 ||
        EVP_PKEY_keygen(context.get(), &raw) != 1)
        return pair;
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(raw, &EVP_PKEY_free);
    auto toPem = [&](bool isPrivate) {
        std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
        const int ok = isPrivate ? PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr,
                                                            0, nullptr, nullptr)
                                 : PEM_write_bio_PUBKEY(bio.get(), key.get());
        if (ok != 1)
            return QByteArray();
        char *data = nullptr;
        const long size = BIO_get_mem_data(bio.get(), &data);
        return QByteArray(data, static_cast<qsizetype>(size));
    };
    pair.privatePem = toPem(true);
    pair.publicPem = toPem(false);
    return pair;
}

struct Claims {
    std::optional<long> exp;
    std::optional<long> nbf;
};

// Signs with libjwt; key is the private PEM for RS256, or any secret for HS256.
QByteArray signToken(jwt_alg_t alg, const QByteArray &key, const Claims &claims) {
    jwt_t *raw = nullptr;
    if (jwt_new(&raw) != 0)
        return {};
    std::unique_ptr<jwt_t, decltype(&jwt_free)> jwt(raw, &jwt_free);
    jwt_add_grant(jwt.get(), "sub", "console");
    if (claims.exp)
        jwt_add_grant_int(jwt.get(), "exp", *claims.exp);
    if (claims.nbf)
        jwt_add_grant_int(jwt.get(), "nbf", *claims.nbf);
    const auto *keyData = reinterpret_cast<const unsigned char *>(key.constData());
    if (jwt_set_alg(jwt.get(), alg, alg == JWT_ALG_NONE ? nullptr : keyData,
                    alg == JWT_ALG_NONE ? 0 : static_cast<int>(key.size())) != 0)
        return {};
    char *encoded = jwt_encode_str(jwt.get());
    if (!encoded)
        return {};
    QByteArray token(encoded);
    std::free(encoded);
    return token;
}

long now() {
    return static_cast<long>(std::time(nullptr));
}

QByteArray upgradeRequest(const QByteArray &path) {
    return "GET " + path +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
}

} // namespace

class TestServerAuth final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void apiKeyHeaderAccepted();
    void apiKeyBearerAccepted();
    void apiKeyQueryAccepted();
    void jwtAccepted();
    void ticketAcceptedOnce();
    void ticketMintedWithJwt();
    void ticketCannotMintTicket();
    void refused_data();
    void refused();
    void ticketsWithoutCredentialsRefused();
    void webSocketUpgradeRefused_data();
    void webSocketUpgradeRefused();
    void authenticatedUpgradeToUnknownPathIsNotFound();
    void ticketExpires();
    void openWithoutConfiguration();
    void jwtShapedBearerIsTheKeyWithoutJwtConfig();
    void invalidJwtPublicKeyStopsStart();

private:
    QUrl url(const QString &path, const QList<std::pair<QString, QString>> &query = {}) const;
    QByteArray mintTicket(const QByteArray &authorization);

    KeyPair m_keys;
    KeyPair m_otherKeys;
    TestServer m_server;
    QList<QByteArray> m_presentedSecrets;
};

QUrl TestServerAuth::url(const QString &path,
                         const QList<std::pair<QString, QString>> &query) const {
    QUrl result = m_server.url(path);
    if (!query.isEmpty()) {
        QUrlQuery items;
        for (const auto &[key, value] : query)
            items.addQueryItem(key, QString::fromUtf8(QUrl::toPercentEncoding(value)));
        result.setQuery(items);
    }
    return result;
}

QByteArray TestServerAuth::mintTicket(const QByteArray &authorization) {
    const HttpResult result =
        request("POST", url(QStringLiteral("/tickets")), {{"Authorization", authorization}});
    if (result.status != 200)
        return {};
    return result.json().value(QStringLiteral("ticket")).toString().toUtf8();
}

void TestServerAuth::initTestCase() {
    m_keys = generateRsaKeyPair();
    m_otherKeys = generateRsaKeyPair();
    QVERIFY(!m_keys.privatePem.isEmpty() && !m_keys.publicPem.isEmpty());
    QVERIFY(!m_otherKeys.privatePem.isEmpty());

    TestServer::Options options;
    options.env.insert(QStringLiteral("SANDBOX_API_KEY"), QString::fromUtf8(kApiKey));
    options.env.insert(QStringLiteral("JWT_PUBLIC_KEY"),
                       QString::fromLatin1(m_keys.publicPem.toBase64()));
    QVERIFY2(m_server.start(options), qPrintable(m_server.error()));
    m_presentedSecrets << kApiKey;
}

void TestServerAuth::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
    // Secrets presented to the server, right or wrong, never reach its log.
    const QByteArray log = m_server.stderrText();
    for (const QByteArray &secret : std::as_const(m_presentedSecrets))
        QVERIFY2(!log.contains(secret), secret.constData());
}

void TestServerAuth::apiKeyHeaderAccepted() {
    const HttpResult result =
        request("GET", url(QStringLiteral("/v1/sandbox")), {{"X-AIO-API-Key", kApiKey}});
    QCOMPARE(result.status, 200);
    QVERIFY(result.json().value(QStringLiteral("success")).toBool());
}

void TestServerAuth::apiKeyBearerAccepted() {
    const HttpResult result = request("GET", url(QStringLiteral("/v1/sandbox")),
                                      {{"Authorization", "Bearer " + kApiKey}});
    QCOMPARE(result.status, 200);
}

void TestServerAuth::apiKeyQueryAccepted() {
    const HttpResult result =
        request("GET", url(QStringLiteral("/llms.txt"),
                           {{QStringLiteral("api_key"), QString::fromUtf8(kApiKey)}}));
    QCOMPARE(result.status, 200);
    QVERIFY(result.body.contains("System Environment"));
}

void TestServerAuth::jwtAccepted() {
    const QByteArray token =
        signToken(JWT_ALG_RS256, m_keys.privatePem, {now() + 3600, now() - 10});
    QVERIFY(!token.isEmpty());
    m_presentedSecrets << token;
    const HttpResult result =
        request("GET", url(QStringLiteral("/v1/sandbox")), {{"Authorization", "Bearer " + token}});
    QCOMPARE(result.status, 200);
}

void TestServerAuth::ticketAcceptedOnce() {
    const QByteArray ticket = mintTicket("Bearer " + kApiKey);
    QVERIFY(!ticket.isEmpty());
    m_presentedSecrets << ticket;
    // 32 random bytes, url-safe.
    QCOMPARE(ticket.size(), 43);
    QVERIFY(QByteArray::fromBase64(ticket, QByteArray::Base64UrlEncoding |
                                               QByteArray::AbortOnBase64DecodingErrors)
                .size() == 32);

    const QUrl withTicket =
        url(QStringLiteral("/v1/sandbox"), {{QStringLiteral("ticket"), QString::fromUtf8(ticket)}});
    QCOMPARE(request("GET", withTicket).status, 200);

    const HttpResult reused = request("GET", withTicket);
    QCOMPARE(reused.status, 401);
    QString why;
    QVERIFY2(isErrorEnvelope(reused.body, &why), qPrintable(why));
    QVERIFY(!reused.body.contains(ticket));
}

void TestServerAuth::ticketMintedWithJwt() {
    const QByteArray token = signToken(JWT_ALG_RS256, m_keys.privatePem, {now() + 600, {}});
    m_presentedSecrets << token;
    const HttpResult result =
        request("POST", url(QStringLiteral("/tickets")), {{"Authorization", "Bearer " + token}});
    QCOMPARE(result.status, 200);
    const QJsonObject body = result.json();
    // Plain object, not the envelope.
    QVERIFY(body.value(QStringLiteral("ticket")).isString());
    QCOMPARE(body.value(QStringLiteral("expires_in")).toInt(), 30);
    QVERIFY(!body.contains(QStringLiteral("success")));
    m_presentedSecrets << body.value(QStringLiteral("ticket")).toString().toUtf8();
}

void TestServerAuth::ticketCannotMintTicket() {
    const QByteArray ticket = mintTicket("Bearer " + kApiKey);
    QVERIFY(!ticket.isEmpty());
    m_presentedSecrets << ticket;
    const HttpResult result =
        request("POST", url(QStringLiteral("/tickets"),
                            {{QStringLiteral("ticket"), QString::fromUtf8(ticket)}}));
    QCOMPARE(result.status, 401);
    QVERIFY(isErrorEnvelope(result.body));
}

void TestServerAuth::refused_data() {
    QTest::addColumn<QByteArray>("headerName");
    QTest::addColumn<QByteArray>("headerValue");
    QTest::addColumn<QString>("queryKey");
    QTest::addColumn<QByteArray>("secret");

    const QByteArray wrongKey = "wrong-key-77aa";
    const QByteArray expired =
        signToken(JWT_ALG_RS256, m_keys.privatePem, {now() - 3600, now() - 7200});
    const QByteArray notYet =
        signToken(JWT_ALG_RS256, m_keys.privatePem, {now() + 7200, now() + 3600});
    // The classic confusion attack: HMAC "signed" with the server's public key text.
    const QByteArray forgedHs256 = signToken(JWT_ALG_HS256, m_keys.publicPem, {now() + 3600, {}});
    const QByteArray algNone = signToken(JWT_ALG_NONE, {}, {now() + 3600, {}});
    const QByteArray otherKey =
        signToken(JWT_ALG_RS256, m_otherKeys.privatePem, {now() + 3600, {}});
    const QByteArray noExp = signToken(JWT_ALG_RS256, m_keys.privatePem, {});
    for (const QByteArray &token : {expired, notYet, forgedHs256, algNone, otherKey, noExp})
        QVERIFY(!token.isEmpty());
    QVERIFY(algNone.endsWith('.'));

    QTest::newRow("missing credentials")
        << QByteArray() << QByteArray() << QString() << QByteArray();
    QTest::newRow("wrong key header")
        << QByteArray("X-AIO-API-Key") << wrongKey << QString() << wrongKey;
    QTest::newRow("wrong key bearer")
        << QByteArray("Authorization") << "Bearer " + wrongKey << QString() << wrongKey;
    QTest::newRow("wrong key query")
        << QByteArray() << QByteArray() << QStringLiteral("api_key") << wrongKey;
    QTest::newRow("key as Basic") << QByteArray("Authorization") << "Basic " + kApiKey.toBase64()
                                  << QString() << kApiKey.toBase64();
    QTest::newRow("unknown ticket") << QByteArray() << QByteArray() << QStringLiteral("ticket")
                                    << QByteArray("bm90LWEtdGlja2V0");
    QTest::newRow("expired JWT") << QByteArray("Authorization") << "Bearer " + expired << QString()
                                 << expired;
    QTest::newRow("JWT nbf in the future")
        << QByteArray("Authorization") << "Bearer " + notYet << QString() << notYet;
    QTest::newRow("forged HS256 JWT")
        << QByteArray("Authorization") << "Bearer " + forgedHs256 << QString() << forgedHs256;
    QTest::newRow("alg none JWT") << QByteArray("Authorization") << "Bearer " + algNone << QString()
                                  << algNone;
    QTest::newRow("JWT from another key")
        << QByteArray("Authorization") << "Bearer " + otherKey << QString() << otherKey;
    QTest::newRow("JWT without exp")
        << QByteArray("Authorization") << "Bearer " + noExp << QString() << noExp;
    QTest::newRow("JWT in the key header")
        << QByteArray("X-AIO-API-Key")
        << signToken(JWT_ALG_RS256, m_keys.privatePem, {now() + 3600, {}}) << QString()
        << QByteArray();
}

void TestServerAuth::refused() {
    QFETCH(QByteArray, headerName);
    QFETCH(QByteArray, headerValue);
    QFETCH(QString, queryKey);
    QFETCH(QByteArray, secret);
    if (!secret.isEmpty())
        m_presentedSecrets << secret;

    for (const QString &path : {QStringLiteral("/v1/sandbox"), QStringLiteral("/llms.txt"),
                                QStringLiteral("/no/such/path")}) {
        QList<std::pair<QString, QString>> query;
        if (!queryKey.isEmpty())
            query.append({queryKey, QString::fromUtf8(secret)});
        HeaderPairs headers;
        if (!headerName.isEmpty())
            headers.append({headerName, headerValue});
        const HttpResult result = request("GET", url(path, query), headers);
        QCOMPARE(result.status, 401);
        QString why;
        QVERIFY2(isErrorEnvelope(result.body, &why), qPrintable(why));
        const QString message = result.json().value(QStringLiteral("message")).toString();
        // The refusal tells a person what would work.
        QVERIFY2(message.contains(QStringLiteral("X-AIO-API-Key")) &&
                     message.contains(QStringLiteral("Bearer")) &&
                     message.contains(QStringLiteral("?api_key=")) &&
                     message.contains(QStringLiteral("?ticket=")) &&
                     message.contains(QStringLiteral("JWT")),
                 qPrintable(message));
        if (!secret.isEmpty())
            QVERIFY(!result.body.contains(secret));
    }
}

void TestServerAuth::ticketsWithoutCredentialsRefused() {
    const HttpResult result = request("POST", url(QStringLiteral("/tickets")));
    QCOMPARE(result.status, 401);
    QVERIFY(isErrorEnvelope(result.body));
    QVERIFY(!result.json().contains(QStringLiteral("ticket")));
}

void TestServerAuth::webSocketUpgradeRefused_data() {
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("shell ws") << QByteArray("/v1/shell/ws");
    QTest::newRow("root") << QByteArray("/");
    QTest::newRow("existing route") << QByteArray("/v1/sandbox");
    QTest::newRow("vnc websockify") << QByteArray("/websockify");
    QTest::newRow("wrong key in query") << QByteArray("/v1/shell/ws?api_key=nope-123");
    QTest::newRow("spent ticket") << QByteArray("/v1/shell/ws?ticket=bm90LWEtdGlja2V0");
}

void TestServerAuth::webSocketUpgradeRefused() {
    QFETCH(QByteArray, path);
    bool closed = false;
    const QByteArray raw =
        rawExchange(m_server.port(), upgradeRequest(path), false, 10000, &closed);
    QCOMPARE(rawStatus(raw), 401);
    QVERIFY2(closed, "the server keeps a refused upgrade's connection open");
    QVERIFY(!raw.contains("101 Switching Protocols"));
    QString why;
    QVERIFY2(isErrorEnvelope(rawBody(raw), &why), qPrintable(why));
}

void TestServerAuth::authenticatedUpgradeToUnknownPathIsNotFound() {
    QByteArray bytes = upgradeRequest("/v1/no-such-group/ws");
    bytes.insert(bytes.indexOf("\r\n\r\n"), "\r\nX-AIO-API-Key: " + kApiKey);
    const QByteArray raw = rawExchange(m_server.port(), bytes, false, 10000);
    QCOMPARE(rawStatus(raw), 404);
    QVERIFY(isErrorEnvelope(rawBody(raw)));
}

void TestServerAuth::ticketExpires() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(QStringLiteral("SANDBOX_API_KEY"), QString::fromUtf8(kApiKey));
    options.env.insert(QStringLiteral("TICKET_TTL_SECONDS"), QStringLiteral("1"));
    QVERIFY2(server.start(options), qPrintable(server.error()));

    QUrl mintUrl = server.url(QStringLiteral("/tickets"));
    const HttpResult minted = request("POST", mintUrl, {{"X-AIO-API-Key", kApiKey}});
    QCOMPARE(minted.status, 200);
    QCOMPARE(minted.json().value(QStringLiteral("expires_in")).toInt(), 1);
    QElapsedTimer sinceMint;
    sinceMint.start();
    const QString ticket = minted.json().value(QStringLiteral("ticket")).toString();

    // Using the ticket would spend it, so wait on the clock (polled, bounded) past its TTL.
    QTRY_VERIFY_WITH_TIMEOUT(sinceMint.hasExpired(1200), 5000);
    QUrl use = server.url(QStringLiteral("/v1/sandbox"));
    use.setQuery(QStringLiteral("ticket=") + ticket);
    const HttpResult late = request("GET", use);
    QCOMPARE(late.status, 401);
    QVERIFY(isErrorEnvelope(late.body));
    QCOMPARE(server.stop(), 0);
}

void TestServerAuth::openWithoutConfiguration() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    QCOMPARE(request("GET", target).status, 200);
    QCOMPARE(server.stop(), 0);
}

void TestServerAuth::jwtShapedBearerIsTheKeyWithoutJwtConfig() {
    const QByteArray dottedKey = "abc.def.ghi";
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(QString::fromUtf8(dottedKey))),
             qPrintable(server.error()));
    QUrl target = server.url(QStringLiteral("/v1/sandbox"));
    QCOMPARE(request("GET", target, {{"Authorization", "Bearer " + dottedKey}}).status, 200);
    QCOMPARE(request("GET", target, {{"Authorization", "Bearer abc.def.ghx"}}).status, 401);
    QCOMPARE(server.stop(), 0);
}

void TestServerAuth::invalidJwtPublicKeyStopsStart() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(QStringLiteral("JWT_PUBLIC_KEY"),
                       QString::fromLatin1(QByteArray("not a pem key").toBase64()));
    QVERIFY(!server.start(options));
    QVERIFY2(server.stderrText().contains("JWT_PUBLIC_KEY"), server.stderrText().constData());
}

QTEST_GUILESS_MAIN(TestServerAuth)
#include "tst_server_auth.moc"
