// The files group's Beast-free pieces: the streaming multipart parser fed in every split.
#include "server/files/multipartparser.h"

#include <QTest>

using namespace sbx;

namespace {

struct Recorder final : MultipartSink {
    void partBegin(const MultipartPart &part) override {
        log += "[" + part.name + "|" + part.filename.value_or("-") + "|" + part.contentType + "]";
    }
    void partData(std::string_view data) override {
        log += data;
        largestPiece = std::max(largestPiece, data.size());
    }
    void partEnd() override { log += "[end]"; }
    std::string log;
    std::size_t largestPiece = 0;
};

const std::string kBody =
    "preamble\r\n--XyZ\r\n"
    "Content-Disposition: form-data; name=\"path\"\r\n\r\n"
    "/tmp/a b\r\n--XyZ\r\n"
    "Content-Disposition: form-data; name=\"file\"; filename=\"q\\\"x.bin\"\r\n"
    "Content-Type: application/octet-stream\r\n\r\n"
    "data\r\n--Xy not a boundary\r\n--XyZ  \r\n"
    "Content-Disposition: form-data; name=\"u\"; filename*=UTF-8''%C3%A9.txt\r\n"
    "\r\n"
    "\r\n--XyZ--\r\nepilogue";
const std::string kExpected = "[path|-|]/tmp/a b[end]"
                              "[file|q\"x.bin|application/octet-stream]"
                              "data\r\n--Xy not a boundary[end][u|\xc3\xa9.txt|][end]";

} // namespace

class TestServerFilesUnits final : public QObject {
    Q_OBJECT

private slots:
    void boundaryFromContentType() {
        QCOMPARE(MultipartParser::boundaryFromContentType("multipart/form-data; boundary=abc"),
                 std::optional<std::string>("abc"));
        QCOMPARE(
            MultipartParser::boundaryFromContentType("Multipart/Form-Data; boundary=\"a b:c\""),
            std::optional<std::string>("a b:c"));
        QVERIFY(!MultipartParser::boundaryFromContentType("application/json"));
        QVERIFY(!MultipartParser::boundaryFromContentType("multipart/form-data"));
    }

