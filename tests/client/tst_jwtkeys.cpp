// Console-made JWT keys: a generated pair signs tokens a real sandbox-server accepts through
// SandboxClient (SignedJwt credentials), another key is refused, the private key stays secret.
#include "client/api/sandboxjobs.h"
#include "client/providers/savedendpoints.h"
#include "client/providers/secretstore.h"
#include "client/sandboxclient.h"
#include "client/transport/jwtkeys.h"
#include "tests/support/jobs.h"
#include "tests/support/testjwt.h"
#include "tests/support/testserver.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

QJsonObject claimsOf(const QString &token) {
    const QStringList parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    return QJsonDocument::fromJson(
               QByteArray::fromBase64(parts.at(1).toLatin1(), QByteArray::Base64UrlEncoding |
                                                                  QByteArray::OmitTrailingEquals))
        .object();
}

} // namespace

class TestJwtKeys final : public QObject {
    Q_OBJECT
private:
    JwtKeyPair m_pair;
    JwtKeyPair m_other;

private Q_SLOTS:
    void initTestCase();
    void pairAndTokenShape();
    void unusableKeysSignNothing();
    void sandboxAcceptsConsoleSignedTokensOnly();
    void tokenIsReusedUntilCredentialsChange();
    void savedEndpointKeepsThePrivateKeyInTheSecretStore();
};

void TestJwtKeys::initTestCase() {
    m_pair = generateRsaKeyPair();
    m_other = generateRsaKeyPair();
    QVERIFY(!m_pair.isNull());
    QVERIFY(!m_other.isNull());
}

void TestJwtKeys::pairAndTokenShape() {
    QVERIFY(m_pair.privatePem.startsWith("-----BEGIN PRIVATE KEY-----"));
    QVERIFY(m_pair.publicPem.startsWith("-----BEGIN PUBLIC KEY-----"));
    QVERIFY(m_pair.privatePem != m_other.privatePem);
    QCOMPARE(publicPemFromPrivate(m_pair.privatePem), m_pair.publicPem);
    QVERIFY(!jwtPublicKeyEnvValue(m_pair.publicPem).contains('\n'));

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QString token = signRs256(m_pair.privatePem, std::chrono::minutes(5));
    QCOMPARE(token.count(QLatin1Char('.')), 2);
    const QJsonObject claims = claimsOf(token);
    const qint64 iat = claims.value(QLatin1String("iat")).toInteger();
    QVERIFY(qAbs(iat - now) <= 5);
    QCOMPARE(claims.value(QLatin1String("exp")).toInteger(), iat + 300);
    QVERIFY(claims.value(QLatin1String("nbf")).toInteger() <= iat);
    QCOMPARE(claims.value(QLatin1String("sub")).toString(), u"sandbox-console"_s);
    const QJsonObject header =
        QJsonDocument::fromJson(
            QByteArray::fromBase64(token.section(QLatin1Char('.'), 0, 0).toLatin1(),
                                   QByteArray::Base64UrlEncoding))
            .object();
    QCOMPARE(header.value(QLatin1String("alg")).toString(), u"RS256"_s);
}

void TestJwtKeys::unusableKeysSignNothing() {
    QVERIFY(signRs256({}).isEmpty());
    QVERIFY(signRs256("not a key").isEmpty());
    QVERIFY(signRs256(m_pair.publicPem).isEmpty());
    QVERIFY(publicPemFromPrivate("garbage").isEmpty());
    QVERIFY(generateRsaKeyPair(512).isNull());
}

