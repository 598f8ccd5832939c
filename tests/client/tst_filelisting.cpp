// POST /v1/file/list answers read straight from the text (client/api/filelistingparser.h): the
// same files as the JSON tree gives, whatever the key order, spacing, escapes and unknown
// fields; anything else left to the tolerant parse; times read as QDateTime reads them.
#include "client/api/filelistingparser.h"

#include <QTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QByteArray fileJson(int i) {
    return R"({"extension":".txt","is_directory":false,"modified_time":"2026-12-02T03:40:36.)" +
           QByteArray::number(100 + i % 900) + R"(Z","name":"f)" + QByteArray::number(i) +
           R"(.txt","path":"/w/f)" + QByteArray::number(i) +
           R"(.txt","permissions":"644","size":)" + QByteArray::number(i * 7) + "}";
}

void compareListings(const QList<RemoteFileInfo> &fast, const QList<RemoteFileInfo> &tree) {
    QCOMPARE(fast.size(), tree.size());
    for (qsizetype i = 0; i < fast.size(); ++i) {
        QCOMPARE(fast[i].name, tree[i].name);
        QCOMPARE(fast[i].path, tree[i].path);
        QCOMPARE(fast[i].isDirectory, tree[i].isDirectory);
        QCOMPARE(fast[i].size, tree[i].size);
        QCOMPARE(fast[i].modified, tree[i].modified);
        QCOMPARE(fast[i].modified.timeSpec(), tree[i].modified.timeSpec());
        QCOMPARE(fast[i].permissions, tree[i].permissions);
    }
}

} // namespace

class TestFileListing final : public QObject {
    Q_OBJECT

private slots:
    void sameFilesAsTheTree_data();
    void sameFilesAsTheTree();
    void unusualAnswersGoTheTolerantWay_data();
    void unusualAnswersGoTheTolerantWay();
    void mutationsNeverDisagree();
    void streamedRowsMatchWhateverTheCuts();
    void streamGivesUpOnWhatItDoesNotExpect();
    void streamNeverDisagrees();
    void isoTimesAsQDateTimeReadsThem_data();
    void isoTimesAsQDateTimeReadsThem();
};

