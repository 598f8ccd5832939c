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