void TestJwtKeys::sandboxAcceptsConsoleSignedTokensOnly() {
    TestServer server;
    TestServer::Options options;
    options.env.insert(u"JWT_PUBLIC_KEY"_s,
                       QString::fromLatin1(jwtPublicKeyEnvValue(m_pair.publicPem)));
    QVERIFY2(server.start(options), qPrintable(server.error()));
    const Endpoint endpoint{server.url(), {}};

    SandboxClient client(endpoint,
                         {Credentials::Kind::SignedJwt, QString::fromLatin1(m_pair.privatePem)});
    Status status = runJob(new GetContextJob(&client));
    QVERIFY2(status.ok(), qPrintable(status.message));
    // Tickets are minted with the signed token too.
    auto *mint = new MintTicketJob(&client);
    Ticket ticket;
    connect(mint, &MintTicketJob::succeeded, this, [&ticket](const Ticket &t) { ticket = t; });
    status = runJob(mint);
    QVERIFY2(status.ok(), qPrintable(status.message));
    QVERIFY(!ticket.ticket.isEmpty());

    SandboxClient stranger(endpoint,
                           {Credentials::Kind::SignedJwt, QString::fromLatin1(m_other.privatePem)});
    status = runJob(new GetContextJob(&stranger));
    QCOMPARE(status.kind, Status::Kind::Auth);
    QCOMPARE(status.httpStatus, 401);
    QVERIFY2(status.message.contains(u"signed JWT"_s), qPrintable(status.message));
    for (const QByteArray &line : pemBodyLines(m_other.privatePem))
        QVERIFY(!status.message.toUtf8().contains(line));
    for (const QByteArray &line : pemBodyLines(m_pair.privatePem))
        QVERIFY(!server.stderrText().contains(line));
}

void TestJwtKeys::tokenIsReusedUntilCredentialsChange() {
    SandboxClient client({QUrl(u"http://127.0.0.1:9"_s), {}},
                         {Credentials::Kind::SignedJwt, QString::fromLatin1(m_pair.privatePem)});
    const QUrl url(u"http://127.0.0.1:9/v1/sandbox"_s);
    const QByteArray first = client.prepareRequest(url).rawHeader("Authorization");
    QVERIFY(first.startsWith("Bearer ey"));
    QVERIFY(!first.contains("PRIVATE"));
    QCOMPARE(client.prepareRequest(url).rawHeader("Authorization"), first);
    client.setCredentials({Credentials::Kind::SignedJwt, QString::fromLatin1(m_other.privatePem)});
    const QByteArray second = client.prepareRequest(url).rawHeader("Authorization");
    QVERIFY(second.startsWith("Bearer ey"));
    QVERIFY(second != first);
}

void TestJwtKeys::savedEndpointKeepsThePrivateKeyInTheSecretStore() {
    QTemporaryDir dir;
    const QString path = dir.filePath(u"settings.conf"_s);
    MemorySecretStore secrets;
    QString id;
    {
        QSettings settings(path, QSettings::IniFormat);
        SavedEndpoints saved(&settings, &secrets);
        SandboxEntry entry;
        entry.name = u"Signed"_s;
        entry.endpoint.baseUrl = QUrl(u"http://127.0.0.1:9"_s);
        entry.credentials = {Credentials::Kind::SignedJwt, QString::fromLatin1(m_pair.privatePem)};
        id = saved.add(entry);
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    for (const QByteArray &line : pemBodyLines(m_pair.privatePem))
        QVERIFY(!text.contains(line));
    QVERIFY(!text.contains("PRIVATE"));

    QSettings settings(path, QSettings::IniFormat);
    SavedEndpoints saved(&settings, &secrets);
    QSignalSpy changed(&saved, &SandboxProvider::sandboxChanged);
    QVERIFY(changed.wait());
    QCOMPARE(saved.find(id)->credentials.kind, Credentials::Kind::SignedJwt);
    QCOMPARE(saved.find(id)->credentials.secret, QString::fromLatin1(m_pair.privatePem));
    QCOMPARE(credentialsKindName(Credentials::Kind::SignedJwt), u"Console-signed JWT"_s);
}

QTEST_GUILESS_MAIN(TestJwtKeys)
#include "tst_jwtkeys.moc"
