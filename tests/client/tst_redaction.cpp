// What the traffic inspector's redaction takes out of headers, URLs and bodies before anything is
// stored, and what it leaves alone.
#include "client/traffic/redaction.h"

#include <QUrl>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {
const QByteArray kMask = Redaction::mask();
}

class TestRedaction final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void secretNames();
    void headers();
    void urls();
    void jsonFieldsWithSecretNames();
    void jsonFieldsInACutBody();
    void assignmentsBearerAndJwts();
    void knownSecretsAnywhere();
    void learnedValues();
};

void TestRedaction::secretNames() {
    for (const char *name : {"api_key", "X-AIO-API-Key", "ticket", "token", "access_token",
                             "password", "OPENAI_API_KEY", "client_secret", "Authorization",
                             "Cookie", "jwt", "GITHUB_TOKEN", "db_pass"})
        QVERIFY2(Redaction::isSecretName(name) || Redaction::isSecretHeader(name), name);
    for (const char *name : {"idempotency_key", "path", "session_id", "command_id", "offset",
                             "type", "data", "Content-Type", "keyboard", "status"})
        QVERIFY2(!Redaction::isSecretName(name), name);
    QVERIFY(Redaction::isSecretHeader("Set-Cookie"));
    QVERIFY(Redaction::isSecretHeader("Proxy-Authorization"));
    QVERIFY(!Redaction::isSecretHeader("User-Agent"));
}

void TestRedaction::headers() {
    const QList<QByteArray> none;
    QCOMPARE(Redaction::headerValue("X-AIO-API-Key", "k-123456", none), kMask);
    QCOMPARE(Redaction::headerValue("Authorization", "Bearer eyJabc.def.ghi", none),
             "Bearer " + kMask);
    QCOMPARE(Redaction::headerValue("Cookie", "session=abc", none), kMask);
    QCOMPARE(Redaction::headerValue("Content-Type", "application/json", none),
             QByteArray("application/json"));
    // A known secret echoed in any other header.
    QCOMPARE(Redaction::headerValue("X-Echo", "was my-key-7788", {"my-key-7788"}), "was " + kMask);
}

void TestRedaction::urls() {
    const QString url = Redaction::url(
        QUrl(u"ws://user:pw@127.0.0.1:8080/v1/shell/ws?session_id=s1&ticket=t-secret-99"_s), {});
    QVERIFY2(!url.contains(u"t-secret-99"_s), qPrintable(url));
    QVERIFY2(url.contains(u"ticket="_s + Redaction::maskText()), qPrintable(url));
    QVERIFY(url.contains(u"session_id=s1"_s));
    QVERIFY(!url.contains(u"user"_s) && !url.contains(u"pw@"_s));
    const QString key = Redaction::url(QUrl(u"http://h/v1/sandbox?api_key=abc%2Fdef-1234"_s), {});
    QVERIFY2(!key.contains(u"abc"_s), qPrintable(key));
    // The client's own key in a path, plain or percent-encoded.
    const QString path = Redaction::url(QUrl(u"http://h/v1/x/my%2Bkey-1234"_s), {"my+key-1234"});
    QVERIFY2(!path.contains(u"key-1234"_s), qPrintable(path));
}

void TestRedaction::jsonFieldsWithSecretNames() {
    const QByteArray body =
        R"({"ticket": "tk-1", "expires_in": 30, "nested": {"api_key":"k2"}, "idempotency_key":"i-1",)"
        R"( "env": {"OPENAI_API_KEY": "sk-3", "HOME": "/root"}, "text": "say \"ticket\": \"no\""})";
    const QByteArray out = Redaction::text(body, {});
    for (const char *gone : {"tk-1", "k2", "sk-3"})
        QVERIFY2(!out.contains(gone), out.constData());
    for (const char *kept : {"\"expires_in\": 30", "i-1", "/root", "\"HOME\""})
        QVERIFY2(out.contains(kept), out.constData());
    // A quoted "ticket" inside another string's text is not a field.
    QVERIFY2(out.contains(R"(say \"ticket\": \"no\")"), out.constData());
}

void TestRedaction::jsonFieldsInACutBody() {
    // The inspector keeps a body's first bytes only: a secret cut mid-value is still masked.
    const QByteArray out = Redaction::text(R"({"a":1,"token":"abcdefgh)", {});
    QVERIFY2(!out.contains("abcdefgh"), out.constData());
    QVERIFY(out.endsWith(kMask));
}

void TestRedaction::assignmentsBearerAndJwts() {
    const QByteArray command =
        R"({"command":"export GITHUB_TOKEN=ghp_abc123; curl -H 'Authorization: Bearer )"
        R"(opaque.tok-9' 'http://x/?api_key=qq-77&x=1'; echo PATH=/bin"})";
    const QByteArray out = Redaction::text(command, {});
    for (const char *gone : {"ghp_abc123", "opaque.tok-9", "qq-77"})
        QVERIFY2(!out.contains(gone), out.constData());
    QVERIFY2(out.contains("PATH=/bin") && out.contains("&x=1"), out.constData());
    const QByteArray jwt = "eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJl";
    const QByteArray withJwt = Redaction::text("token in text: " + jwt + " end", {});
    QVERIFY2(!withJwt.contains("eyJ"), withJwt.constData());
    QVERIFY(withJwt.endsWith(" end"));
}

void TestRedaction::knownSecretsAnywhere() {
    const QByteArray secret = "console-key-31337";
    const QByteArray head("binary\0", 7), tail("\0tail", 5);
    QCOMPARE(Redaction::literal(head + secret + tail, {secret}), head + kMask + tail);
    QVERIFY(!Redaction::text("the key is " + secret, {secret}).contains(secret));
    // Short values are not scrubbed where they appear: they would mask common words.
    QCOMPARE(Redaction::literal("a cat sat", {"cat"}), QByteArray("a cat sat"));
}

void TestRedaction::learnedValues() {
    QList<QByteArray> found;
    Redaction::text(R"({"env":{"MY_API_KEY":"value-4242"},"x":"short","token":"abc"})", {}, &found);
    QCOMPARE(found, QList<QByteArray>{"value-4242"});
}

QTEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
