// Parsing of AIO bodies and the HTTP-to-Status mapping, against fixtures: no network.
#include "client/api/envelope.h"
#include "client/api/sandboxjobs.h"
#include "client/transport/credentials.h"
#include "client/transport/endpoint.h"
#include "client/transport/statusmapping.h"
#include "tests/support/localfiles.h"

#include <QFile>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

class TestParsing final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void contextFromAioDocsExample();
    void contextWithExtensionsAndNumericPorts();
    void garbageBodiesAreBadResponses_data();
    void garbageBodiesAreBadResponses();
    void envelopeFailureCarriesFileErrorMessage();
    void fileErrorWithoutMessageStillSaysWhat();
    void envelopeFieldsAreOptional();
    void statusMapping_data();
    void statusMapping();
    void fileErrorsKeepTheirMeaningWhateverTheStatus_data();
    void fileErrorsKeepTheirMeaningWhateverTheStatus();
    void refusedKeyNamesWhereItCameFrom();
    void transportErrorsSayWhatToDo();
    void endpointsJoinPathPrefixes();
    void baseUrlParsing();
    void jwtExpiryIsRead();
};

void TestParsing::contextFromAioDocsExample() {
    SandboxContext c;
    const Status s = parseSandboxContext(fixture("sandbox-context-aio.json"), &c);
    QVERIFY2(s.ok(), qPrintable(s.message));
    QCOMPARE(c.version, u"1.0.0.152"_s);
    QCOMPARE(c.homeDir, u"/home/gem"_s);
    QVERIFY(c.workspace.isEmpty()); // null in the body
    QCOMPARE(c.os, u"Ubuntu"_s);
    QCOMPARE(c.arch, u"x86_64"_s);
    QCOMPARE(c.timezone, u"Asia/Singapore"_s);
    QCOMPARE(c.occupiedPorts.size(), 10);
    QCOMPARE(c.python.size(), 3);
    QCOMPARE(c.python.at(0).alias, (QStringList{u"python"_s, u"python3.10"_s}));
    QVERIFY(c.python.at(2).ver.isEmpty());
    QCOMPARE(c.utils.size(), 2);
    QCOMPARE(c.utils.at(0).tools.at(1).name, u"nano"_s);
    QVERIFY(c.extensions.isEmpty()); // the real AIO lists none
    QVERIFY(c.summary.startsWith(u"System Environment"_s));
}

void TestParsing::contextWithExtensionsAndNumericPorts() {
    SandboxContext c;
    QVERIFY(parseSandboxContext(fixture("sandbox-context-extensions.json"), &c).ok());
    QCOMPARE(c.extensions, (QStringList{u"terminal-replay"_s, u"download-range"_s}));
    QCOMPARE(c.occupiedPorts, (QStringList{u"8080"_s, u"22"_s}));
}

void TestParsing::garbageBodiesAreBadResponses_data() {
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");
    // JSON well-formed as far as it goes: cut, if the answer declared no length.
    QTest::addColumn<bool>("endedEarly");
    QTest::newRow("html") << fixture("garbage-html.txt") << u"invalid JSON"_s << false;
    QTest::newRow("truncated") << fixture("truncated.json") << u"invalid JSON"_s << true;
    QTest::newRow("array") << QByteArray("[1,2]") << u"not an object"_s << false;
    QTest::newRow("empty") << QByteArray() << u"invalid JSON"_s << false;
    QTest::newRow("other service")
        << fixture("not-aio.json") << u"does not look like an AIO sandbox"_s << false;
    QTest::newRow("binary") << QByteArray("\x00\xff\xfe{", 4) << u"invalid JSON"_s << false;
    QTest::newRow("text after the object")
        << QByteArray(R"({"a":1} {)") << u"invalid JSON"_s << false;
}

void TestParsing::garbageBodiesAreBadResponses() {
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    QFETCH(bool, endedEarly);
    SandboxContext c;
    const Status s = parseSandboxContext(body, &c);
    QCOMPARE(s.kind, Status::Kind::BadResponse);
    QVERIFY2(s.message.contains(expected), qPrintable(s.message));
    QCOMPARE(s.endedEarly, endedEarly);
}

void TestParsing::envelopeFailureCarriesFileErrorMessage() {
    Envelope e;
    const Status s = parseEnvelope(fixture("envelope-failure.json"), u"POST /v1/file/read"_s, &e);
    QCOMPARE(s.kind, Status::Kind::NotFound);
    QCOMPARE(s.errorType, u"not_found"_s);
    QVERIFY(!e.success);
    QVERIFY2(s.message.contains(u"File not found"_s), qPrintable(s.message));
    QVERIFY2(s.message.contains(u"No such file or directory: /nope"_s), qPrintable(s.message));
    QCOMPARE(jsonString(e.data, "error_type"), u"not_found"_s);
}