void TestFileListing::sameFilesAsTheTree_data() {
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("count");
    QByteArray many = R"({"data":{"directory_count":0,"file_count":300,"files":[)";
    for (int i = 0; i < 300; ++i)
        many += (i ? "," : "") + fileJson(i);
    many += R"(],"path":"/w","total_count":300},"hint":null,"message":"Listed","success":true})";
    QTest::newRow("sandbox-server's order") << many << 300;
    QTest::newRow("AIO's order, spaced, unknown fields")
        << QByteArray(R"( { "success" : true , "message" : "ok" , "data" : { "path" : "/w" ,
            "files" : [ { "name" : "a" , "path" : "/w/a" , "is_directory" : true ,
            "size" : null , "modified_time" : null , "permissions" : null ,
            "extension" : null , "owner" : { "uid" : [ 0 , 1.5e3 , -2 ] , "x" : "\"}" } } ,
            { "size" : 12 , "name" : "b" , "path" : "/w/b" , "is_directory" : false } ] ,
            "total_count" : 2 } , "hint" : "h" } )")
        << 2;
    QTest::newRow("escapes and unicode")
        << QByteArray(R"({"success":true,"data":{"files":[{"name":"q\"b\\s\/t\tn\nc\u0001)"
                      R"(\u00e9\u4e2d\ud83d\ude00","path":"/\u00e9","is_directory":false},)"
                      R"({"name":"\u00e9-\u00fc.txt","path":"p","is_directory":false,)"
                      R"("modified_time":"2021-03-04T05:06:07+02:00"}]}})")
        << 2;
    QTest::newRow("numbers as floats, nulls for optional fields")
        << QByteArray(
               R"({"success":true,"data":{"files":[{"name":"a","path":"/a","size":1024.0,)"
               R"("is_directory":false},{"name":"b","path":"/b","size":1.5e3},)"
               R"({"name":"c","path":null,"size":-0,"permissions":null,"is_directory":null},)"
               R"({"name":"d","path":"/d","size":2.9E+1,"extension":""},)"
               R"({"name":"e","path":"/e","size":12345678901234567}]}})")
        << 5;
    QTest::newRow("only the required fields, AIO's own times")
        << QByteArray(R"({"data":{"path":"/w","files":[{"name":"x","path":"/w/x","is_directory":)"
                      R"(true,"modified_time":"2024-05-01T12:00:00.123456"},{"name":"y","path":)"
                      R"("/w/y","is_directory":false,"modified_time":"2024-05-01T12:00:00"},)"
                      R"({"name":"z","path":"/w/z","is_directory":false,"modified_time":)"
                      R"("2024-05-01T12:00:00.5+00:00"}]}})")
        << 3;
    QTest::newRow("non-ASCII names as they are")
        << QByteArray("{\"data\":{\"files\":[{\"name\":\"\xe4\xb8\xad\xe6\x96\x87.txt\","
                      "\"path\":\"/\xe4\xb8\xad\xe6\x96\x87.txt\"},{\"name\":\"\xf0\x9f\x98\x80 "
                      "\xc3\xa9\xef\xbf\xbd\",\"path\":\"/e\"}]}}")
        << 2;
    QTest::newRow("escaped keys, a key twice (the last counts)")
        << QByteArray(R"({"success":false,"success":true,"data":{"files":[{"n\u0061me":"a",)"
                      R"("name":"b","size":1,"size":2,"p\/ath":"/p"}],"files":[{"name":"c"}]}})")
        << 1;
    QTest::newRow("data twice: the first one's files are gone")
        << QByteArray(R"({"data":{"files":[{"name":"a"}]},"data":{"path":"/w"}})") << 0;
    QTest::newRow("deep unknown fields")
        << QByteArray(R"({"data":{"files":[{"name":"a","x":[[[[{"y":[true,false,null,-1.5e-3,)"
                      R"("\u00e9"]}]]]]}]},"extra":{"a":[]}})")
        << 1;
    QTest::newRow("no files, null files, no data")
        << QByteArray(R"({"success":true,"data":{"files":[]}})") << 0;
    QTest::newRow("null files") << QByteArray(R"({"success":true,"data":{"files":null}})") << 0;
    QTest::newRow("no data") << QByteArray(R"({"message":"x"})") << 0;
    QTest::newRow("nameless and non-object entries are left out")
        << QByteArray(R"({"data":{"files":[{"name":"","path":"/x"},7,"s",null,{"name":"k"}]}})")
        << 1;
}

void TestFileListing::sameFilesAsTheTree() {
    QFETCH(QByteArray, body);
    QFETCH(int, count);
    QList<RemoteFileInfo> fast;
    QVERIFY(parseFileListingFast(body, fast));
    const FileListing tree = parseFileListingTolerant(body);
    QVERIFY2(tree.status.ok(), qPrintable(tree.status.message));
    QCOMPARE(fast.size(), count);
    compareListings(fast, tree.files);
    const FileListing both = parseFileListing(body);
    QVERIFY(both.status.ok());
    compareListings(both.files, tree.files);
}