    // Qt's boundaries are base64 and so often hold '/', which RFC 2045 lets only a quoted-string
    // carry: the console quotes them, other clients do not, and both forms must be understood.
    void boundaryWithReservedCharacters_data() {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("boundary"); // empty: refused
        QTest::newRow("bare, with /")
            << QByteArray("multipart/form-data; boundary=boundary_.oOo._Ab/c+D9")
            << QByteArray("boundary_.oOo._Ab/c+D9");
        QTest::newRow("quoted, with /")
            << QByteArray("multipart/form-data; boundary=\"boundary_.oOo._Ab/c+D9\"")
            << QByteArray("boundary_.oOo._Ab/c+D9");
        QTest::newRow("quoted, then a parameter")
            << QByteArray("multipart/form-data; boundary=\"a/b:c=d?\" ; charset=utf-8")
            << QByteArray("a/b:c=d?");
        QTest::newRow("quoted-string escapes")
            << QByteArray("multipart/form-data; boundary=\"a\\/b\\(c)\"") << QByteArray("a/b(c)");
        QTest::newRow("a quoted parameter before it holds a decoy")
            << QByteArray("multipart/form-data; x=\"; boundary=decoy\"; boundary=real/one")
            << QByteArray("real/one");
        QTest::newRow("quoted, inner space")
            << QByteArray("multipart/form-data; boundary=\"a b\"") << QByteArray("a b");
        QTest::newRow("70 characters")
            << QByteArray("multipart/form-data; boundary=" + QByteArray(70, '/'))
            << QByteArray(70, '/');
        QTest::newRow("71 characters")
            << QByteArray("multipart/form-data; boundary=\"" + QByteArray(71, 'x') + "\"")
            << QByteArray();
        QTest::newRow("unterminated quote")
            << QByteArray("multipart/form-data; boundary=\"abc/def") << QByteArray();
        QTest::newRow("ends in a space")
            << QByteArray("multipart/form-data; boundary=\"abc \"") << QByteArray();
        QTest::newRow("not a boundary character")
            << QByteArray("multipart/form-data; boundary=\"a<b>\"") << QByteArray();
        QTest::newRow("bare, inner space")
            << QByteArray("multipart/form-data; boundary=a b") << QByteArray();
        QTest::newRow("empty quoted")
            << QByteArray("multipart/form-data; boundary=\"\"") << QByteArray();
    }
    void boundaryWithReservedCharacters() {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, boundary);
        const auto parsed = MultipartParser::boundaryFromContentType(contentType.toStdString());
        if (boundary.isEmpty()) {
            QVERIFY2(!parsed, parsed ? parsed->c_str() : "");
            return;
        }
        QVERIFY(parsed);
        QCOMPARE(QByteArray::fromStdString(*parsed), boundary);
    }

    void bodyWithSlashBoundary() {
        const std::string boundary = "boundary_.oOo._Q/x+Tz/0";
        const auto parsed = MultipartParser::boundaryFromContentType(
            "multipart/form-data; boundary=\"" + boundary + "\"");
        QVERIFY(parsed);
        MultipartParser parser(*parsed);
        Recorder sink;
        const std::string body = "--" + boundary +
                                 "\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n/tmp/x"
                                 "\r\n--" +
                                 boundary + "--\r\n";
        QVERIFY2(parser.feed(body, sink), parser.error().c_str());
        QVERIFY(parser.finish());
        QCOMPARE(sink.log, std::string("[path|-|]/tmp/x[end]"));
    }

    void wholeBody() {
        MultipartParser parser("XyZ");
        Recorder sink;
        QVERIFY(parser.feed(kBody, sink));
        QVERIFY(parser.finish());
        QCOMPARE(sink.log, kExpected);
    }

    // Every split point in two pieces, then one byte at a time.
    void splitAnywhere() {
        for (std::size_t at = 0; at <= kBody.size(); ++at) {
            MultipartParser parser("XyZ");
            Recorder sink;
            QVERIFY(parser.feed(std::string_view(kBody).substr(0, at), sink));
            QVERIFY(parser.feed(std::string_view(kBody).substr(at), sink));
            QVERIFY(parser.finish());
            QCOMPARE(sink.log, kExpected);
        }
        MultipartParser parser("XyZ");
        Recorder sink;
        for (const char c : kBody)
            QVERIFY(parser.feed(std::string_view(&c, 1), sink));
        QVERIFY(parser.finish());
        QCOMPARE(sink.log, kExpected);
    }

    // A part's data is passed on as it comes, never gathered whole.
    void largePartIsStreamed() {
        MultipartParser parser("b");
        Recorder sink;
        QVERIFY(parser.feed("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n", sink));
        const std::string piece(64 * 1024, 'x');
        for (int i = 0; i < 64; ++i)
            QVERIFY(parser.feed(piece, sink));
        QVERIFY(sink.largestPiece <= piece.size() + 8);
        QVERIFY(parser.feed("\r\n--b--", sink));
        QVERIFY(parser.finish());
        QCOMPARE(sink.log.size(), std::string("[file|-|]").size() + 64 * piece.size() + 5);
    }

    void malformed() {
        {
            MultipartParser parser("b");
            Recorder sink;
            QVERIFY(
                parser.feed("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nabc", sink));
            QVERIFY(!parser.finish());
        }
        {
            MultipartParser parser("b");
            Recorder sink;
            QVERIFY(!parser.feed("--b\r\nNo-Colon-Here\r\n\r\nabc", sink));
            QVERIFY(!parser.error().empty());
        }
        {
            MultipartParser parser("b");
            Recorder sink;
            QVERIFY(!parser.feed("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", sink));
        }
        {
            MultipartParser parser("b");
            Recorder sink;
            QVERIFY(!parser.feed("--bjunk\r\n", sink));
        }
        {
            MultipartParser parser("b");
            Recorder sink;
            QVERIFY(!parser.feed("--b\r\n" + std::string(20000, 'h'), sink));
        }
    }
};

QTEST_GUILESS_MAIN(TestServerFilesUnits)
#include "tst_server_files_units.moc"