void TestParsing::fileErrorWithoutMessageStillSaysWhat() {
    // Found by fuzz_status: an error_type without a message gave a failure with no text.
    ReplyFacts f;
    f.httpStatus = 500;
    f.method = u"POST"_s;
    f.path = u"/v1/file/read"_s;
    f.body = R"({"success":false,"data":{"error_type":"permission_denied"}})";
    const Status s = statusFromReply(f);
    QCOMPARE(s.kind, Status::Kind::Server);
    QCOMPARE(s.errorType, u"permission_denied"_s);
    QCOMPARE(s.message, u"POST /v1/file/read failed: permission_denied (HTTP 500)"_s);
}

void TestParsing::envelopeFieldsAreOptional() {
    Envelope e;
    QVERIFY(parseEnvelope("{}", u"x"_s, &e).ok());
    QVERIFY(e.success);
    QVERIFY(parseEnvelope(R"({"data": [1], "zzz": {"a": 1}, "message": null})", u"x"_s, &e).ok());
    QVERIFY(e.data.is_array());
    QVERIFY(e.message.isEmpty());
}

void TestParsing::statusMapping_data() {
    QTest::addColumn<int>("http");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("credentials");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("text");
    const int key = int(Credentials::Kind::ApiKey), none = int(Credentials::Kind::None),
              jwt = int(Credentials::Kind::Jwt);
    QTest::newRow("ok") << 200 << QByteArray("{}") << key << int(Status::Kind::Ok) << QString();
    QTest::newRow("wrong key") << 401 << fixture("unauthorized-401.json") << key
                               << int(Status::Kind::Auth)
                               << u"Wrong API key for http://127.0.0.1:8080"_s;
    QTest::newRow("no creds") << 401 << QByteArray() << none << int(Status::Kind::Auth)
                              << u"requires authentication"_s;
    QTest::newRow("jwt") << 401 << QByteArray() << jwt << int(Status::Kind::Auth)
                         << u"refused the JWT"_s;
    QTest::newRow("422") << 422 << fixture("validation-422.json") << none
                         << int(Status::Kind::Validation)
                         << u"command: Field required; timeout.0: Input should be a valid number"_s;
    QTest::newRow("404") << 404 << QByteArray("nope") << none << int(Status::Kind::NotFound)
                         << u"is this an AIO sandbox?"_s;
    QTest::newRow("409") << 409 << QByteArray() << none << int(Status::Kind::Conflict)
                         << u"conflict"_s;
    QTest::newRow("502 html") << 502 << fixture("garbage-html.txt") << none
                              << int(Status::Kind::Server) << u"Sandbox service error (HTTP 502)"_s;
    QTest::newRow("418") << 418 << QByteArray() << none << int(Status::Kind::BadResponse)
                         << u"HTTP 418"_s;
}

void TestParsing::statusMapping() {
    QFETCH(int, http);
    QFETCH(QByteArray, body);
    QFETCH(int, credentials);
    QFETCH(int, kind);
    QFETCH(QString, text);
    ReplyFacts f;
    f.httpStatus = http;
    f.body = body;
    f.method = u"GET"_s;
    f.path = u"/v1/sandbox"_s;
    f.address = u"http://127.0.0.1:8080"_s;
    f.credentials = static_cast<Credentials::Kind>(credentials);
    const Status s = statusFromReply(f);
    QCOMPARE(int(s.kind), kind);
    QVERIFY2(s.message.contains(text), qPrintable(s.message));
}

// A refused file keeps its meaning whatever the HTTP status and body shape: a download
// refused with 403 for permission denied is not an authentication failure, so the console
// does not ask for another key and can offer sudo instead.
void TestParsing::fileErrorsKeepTheirMeaningWhateverTheStatus_data() {
    QTest::addColumn<int>("http");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("text");
    const QString download = u"/v1/file/download"_s;
    const int server = int(Status::Kind::Server), auth = int(Status::Kind::Auth);
    const QString denied = u"permission_denied"_s;
    QTest::newRow("403, envelope with error_type")
        << 403 << fixture("download-denied-403-envelope.json") << download << server << denied
        << u"Permission denied: /root/secret.txt"_s;
    QTest::newRow("403, FastAPI detail, no error_type")
        << 403 << fixture("download-denied-403-detail.json") << download << server << denied
        << u"Permission denied: '/root/secret.txt'"_s;
    QTest::newRow("403, envelope message, no error_type")
        << 403 << fixture("download-denied-403-message.json") << download << server << denied
        << u"Permission denied: /root/secret.txt"_s;
    QTest::newRow("403, error_type inside detail")
        << 403 << fixture("download-denied-403-detail-object.json") << download << server << denied
        << u"Permission denied: /root/secret.txt"_s;
    QTest::newRow("403, flat FileOperationError without error_type")
        << 403 << fixture("download-denied-403-flat.json") << download << server << denied
        << u"Operation not permitted: /root/secret.txt"_s;
    QTest::newRow("200 envelope, read")
        << 200 << fixture("envelope-failure.json") << u"/v1/file/read"_s << int(Status::Kind::Ok)
        << QString() << QString();
    // What is not a file error stays what it was.
    QTest::newRow("403 auth refusal on a file path")
        << 403 << fixture("forbidden-403-auth.json") << download << auth << QString()
        << u"Not authenticated"_s;
    QTest::newRow("403 without a body on a file path")
        << 403 << QByteArray() << download << auth << QString() << u"API key"_s;
    QTest::newRow("401 on a file path") << 401 << fixture("download-denied-403-message.json")
                                        << download << auth << QString() << u"Wrong API key"_s;
    QTest::newRow("403 refusal of a hook")
        << 403 << fixture("hooks-refused-403.json") << u"/v1/sandbox/hooks/x"_s << auth << QString()
        << u"cannot be deleted"_s;
}