void TestFileListing::unusualAnswersGoTheTolerantWay_data() {
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("treeOk");
    QTest::newRow("a file error")
        << QByteArray(R"({"success":false,"message":"No such folder","data":{"path":"/x",)"
                      R"("operation":"list","message":"No such folder","error_type":"not_found"}})")
        << false;
    QTest::newRow("a size as a string")
        << QByteArray(R"({"data":{"files":[{"name":"a","path":"/a","size":"1"}]}})") << true;
    QTest::newRow("a size beyond qint64")
        << QByteArray(R"({"data":{"files":[{"name":"a","path":"/a","size":1e30}]}})") << true;
    QTest::newRow("success as a string")
        << QByteArray(R"({"success":"yes","data":{"files":[{"name":"a"}]}})") << true;
    QTest::newRow("a byte order mark")
        << QByteArray("\xef\xbb\xbf{\"data\":{\"files\":[]}}") << true;
    QTest::newRow("nested deeper than 64")
        << QByteArray(R"({"data":{"files":[],"x":)" + QByteArray(100, '[') + QByteArray(100, ']') +
                      "}}")
        << true;
    QTest::newRow("a numeric name")
        << QByteArray(R"({"data":{"files":[{"name":5,"path":"/a"}]}})") << true;
    QTest::newRow("files is an object") << QByteArray(R"({"data":{"files":{}}})") << false;
    QTest::newRow("cut off") << QByteArray(R"({"data":{"files":[{"name":"a","pa)") << false;
    QTest::newRow("trailing garbage") << QByteArray(R"({"data":{"files":[]}} x)") << false;
    QTest::newRow("a lone surrogate")
        << QByteArray(R"({"data":{"files":[{"name":"\udc00","path":"/a"}]}})") << false;
    QTest::newRow("a bad escape") << QByteArray(R"({"data":{"files":[{"name":"\q","path":"/a"}]}})")
                                  << false;
    // Text that is not JSON, in a field the listing does not even read: the same error as the
    // JSON tree gives, never a listing.
    const auto garbage = [](const char *name, const QByteArray &value) {
        QTest::newRow(name) << (R"({"data":{"files":[{"name":"a","x":)" + value + "}]}}") << false;
    };
    garbage("a leading zero", "01");
    garbage("a dot without digits", "1.");
    garbage("a fraction without an integer", ".5");
    garbage("a plus sign", "+1");
    garbage("a minus alone", "-");
    garbage("an exponent without digits", "1e");
    garbage("minus minus", "--1");
    garbage("NaN", "NaN");
    garbage("a bare word", "truex");
    garbage("single quotes", "'a'");
    garbage("a control character in a string", "\"a\tb\"");
    garbage("an escape JSON has not", R"("\x41")");
    garbage("a short unicode escape", R"("\u12")");
    garbage("a lone high surrogate", R"("\ud800x")");
    garbage("a lone low surrogate in a skipped field", R"("\udc00")");
    garbage("an overlong UTF-8 form", "\"\xc0\x80\"");
    garbage("a stray continuation byte", "\"\x80\"");
    garbage("a UTF-8 surrogate", "\"\xed\xa0\x80\"");
    garbage("beyond U+10FFFF", "\"\xf4\x90\x80\x80\"");
    garbage("a cut UTF-8 sequence", "\"\xe4\xb8\"");
    garbage("a trailing comma in an array", "[1,]");
    garbage("a trailing comma in an object", R"({"a":1,})");
    garbage("a missing comma", "[1 2]");
    garbage("a missing colon", R"({"a" 1})");
    garbage("a key that is no string", "{a:1}");
    garbage("an unclosed array", "[");
    QTest::newRow("an invalid name")
        << QByteArray("{\"data\":{\"files\":[{\"name\":\"a\xff\"}]}}") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("only spaces") << QByteArray(" \n") << false;
    QTest::newRow("two documents") << QByteArray("{}{}") << false;
    QTest::newRow("not an object") << QByteArray("[1,2]") << false;
    QTest::newRow("html") << QByteArray("<html>502</html>") << false;
}

void TestFileListing::unusualAnswersGoTheTolerantWay() {
    QFETCH(QByteArray, body);
    QFETCH(bool, treeOk);
    QList<RemoteFileInfo> fast;
    QVERIFY(!parseFileListingFast(body, fast));
    QVERIFY(fast.isEmpty());
    // What the console shows is what the tolerant parse makes of it.
    const FileListing both = parseFileListing(body);
    const FileListing tree = parseFileListingTolerant(body);
    QCOMPARE(both.status.ok(), treeOk);
    QCOMPARE(both.status.kind, tree.status.kind);
    QCOMPARE(both.status.message, tree.status.message);
    QVERIFY2(treeOk || !both.status.message.isEmpty(), "an error without a message");
    compareListings(both.files, tree.files);
}

// Bodies bent at random from a real answer: whatever the fast parse accepts the JSON tree reads
// as the same files; whatever the tree calls invalid the fast parse never accepts.
void TestFileListing::mutationsNeverDisagree() {
    QByteArray seed = R"({"success":true,"message":"ok","data":{"path":"/w","files":[)";
    for (int i = 0; i < 6; ++i)
        seed += (i ? "," : "") + fileJson(i);
    seed += R"(,{"name":"\u00e9\"","size":1.5e1,"owner":{"a":[null,true]}}],"total_count":7}})";
    const QByteArray alphabet = R"({}[]:,"\ 0123456789.eE+-tfnrulsa)"
                                "\x80\xc3\xa9\xed\xff\t";
    quint32 state = 2463534242u; // xorshift32: the same bodies every run
    const auto random = [&state](quint32 below) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state % below;
    };
    int accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        QByteArray body = seed;
        const int edits = 1 + static_cast<int>(random(3));
        for (int e = 0; e < edits; ++e) {
            const auto at = static_cast<qsizetype>(random(static_cast<quint32>(body.size())));
            const char c =
                alphabet[static_cast<qsizetype>(random(static_cast<quint32>(alphabet.size())))];
            switch (random(3)) {
            case 0:
                body[at] = c;
                break;
            case 1:
                body.insert(at, c);
                break;
            default:
                body.remove(at, 1 + static_cast<qsizetype>(random(4)));
                break;
            }
        }
        QList<RemoteFileInfo> fast;
        const bool fastOk = parseFileListingFast(body, fast);
        const FileListing tree = parseFileListingTolerant(body);
        if (!fastOk)
            continue;
        ++accepted;
        QVERIFY2(tree.status.ok(), body.constData());
        compareListings(fast, tree.files);
        if (QTest::currentTestFailed()) {
            qWarning() << "body:" << body;
            return;
        }
    }
    qInfo() << accepted << "of 20000 bent bodies read by the fast parse";
    QVERIFY(accepted > 100);
}

