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

    // A delimiter split across two reads at every offset, behind a large part (the whole-piece
    // scan) and behind a short one (the bytes held back from the piece before), with near misses
    // ("\r\n--XyZ" prefixes that are data) on either side of the split.
    void delimiterSplitAtEveryOffset_data() {
        QTest::addColumn<int>("before");
        QTest::newRow("short part") << 3;
        QTest::newRow("part of one block") << 70000;
        QTest::newRow("part of several blocks") << 3 * 1024 * 1024;
    }
    void delimiterSplitAtEveryOffset() {
        QFETCH(int, before);
        const std::string delimiter = "\r\n--XyZ";
        std::string data(static_cast<std::size_t>(before), 'd');
        // Near misses in the data: a CR, a delimiter's prefix, and one that differs at its end.
        data.replace(0, 3, "\r\r\n");
        if (data.size() > 40)
            data.replace(data.size() - 20, 14, "\r\n--Xy\r\n--XyQ");
        const std::string head = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n";
        const std::string body = head + data + delimiter + "--\r\n";
        const std::string expected = "[file|-|]" + data + "[end]";
        const std::size_t at = head.size() + data.size(); // where the delimiter begins
        for (std::size_t offset = 0; offset <= delimiter.size() + 2; ++offset) {
            for (const std::size_t cut : {at + offset, at + offset - 1}) {
                MultipartParser parser("XyZ");
                Recorder sink;
                QVERIFY(parser.feed(std::string_view(body).substr(0, cut), sink));
                QVERIFY(parser.feed(std::string_view(body).substr(cut), sink));
                QVERIFY2(parser.finish(), parser.error().c_str());
                QVERIFY2(sink.log == expected, qPrintable(QString::number(cut)));
            }
            // Three reads: the delimiter's bytes alone in the middle one.
            MultipartParser parser("XyZ");
            Recorder sink;
            const std::string_view view(body);
            QVERIFY(parser.feed(view.substr(0, at + offset / 2), sink));
            QVERIFY(parser.feed(view.substr(at + offset / 2, offset - offset / 2), sink));
            QVERIFY(parser.feed(view.substr(at + offset), sink));
            QVERIFY2(parser.finish(), parser.error().c_str());
            QVERIFY2(sink.log == expected, qPrintable(QString::number(offset)));
        }
    }

    // Reads of every size from one byte to past the delimiter's length, as a slow or oddly
    // buffered client delivers them: the bytes held back grow, shrink and are passed on.
    void readsOfEverySize() {
        std::string data;
        for (int i = 0; i < 200; ++i)
            data += (i % 7 == 0) ? "\r\n--Xy" : (i % 5 == 0 ? "\r" : "abc");
        const std::string body =
            "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n" + data +
            "\r\n--XyZ\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n/p\r\n--XyZ--";
        const std::string expected = "[file|-|]" + data + "[end][path|-|]/p[end]";
        for (std::size_t size = 1; size <= 12; ++size) {
            MultipartParser parser("XyZ");
            Recorder sink;
            for (std::size_t i = 0; i < body.size(); i += size)
                QVERIFY(parser.feed(std::string_view(body).substr(i, size), sink));
            QVERIFY2(parser.finish(), parser.error().c_str());
            QVERIFY2(sink.log == expected, qPrintable(QString::number(size)));
        }
    }

    // A part's data is passed on as views of the piece fed, all of it but what may begin a
    // delimiter: nothing is gathered or copied per read.
    void dataIsPassedOnInPlace() {
        struct InPlace final : MultipartSink {
            void partBegin(const MultipartPart &) override {}
            void partData(std::string_view data) override {
                inside += data.data() >= piece.data() &&
                                  data.data() + data.size() <= piece.data() + piece.size()
                              ? data.size()
                              : 0;
                total += data.size();
            }
            void partEnd() override {}
            std::string_view piece;
            std::size_t inside = 0;
            std::size_t total = 0;
        } sink;
        MultipartParser parser("b");
        const std::string head = "--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n";
        sink.piece = head;
        QVERIFY(parser.feed(head, sink));
        std::string piece(1024 * 1024, 'x');
        piece.back() = '\r'; // held back: it may begin the delimiter
        for (int i = 0; i < 4; ++i) {
            sink.piece = piece;
            QVERIFY(parser.feed(piece, sink));
        }
        QCOMPARE(sink.total, 4 * piece.size() - 1);
        QCOMPARE(sink.inside, 4 * (piece.size() - 1));
        QVERIFY(parser.feed("\r\n--b--", sink));
        QVERIFY(parser.finish());
    }

    // The part header and padding limits hold however the body is split: a body fails in one
    // piece exactly where it fails byte by byte.
    void limitsDoNotDependOnTheSplit_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("valid");
        const QByteArray disposition = "Content-Disposition: form-data; name=\"f\"\r\n";
        const QByteArray tail = "\r\nx\r\n--b--";
        const auto headers = [&](int size) -> QByteArray {
            QByteArray filler = "X-Fill: " + QByteArray(size - disposition.size() - 12, 'f');
            return "--b\r\n" + disposition + filler + "\r\n" + tail;
        };
        // A part's headers and the blank line after them: 16 KiB at most.
        QTest::newRow("headers at the limit") << headers(16 * 1024) << true;
        QTest::newRow("headers past the limit") << headers(16 * 1024 + 1) << false;
        // The delimiter line's padding and CRLF: 256 bytes at most.
        QTest::newRow("padding at the limit")
            << QByteArray("--b" + QByteArray(254, ' ') + "\r\n" + disposition + tail) << true;
        QTest::newRow("padding past the limit")
            << QByteArray("--b" + QByteArray(255, ' ') + "\r\n" + disposition + tail) << false;
    }
    void limitsDoNotDependOnTheSplit() {
        QFETCH(QByteArray, body);
        QFETCH(bool, valid);
        const std::string text = body.toStdString();
        for (const std::size_t size : {text.size(), std::size_t(4096), std::size_t(1)}) {
            MultipartParser parser("b");
            Recorder sink;
            bool fed = true;
            for (std::size_t i = 0; i < text.size() && fed; i += size)
                fed = parser.feed(std::string_view(text).substr(i, size), sink);
            QCOMPARE(fed && parser.finish(), valid);
        }
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