void TestParsing::fileErrorsKeepTheirMeaningWhateverTheStatus() {
    QFETCH(int, http);
    QFETCH(QByteArray, body);
    QFETCH(QString, path);
    QFETCH(int, kind);
    QFETCH(QString, errorType);
    QFETCH(QString, text);
    ReplyFacts f;
    f.httpStatus = http;
    f.body = body;
    f.method = u"GET"_s;
    f.path = path;
    f.address = u"http://127.0.0.1:8080"_s;
    f.credentials = Credentials::Kind::ApiKey;
    const Status s = statusFromReply(f);
    QCOMPARE(int(s.kind), kind);
    QCOMPARE(s.errorType, errorType);
    QVERIFY2(s.message.contains(text), qPrintable(s.message));
    if (kind != int(Status::Kind::Auth))
        QVERIFY2(!s.message.contains(u"API key"_s), qPrintable(s.message));
}

void TestParsing::refusedKeyNamesWhereItCameFrom() {
    ReplyFacts f;
    f.httpStatus = 401;
    f.method = u"GET"_s;
    f.path = u"/v1/sandbox"_s;
    f.address = u"http://127.0.0.1:8080"_s;
    f.credentials = Credentials::Kind::ApiKey;
    f.credentialsOrigin = u"the environment variable SBX_KEY (--api-key-env)"_s;
    const Status s = statusFromReply(f);
    QCOMPARE(s.kind, Status::Kind::Auth);
    QCOMPARE(s.message, u"http://127.0.0.1:8080 refused the API key from the "
                        u"environment variable SBX_KEY (--api-key-env)"_s);
}

void TestParsing::transportErrorsSayWhatToDo() {
    ReplyFacts f;
    f.address = u"http://127.0.0.1:9"_s;
    f.error = QNetworkReply::ConnectionRefusedError;
    QCOMPARE(statusFromReply(f).message,
             u"Connection refused at http://127.0.0.1:9: is the sandbox running?"_s);
    f.timedOut = true;
    f.timeoutMs = 5000;
    QCOMPARE(statusFromReply(f).kind, Status::Kind::Timeout);
    QVERIFY(statusFromReply(f).message.contains(u"within 5 s"_s));
}

void TestParsing::endpointsJoinPathPrefixes() {
    Endpoint e{QUrl(u"https://gw.example.com/sandboxes/a1"_s), {}};
    QCOMPARE(e.resolve(u"v1/sandbox"_s).toString(),
             u"https://gw.example.com/sandboxes/a1/v1/sandbox"_s);
    QCOMPARE(e.resolve(u"/llms.txt"_s).toString(),
             u"https://gw.example.com/sandboxes/a1/llms.txt"_s);
    QCOMPARE(e.resolveWebSocket(u"v1/shell/ws"_s).scheme(), u"wss"_s);
    Endpoint root{QUrl(u"http://localhost:8080"_s), {}};
    QCOMPARE(root.resolve(u"v1/sandbox"_s).toString(), u"http://localhost:8080/v1/sandbox"_s);
}

void TestParsing::baseUrlParsing() {
    QString error;
    QCOMPARE(parseBaseUrl(u"localhost:8080"_s, &error).toString(), u"http://localhost:8080"_s);
    QVERIFY(!parseBaseUrl(u"ftp://x"_s, &error).isValid());
    QVERIFY(error.contains(u"http://"_s));
    QVERIFY(!parseBaseUrl(u"http://h:1/?api_key=secret123"_s, &error).isValid());
    QVERIFY(!error.contains(u"secret123"_s));
    QVERIFY(!parseBaseUrl(u"http://user:pw@h"_s, &error).isValid());
    QVERIFY(!parseBaseUrl(QString(), &error).isValid());
}

void TestParsing::jwtExpiryIsRead() {
    const QByteArray payload =
        QByteArray(R"({"exp": 1893456000})")
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    const QString token = u"eyJhbGciOiJSUzI1NiJ9."_s + QString::fromLatin1(payload) + u".sig"_s;
    QCOMPARE(jwtExpiry(token).toSecsSinceEpoch(), 1893456000);
    QVERIFY(!jwtExpiry(u"not-a-jwt"_s).isValid());
}

QTEST_GUILESS_MAIN(TestParsing)
#include "tst_parsing.moc"