void TestFileListing::isoTimesAsQDateTimeReadsThem_data() {
    QTest::addColumn<QByteArray>("text");
    for (const char *text :
         {"2026-12-02T03:40:36.123Z", "1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z",
          "1969-12-31T23:59:59.500Z", "2024-05-01T12:00:00Z", "0001-01-01T00:00:00.000Z",
          "2023-02-29T00:00:00.000Z", "2021-03-04T05:06:07+02:00", "2021-03-04T05:06:07.1Z",
          "2021-13-04T05:06:07.000Z", "2024-05-01T12:00:00.123456", "2024-05-01T12:00:00",
          "2024-05-01T12:00:00.9996Z", "2024-05-01T24:00:00.000Z", "2024-05-01T12:00:60.000Z",
          "2024-05-01 12:00:00.000Z", "garbage", ""})
        QTest::newRow(text) << QByteArray(text);
}

void TestFileListing::isoTimesAsQDateTimeReadsThem() {
    QFETCH(QByteArray, text);
    const QDateTime expected = QDateTime::fromString(QString::fromLatin1(text), Qt::ISODateWithMs);
    const QDateTime parsed = parseIsoTime(text);
    QCOMPARE(parsed.isValid(), expected.isValid());
    QCOMPARE(parsed, expected);
    if (expected.isValid())
        QCOMPARE(parsed.toMSecsSinceEpoch(), expected.toMSecsSinceEpoch());
}

// The preview cut from the bytes as they arrive: the same rows as the whole body, wherever the
// network splits it, names with quotes, braces and escapes included.
void TestFileListing::streamedRowsMatchWhateverTheCuts() {
    QByteArray files;
    for (int i = 0; i < 40; ++i)
        files += (i ? "," : "") + fileJson(i);
    files += R"(,{"name":"a\"}{[b","path":"/w/a\"}{[b","is_directory":true,"size":null,)"
             R"("permissions":"755","modified_time":null,"extension":null})";
    files += R"(,{"name":"\u65e5\\x","path":"/w/\u65e5\\x","is_directory":false,"size":3})";
    const QByteArray body = R"({"success":true,"message":"listed \"files\":[no]","data":)"
                            R"({"path":"/w","files":[)" +
                            files + R"(],"total_count":42},"hint":null})";
    QList<RemoteFileInfo> whole;
    QVERIFY(parseFileListingFast(body, whole));
    QCOMPARE(whole.size(), 42);
    for (const int chunk : {1, 2, 3, 7, 64, 1000, int(body.size())}) {
        FileListingStream stream;
        QList<RemoteFileInfo> rows;
        for (qsizetype at = 0; at < body.size(); at += chunk)
            rows += stream.feed(
                QByteArrayView(body).sliced(at, qMin<qsizetype>(chunk, body.size() - at)));
        QVERIFY2(!stream.failed(), qPrintable(QString::number(chunk)));
        QVERIFY(stream.complete());
        QVERIFY(stream.finish());
        compareListings(rows, whole);
    }
    // The counts after the files, as sandbox-server streams them; a preview's limit keeps the
    // rest for the next piece.
    const QByteArray countsLast =
        R"({"data":{"files":[)" + files +
        R"(],"path":"/w","total_count":42},"message":"m","success":true})";
    FileListingStream limited;
    QList<RemoteFileInfo> rows = limited.feed(countsLast, 5);
    QCOMPARE(rows.size(), 5);
    rows += limited.feed("");
    rows += limited.feed(" ");
    QVERIFY(limited.finish());
    compareListings(rows, whole);
}

