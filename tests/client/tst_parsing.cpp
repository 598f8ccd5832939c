// Parsing of AIO bodies and the HTTP-to-Status mapping, against fixtures: no network.
#include "client/api/envelope.h"
#include "client/api/sandboxjobs.h"
#include "client/transport/credentials.h"
#include "client/transport/endpoint.h"
#include "client/transport/statusmapping.h"

#include <QFile>
#include <QtTest>

using namespace sbx;

namespace {
QByteArray fixture(const char *name) {
    QFile file(QStringLiteral(SBX_FIXTURES_DIR "/") + QString::fromLatin1(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return file.readAll();
}
} // namespace

class TestParsing final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void contextFromAioDocsExample() {
        SandboxContext c;
        const Status s = parseSandboxContext(fixture("sandbox-context-aio.json"), &c);
        QVERIFY2(s.ok(), qPrintable(s.message));
        QCOMPARE(c.version, QStringLiteral("1.0.0.152"));
        QCOMPARE(c.homeDir, QStringLiteral("/home/gem"));
        QVERIFY(c.workspace.isEmpty()); // null in the body
        QCOMPARE(c.os, QStringLiteral("Ubuntu"));
        QCOMPARE(c.arch, QStringLiteral("x86_64"));
        QCOMPARE(c.timezone, QStringLiteral("Asia/Singapore"));
        QCOMPARE(c.occupiedPorts.size(), 10);
        QCOMPARE(c.python.size(), 3);
        QCOMPARE(c.python.at(0).alias,
                 (QStringList{QStringLiteral("python"), QStringLiteral("python3.10")}));
        QVERIFY(c.python.at(2).ver.isEmpty());
        QCOMPARE(c.utils.size(), 2);
        QCOMPARE(c.utils.at(0).tools.at(1).name, QStringLiteral("nano"));
        QVERIFY(c.extensions.isEmpty()); // the real AIO lists none
        QVERIFY(c.summary.startsWith(QStringLiteral("System Environment")));
    }

    void contextWithExtensionsAndNumericPorts() {
        SandboxContext c;
        QVERIFY(parseSandboxContext(fixture("sandbox-context-extensions.json"), &c).ok());
        QCOMPARE(c.extensions, (QStringList{QStringLiteral("terminal-replay"),
                                            QStringLiteral("download-range")}));
        QCOMPARE(c.occupiedPorts, (QStringList{QStringLiteral("8080"), QStringLiteral("22")}));
    }

    void garbageBodiesAreBadResponses_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("html") << fixture("garbage-html.txt") << QStringLiteral("invalid JSON");
        QTest::newRow("truncated") << fixture("truncated.json") << QStringLiteral("invalid JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("not an object");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("invalid JSON");
        QTest::newRow("other service")
            << fixture("not-aio.json") << QStringLiteral("does not look like an AIO sandbox");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe{", 4) << QStringLiteral("invalid JSON");
    }
    void garbageBodiesAreBadResponses() {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        SandboxContext c;
        const Status s = parseSandboxContext(body, &c);
        QCOMPARE(s.kind, Status::Kind::BadResponse);
        QVERIFY2(s.message.contains(expected), qPrintable(s.message));
    }

    void envelopeFailureCarriesFileErrorMessage() {
        Envelope e;
        const Status s = parseEnvelope(fixture("envelope-failure.json"),
                                       QStringLiteral("POST /v1/file/read"), &e);
        QCOMPARE(s.kind, Status::Kind::NotFound);
        QCOMPARE(s.errorType, QStringLiteral("not_found"));
        QVERIFY(!e.success);
        QVERIFY2(s.message.contains(QStringLiteral("File not found")), qPrintable(s.message));
        QVERIFY2(s.message.contains(QStringLiteral("No such file or directory: /nope")),
                 qPrintable(s.message));
        QCOMPARE(jsonString(e.data, "error_type"), QStringLiteral("not_found"));
    }

    void fileErrorWithoutMessageStillSaysWhat() {
        // Found by fuzz_status: an error_type without a message gave a failure with no text.
        ReplyFacts f;
        f.httpStatus = 500;
        f.method = QStringLiteral("POST");
        f.path = QStringLiteral("/v1/file/read");
        f.body = R"({"success":false,"data":{"error_type":"permission_denied"}})";
        const Status s = statusFromReply(f);
        QCOMPARE(s.kind, Status::Kind::Server);
        QCOMPARE(s.errorType, QStringLiteral("permission_denied"));
        QCOMPARE(s.message,
                 QStringLiteral("POST /v1/file/read failed: permission_denied (HTTP 500)"));
    }

    void envelopeFieldsAreOptional() {
        Envelope e;
        QVERIFY(parseEnvelope("{}", QStringLiteral("x"), &e).ok());
        QVERIFY(e.success);
        QVERIFY(parseEnvelope(R"({"data": [1], "zzz": {"a": 1}, "message": null})",
                              QStringLiteral("x"), &e)
                    .ok());
        QVERIFY(e.data.is_array());
        QVERIFY(e.message.isEmpty());
    }

    void statusMapping_data() {
        QTest::addColumn<int>("http");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("credentials");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("text");
        const int key = int(Credentials::Kind::ApiKey), none = int(Credentials::Kind::None),
                  jwt = int(Credentials::Kind::Jwt);
        QTest::newRow("ok") << 200 << QByteArray("{}") << key << int(Status::Kind::Ok) << QString();
        QTest::newRow("wrong key")
            << 401 << fixture("unauthorized-401.json") << key << int(Status::Kind::Auth)
            << QStringLiteral("Wrong API key for http://127.0.0.1:8080");
        QTest::newRow("no creds") << 401 << QByteArray() << none << int(Status::Kind::Auth)
                                  << QStringLiteral("requires authentication");
        QTest::newRow("jwt") << 401 << QByteArray() << jwt << int(Status::Kind::Auth)
                             << QStringLiteral("refused the JWT");
        QTest::newRow("422")
            << 422 << fixture("validation-422.json") << none << int(Status::Kind::Validation)
            << QStringLiteral("command: Field required; timeout.0: Input should be a valid number");
        QTest::newRow("404") << 404 << QByteArray("nope") << none << int(Status::Kind::NotFound)
                             << QStringLiteral("is this an AIO sandbox?");
        QTest::newRow("409") << 409 << QByteArray() << none << int(Status::Kind::Conflict)
                             << QStringLiteral("conflict");
        QTest::newRow("502 html") << 502 << fixture("garbage-html.txt") << none
                                  << int(Status::Kind::Server)
                                  << QStringLiteral("Sandbox service error (HTTP 502)");
        QTest::newRow("418") << 418 << QByteArray() << none << int(Status::Kind::BadResponse)
                             << QStringLiteral("HTTP 418");
    }
    void statusMapping() {
        QFETCH(int, http);
        QFETCH(QByteArray, body);
        QFETCH(int, credentials);
        QFETCH(int, kind);
        QFETCH(QString, text);
        ReplyFacts f;
        f.httpStatus = http;
        f.body = body;
        f.method = QStringLiteral("GET");
        f.path = QStringLiteral("/v1/sandbox");
        f.address = QStringLiteral("http://127.0.0.1:8080");
        f.credentials = static_cast<Credentials::Kind>(credentials);
        const Status s = statusFromReply(f);
        QCOMPARE(int(s.kind), kind);
        QVERIFY2(s.message.contains(text), qPrintable(s.message));
    }

    // A refused file keeps its meaning whatever the HTTP status and body shape: a download
    // refused with 403 for permission denied is not an authentication failure, so the console
    // does not ask for another key and can offer sudo instead.
    void fileErrorsKeepTheirMeaningWhateverTheStatus_data() {
        QTest::addColumn<int>("http");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("errorType");
        QTest::addColumn<QString>("text");
        const QString download = QStringLiteral("/v1/file/download");
        const int server = int(Status::Kind::Server), auth = int(Status::Kind::Auth);
        const QString denied = QStringLiteral("permission_denied");
        QTest::newRow("403, envelope with error_type")
            << 403 << fixture("download-denied-403-envelope.json") << download << server << denied
            << QStringLiteral("Permission denied: /root/secret.txt");
        QTest::newRow("403, FastAPI detail, no error_type")
            << 403 << fixture("download-denied-403-detail.json") << download << server << denied
            << QStringLiteral("Permission denied: '/root/secret.txt'");
        QTest::newRow("403, envelope message, no error_type")
            << 403 << fixture("download-denied-403-message.json") << download << server << denied
            << QStringLiteral("Permission denied: /root/secret.txt");
        QTest::newRow("403, error_type inside detail")
            << 403 << fixture("download-denied-403-detail-object.json") << download << server
            << denied << QStringLiteral("Permission denied: /root/secret.txt");
        QTest::newRow("403, flat FileOperationError without error_type")
            << 403 << fixture("download-denied-403-flat.json") << download << server << denied
            << QStringLiteral("Operation not permitted: /root/secret.txt");
        QTest::newRow("200 envelope, read")
            << 200 << fixture("envelope-failure.json") << QStringLiteral("/v1/file/read")
            << int(Status::Kind::Ok) << QString() << QString();
        // What is not a file error stays what it was.
        QTest::newRow("403 auth refusal on a file path")
            << 403 << fixture("forbidden-403-auth.json") << download << auth << QString()
            << QStringLiteral("Not authenticated");
        QTest::newRow("403 without a body on a file path")
            << 403 << QByteArray() << download << auth << QString() << QStringLiteral("API key");
        QTest::newRow("401 on a file path")
            << 401 << fixture("download-denied-403-message.json") << download << auth << QString()
            << QStringLiteral("Wrong API key");
        QTest::newRow("403 refusal of a hook")
            << 403 << fixture("hooks-refused-403.json") << QStringLiteral("/v1/sandbox/hooks/x")
            << auth << QString() << QStringLiteral("cannot be deleted");
    }
    void fileErrorsKeepTheirMeaningWhateverTheStatus() {
        QFETCH(int, http);
        QFETCH(QByteArray, body);
        QFETCH(QString, path);
        QFETCH(int, kind);
        QFETCH(QString, errorType);
        QFETCH(QString, text);
        ReplyFacts f;
        f.httpStatus = http;
        f.body = body;
        f.method = QStringLiteral("GET");
        f.path = path;
        f.address = QStringLiteral("http://127.0.0.1:8080");
        f.credentials = Credentials::Kind::ApiKey;
        const Status s = statusFromReply(f);
        QCOMPARE(int(s.kind), kind);
        QCOMPARE(s.errorType, errorType);
        QVERIFY2(s.message.contains(text), qPrintable(s.message));
        if (kind != int(Status::Kind::Auth))
            QVERIFY2(!s.message.contains(QStringLiteral("API key")), qPrintable(s.message));
    }

    void refusedKeyNamesWhereItCameFrom() {
        ReplyFacts f;
        f.httpStatus = 401;
        f.method = QStringLiteral("GET");
        f.path = QStringLiteral("/v1/sandbox");
        f.address = QStringLiteral("http://127.0.0.1:8080");
        f.credentials = Credentials::Kind::ApiKey;
        f.credentialsOrigin = QStringLiteral("the environment variable SBX_KEY (--api-key-env)");
        const Status s = statusFromReply(f);
        QCOMPARE(s.kind, Status::Kind::Auth);
        QCOMPARE(s.message, QStringLiteral("http://127.0.0.1:8080 refused the API key from the "
                                           "environment variable SBX_KEY (--api-key-env)"));
    }

    void transportErrorsSayWhatToDo() {
        ReplyFacts f;
        f.address = QStringLiteral("http://127.0.0.1:9");
        f.error = QNetworkReply::ConnectionRefusedError;
        QCOMPARE(
            statusFromReply(f).message,
            QStringLiteral("Connection refused at http://127.0.0.1:9: is the sandbox running?"));
        f.timedOut = true;
        f.timeoutMs = 5000;
        QCOMPARE(statusFromReply(f).kind, Status::Kind::Timeout);
        QVERIFY(statusFromReply(f).message.contains(QStringLiteral("within 5 s")));
    }

    void endpointsJoinPathPrefixes() {
        Endpoint e{QUrl(QStringLiteral("https://gw.example.com/sandboxes/a1")), {}};
        QCOMPARE(e.resolve(QStringLiteral("v1/sandbox")).toString(),
                 QStringLiteral("https://gw.example.com/sandboxes/a1/v1/sandbox"));
        QCOMPARE(e.resolve(QStringLiteral("/llms.txt")).toString(),
                 QStringLiteral("https://gw.example.com/sandboxes/a1/llms.txt"));
        QCOMPARE(e.resolveWebSocket(QStringLiteral("v1/shell/ws")).scheme(), QStringLiteral("wss"));
        Endpoint root{QUrl(QStringLiteral("http://localhost:8080")), {}};
        QCOMPARE(root.resolve(QStringLiteral("v1/sandbox")).toString(),
                 QStringLiteral("http://localhost:8080/v1/sandbox"));
    }

    void baseUrlParsing() {
        QString error;
        QCOMPARE(parseBaseUrl(QStringLiteral("localhost:8080"), &error).toString(),
                 QStringLiteral("http://localhost:8080"));
        QVERIFY(!parseBaseUrl(QStringLiteral("ftp://x"), &error).isValid());
        QVERIFY(error.contains(QStringLiteral("http://")));
        QVERIFY(!parseBaseUrl(QStringLiteral("http://h:1/?api_key=secret123"), &error).isValid());
        QVERIFY(!error.contains(QStringLiteral("secret123")));
        QVERIFY(!parseBaseUrl(QStringLiteral("http://user:pw@h"), &error).isValid());
        QVERIFY(!parseBaseUrl(QString(), &error).isValid());
    }

    void jwtExpiryIsRead() {
        const QByteArray payload =
            QByteArray(R"({"exp": 1893456000})")
                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
        const QString token = QStringLiteral("eyJhbGciOiJSUzI1NiJ9.") +
                              QString::fromLatin1(payload) + QStringLiteral(".sig");
        QCOMPARE(jwtExpiry(token).toSecsSinceEpoch(), 1893456000);
        QVERIFY(!jwtExpiry(QStringLiteral("not-a-jwt")).isValid());
    }
};

QTEST_GUILESS_MAIN(TestParsing)
#include "tst_parsing.moc"