// Whatever the stream calls whole, the whole body's parse reads as the same rows, wherever the
// body was cut; bent bodies it may give up on, never read differently.
void TestFileListing::streamNeverDisagrees() {
    QByteArray seed = R"({"data":{"files":[)";
    for (int i = 0; i < 6; ++i)
        seed += (i ? "," : "") + fileJson(i);
    seed += R"(,{"name":"\u00e9\"","size":1.5e1,"owner":{"a":[null,true]}}],"path":"/w",)"
            R"("meta":{"files":[{"name":"decoy"}]},"total_count":7},"hint":null,"success":true})";
    const QByteArray alphabet = R"({}[]:,"\ 0123456789.eE+-tfnrulsa)"
                                "\x80\xc3\xa9\xed\xff\t";
    quint32 state = 88172645u;
    const auto random = [&state](quint32 below) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state % below;
    };
    int whole = 0;
    for (int round = 0; round < 20000; ++round) {
        QByteArray body = seed;
        const int edits = round == 0 ? 0 : 1 + static_cast<int>(random(3));
        for (int e = 0; e < edits; ++e) {
            const auto at = static_cast<qsizetype>(random(static_cast<quint32>(body.size())));
            const char c =
                alphabet[static_cast<qsizetype>(random(static_cast<quint32>(alphabet.size())))];
            switch (random(3)) {
            case 0:
                body[at] = c;
                break;
            case 1:
                body.insert(at, c);
                break;
            default:
                body.remove(at, 1 + static_cast<qsizetype>(random(4)));
                break;
            }
        }
        FileListingStream stream;
        QList<RemoteFileInfo> rows;
        const qsizetype cut = 1 + static_cast<qsizetype>(random(97));
        for (qsizetype at = 0; at < body.size(); at += cut)
            rows += stream.feed(QByteArrayView(body).sliced(at, qMin(cut, body.size() - at)));
        if (!stream.finish())
            continue;
        ++whole;
        QList<RemoteFileInfo> fast;
        QVERIFY2(parseFileListingFast(body, fast), body.constData());
        compareListings(rows, fast);
        if (QTest::currentTestFailed()) {
            qWarning() << "body:" << body;
            return;
        }
    }
    qInfo() << whole << "of 20000 bent bodies read whole by the stream";
    QVERIFY(whole > 100);
}

void TestFileListing::streamGivesUpOnWhatItDoesNotExpect() {
    FileListingStream stream;
    QVERIFY(stream.feed(R"({"success":true,"data":{"files":[{"name":12}]}})").isEmpty());
    QVERIFY(stream.failed());
    FileListingStream error;
    QVERIFY(error.feed(R"({"success":false,"message":"no such folder","data":null})").isEmpty());
    QVERIFY(!error.failed());
    QVERIFY(!error.complete());
    QVERIFY(!error.finish());
    // Rows that were all there, in an answer that is no success, or not JSON past them.
    for (const QByteArray &tail :
         {QByteArray(R"(]},"success":false})"), QByteArray(R"(]},"success":true)"),
          QByteArray(R"(]},"success":true}x)"), QByteArray(R"(],"files":[]},"success":true})")}) {
        FileListingStream bent;
        const QByteArray body = R"({"data":{"files":[)" + fileJson(1) + tail;
        bent.feed(body);
        QVERIFY2(!bent.finish(), body.constData());
    }
    // The key spelt with an escape, and rows that are no objects: the whole parse decides.
    for (const QByteArray &body :
         {QByteArray(R"({"data":{"fil\u0065s":[)" + fileJson(1) + R"(]},"success":true})"),
          QByteArray(R"({"data":{"files":[null,)" + fileJson(1) + R"(]},"success":true})"),
          QByteArray(R"({"data":{"files":[)" + fileJson(1) + R"(,]},"success":true})")}) {
        FileListingStream bent;
        bent.feed(body);
        QVERIFY2(!bent.finish(), body.constData());
        QList<RemoteFileInfo> fast;
        QVERIFY(!parseFileListingFast(body, fast) || fast.size() == 1);
    }
}

QTEST_GUILESS_MAIN(TestFileListing)
#include "tst_filelisting.moc"
