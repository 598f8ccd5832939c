// AIO's JSON file routes on a real sandbox-server: /v1/file/list (sorting, hidden files, sizes,
// recursion, filters, a large folder streamed as it is read), /v1/file/read (line ranges),
// /v1/file/write (utf-8, base64, append), the FileOperationError shape (HTTP 200, success false)
// and FastAPI 422s.
#include "tests/server/httptestclient.h"
#include "tests/support/testserver.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sbxtest;
using namespace Qt::Literals::StringLiterals;

class TestServerFiles final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void listSortsAndReportsSizes();
    void listHiddenAndFileTypes();
    void listRecursiveWithMaxDepth();
    void listHostileNamesLinksAndModes();
    void listErrorShapes();
    void listLargeFolderAsItIsRead();
    void listReaderGoneMidway();
    void readLineRanges();
    void readErrorShapes();
    void writeUtf8Base64AndAppend();
    void writeHostileNames();
    void writeErrorShapes();
    void permissionDeniedAndSudo();
    void relativePathsUseTheWorkspace();
    void validationErrorsAreFastApiShaped();

private:
    QString path(const QString &relative) const { return m_root + u'/' + relative; }
    void makeFile(const QString &relative, const QByteArray &bytes) {
        const QString full = path(relative);
        QDir().mkpath(QFileInfo(full).path());
        QFile file(full);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bytes), bytes.size());
    }
    QByteArray contents(const QString &full) {
        QFile file(full);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }
    QJsonObject post(const QString &endpoint, const QJsonObject &body, int expectStatus = 200) {
        QUrl url = m_server.url(endpoint);
        const HttpResult result = request("POST", url, {{"Content-Type", "application/json"}},
                                          QJsonDocument(body).toJson(QJsonDocument::Compact));
        if (result.status != expectStatus)
            qWarning() << "status" << result.status << result.body;
        return result.status == expectStatus ? result.json() : QJsonObject{};
    }
    QStringList names(const QJsonObject &envelope) {
        QStringList out;
        const QJsonArray files = envelope[u"data"_s][u"files"_s].toArray();
        for (const auto &file : files)
            out << file[u"name"_s].toString();
        return out;
    }
    // Checks the FileOperationError shape and returns data.
    QJsonObject expectFileError(const QJsonObject &envelope, const QString &errorType) {
        if (envelope[u"success"_s] != QJsonValue(false) ||
            envelope[u"message"_s].toString().isEmpty()) {
            qWarning() << envelope;
            return {};
        }
        const QJsonObject data = envelope[u"data"_s].toObject();
        for (const char *field : {"path", "operation", "message", "error_type"}) {
            if (!data[QLatin1String(field)].isString())
                return {};
        }
        if (!data[u"retryable"_s].isBool() || data[u"error_type"_s].toString() != errorType) {
            qWarning() << data;
            return {};
        }
        return data;
    }

    // A folder of many entries, some hidden, some folders, a link to a folder.
    void makeLargeFolder(const QString &relative, int files) {
        QVERIFY(QDir().mkpath(path(relative + u"/sub-a"_s)));
        QVERIFY(QDir().mkpath(path(relative + u"/sub-b"_s)));
        QVERIFY(QFile::link(path(relative + u"/sub-a"_s), path(relative + u"/link-to-a"_s)));
        makeFile(relative + u"/.hidden"_s, "h");
        for (int i = 0; i < files; ++i)
            makeFile(
                relative +
                    u"/entry-%1.%2"_s.arg(i, 5, 10, QChar(u'0')).arg(i % 3 ? u"txt"_s : u"py"_s),
                QByteArray(i % 7, 'x'));
    }
    QByteArray listRequest(const QString &folder, const QByteArray &extraHeaders,
                           const QByteArray &version = "HTTP/1.1") {
        const QByteArray body = QJsonDocument(QJsonObject{{u"path"_s, folder},
                                                          {u"include_size"_s, true},
                                                          {u"include_permissions"_s, true}})
                                    .toJson(QJsonDocument::Compact);
        return "POST /v1/file/list " + version + "\r\nHost: x\r\nConnection: close\r\n" +
               "Content-Type: application/json\r\n" + extraHeaders +
               "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

    TestServer m_server;
    QString m_root;
};

namespace {
// The head of a raw response, and its chunked body decoded; chunks counts the pieces. Empty
// body and chunks -1 when the coding is broken or the last chunk is missing.
struct Chunked {
    QByteArray head;
    QByteArray body;
    int chunks = -1;
};
Chunked decodeChunked(const QByteArray &raw) {
    Chunked out;
    const qsizetype end = raw.indexOf("\r\n\r\n");
    if (end < 0)
        return out;
    out.head = raw.left(end);
    qsizetype at = end + 4;
    int chunks = 0;
    for (;;) {
        const qsizetype line = raw.indexOf("\r\n", at);
        if (line < 0)
            return {out.head, {}, -1};
        bool ok = false;
        const qsizetype size = raw.mid(at, line - at).toLongLong(&ok, 16);
        if (!ok || line + 2 + size + 2 > raw.size())
            return {out.head, {}, -1};
        if (size == 0)
            break;
        out.body += raw.mid(line + 2, size);
        at = line + 2 + size + 2;
        ++chunks;
    }
    out.chunks = chunks;
    return out;
}
} // namespace

void TestServerFiles::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_root = m_server.workspace() + u"/files-suite"_s;
    QVERIFY(QDir().mkpath(m_root));
}

void TestServerFiles::cleanupTestCase() {
    QCOMPARE(m_server.stop(), 0);
}

void TestServerFiles::listSortsAndReportsSizes() {
    makeFile(u"sort/b.txt"_s, "bbbbbbbbbb");
    makeFile(u"sort/a.py"_s, "a");
    makeFile(u"sort/c.md"_s, "ccccc");
    QVERIFY(QDir().mkpath(path(u"sort/d-folder"_s)));
    QJsonObject result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"sort"_s)}});
    QCOMPARE(result[u"success"_s], QJsonValue(true));
    QCOMPARE(names(result), QStringList({u"a.py"_s, u"b.txt"_s, u"c.md"_s, u"d-folder"_s}));
    const QJsonObject data = result[u"data"_s].toObject();
    QCOMPARE(data[u"path"_s].toString(), path(u"sort"_s));
    QCOMPARE(data[u"total_count"_s].toInt(), 4);
    QCOMPARE(data[u"directory_count"_s].toInt(), 1);
    QCOMPARE(data[u"file_count"_s].toInt(), 3);
    const QJsonObject b = data[u"files"_s].toArray().at(1).toObject();
    QCOMPARE(b[u"path"_s].toString(), path(u"sort/b.txt"_s));
    QCOMPARE(b[u"size"_s].toInt(), 10);
    QCOMPARE(b[u"is_directory"_s], QJsonValue(false));
    QCOMPARE(b[u"extension"_s].toString(), u".txt"_s);
    QVERIFY(b[u"permissions"_s].isNull());
    static const QRegularExpression iso(
        u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$"_s);
    QVERIFY2(iso.match(b[u"modified_time"_s].toString()).hasMatch(),
             qPrintable(b[u"modified_time"_s].toString()));
    QCOMPARE(data[u"files"_s].toArray().at(3)[u"is_directory"_s], QJsonValue(true));

    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"sort"_s)},
                                       {u"sort_by"_s, u"size"_s},
                                       {u"sort_desc"_s, true},
                                       {u"include_permissions"_s, true},
                                       {u"include_size"_s, true}});
    const QStringList bySize = names(result);
    // The folder's own size depends on the file system; the files are ordered among themselves.
    QStringList filesOnly = bySize;
    filesOnly.removeAll(u"d-folder"_s);
    QCOMPARE(filesOnly, QStringList({u"b.txt"_s, u"c.md"_s, u"a.py"_s}));
    const QJsonArray files = result[u"data"_s][u"files"_s].toArray();
    for (const auto &file : files) {
        if (file[u"name"_s] == u"a.py"_s)
            QCOMPARE(file[u"permissions"_s].toString(), u"644"_s);
    }
    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"sort"_s)}, {u"sort_by"_s, u"type"_s}});
    QCOMPARE(names(result), QStringList({u"d-folder"_s, u"c.md"_s, u"a.py"_s, u"b.txt"_s}));
    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"sort"_s)}, {u"include_size"_s, false}});
    QVERIFY(result[u"data"_s][u"files"_s][0][u"size"_s].isNull());
}

void TestServerFiles::listHiddenAndFileTypes() {
    makeFile(u"hidden/.secret"_s, "s");
    makeFile(u"hidden/shown.py"_s, "p");
    makeFile(u"hidden/notes.TXT"_s, "t");
    QJsonObject result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"hidden"_s)}});
    // AIO's default is show_hidden true.
    QCOMPARE(names(result), QStringList({u".secret"_s, u"notes.TXT"_s, u"shown.py"_s}));
    QCOMPARE(result[u"data"_s][u"files"_s][0][u"extension"_s].toString(), QString());
    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"hidden"_s)}, {u"show_hidden"_s, false}});
    QCOMPARE(names(result), QStringList({u"notes.TXT"_s, u"shown.py"_s}));
    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"hidden"_s)},
                                       {u"file_types"_s, QJsonArray({u".py"_s, u"txt"_s})}});
    QCOMPARE(names(result), QStringList({u"notes.TXT"_s, u"shown.py"_s}));
}

void TestServerFiles::listRecursiveWithMaxDepth() {
    makeFile(u"tree/top.txt"_s, "1");
    makeFile(u"tree/one/mid.txt"_s, "22");
    makeFile(u"tree/one/two/deep.txt"_s, "333");
    QJsonObject result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"tree"_s)}});
    QCOMPARE(names(result), QStringList({u"one"_s, u"top.txt"_s}));
    result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"tree"_s)}, {u"recursive"_s, true}});
    QStringList all = names(result);
    all.sort();
    QCOMPARE(all, QStringList({u"deep.txt"_s, u"mid.txt"_s, u"one"_s, u"top.txt"_s, u"two"_s}));
    QJsonArray files = result[u"data"_s][u"files"_s].toArray();
    bool sawDeep = false;
    for (const auto &file : files) {
        if (file[u"name"_s] == u"deep.txt"_s) {
            sawDeep = true;
            QCOMPARE(file[u"path"_s].toString(), path(u"tree/one/two/deep.txt"_s));
            QCOMPARE(file[u"size"_s].toInt(), 3);
        }
    }
    QVERIFY(sawDeep);
    result = post(u"/v1/file/list"_s,
                  {{u"path"_s, path(u"tree"_s)}, {u"recursive"_s, true}, {u"max_depth"_s, 2}});
    all = names(result);
    all.sort();
    QCOMPARE(all, QStringList({u"mid.txt"_s, u"one"_s, u"top.txt"_s, u"two"_s}));
}

// The listing's JSON is written by hand: every byte a name may hold comes back as the name
// (bytes that are not UTF-8 as U+FFFD), links to folders are folders, times and modes exact.
void TestServerFiles::listHostileNamesLinksAndModes() {
    const QByteArray folder = QFile::encodeName(path(u"hostile"_s));
    const auto at = [&folder](const QByteArray &name) -> QByteArray {
        return folder + '/' + name;
    };
    QVERIFY(QDir().mkpath(path(u"hostile/sub"_s)));
    const QList<QByteArray> raw = {"quo\"te\\back.txt",     "tab\there",   "nl\nname", "ctl\x01x",
                                   "\xc3\xa9-\xc3\xbc.txt", "bad\xff.bin", "setuid"};
    for (const QByteArray &name : raw) {
        const int fd = ::open(at(name).constData(), O_CREAT | O_WRONLY, 0644);
        QVERIFY2(fd >= 0, name.constData());
        QCOMPARE(::write(fd, "12345", 5), ssize_t(5));
        ::close(fd);
    }
    QCOMPARE(::chmod(at("setuid").constData(), 04755), 0);
    // 2021-03-04T05:06:07.089Z
    const timespec when[2] = {{1614834367, 89000000}, {1614834367, 89000000}};
    QCOMPARE(::utimensat(AT_FDCWD, at("tab\there").constData(), when, 0), 0);
    QCOMPARE(::symlink(at("sub").constData(), at("link-dir").constData()), 0);
    QCOMPARE(::symlink(at("gone").constData(), at("dangling").constData()), 0);

    const QJsonObject result = post(
        u"/v1/file/list"_s, {{u"path"_s, path(u"hostile"_s)}, {u"include_permissions"_s, true}});
    QCOMPARE(result[u"success"_s], QJsonValue(true));
    QHash<QString, QJsonObject> byName;
    const QJsonArray files = result[u"data"_s][u"files"_s].toArray();
    for (const auto &file : files)
        byName.insert(file[u"name"_s].toString(), file.toObject());
    const QStringList expected = {
        u"quo\"te\\back.txt"_s, u"tab\there"_s,     u"nl\nname"_s, u"ctl\x01x"_s,
        u"\u00e9-\u00fc.txt"_s, u"bad\ufffd.bin"_s, u"setuid"_s,   u"sub"_s,
        u"link-dir"_s,          u"dangling"_s};
    for (const QString &name : expected)
        QVERIFY2(byName.contains(name), qPrintable(QStringList(byName.keys()).join(u'|')));
    QCOMPARE(byName.size(), expected.size());
    QCOMPARE(result[u"data"_s][u"total_count"_s].toInt(), 10);
    QCOMPARE(result[u"data"_s][u"directory_count"_s].toInt(), 2);
    const QJsonObject quote = byName[u"quo\"te\\back.txt"_s];
    QCOMPARE(quote[u"path"_s].toString(), path(u"hostile/quo\"te\\back.txt"_s));
    QCOMPARE(quote[u"size"_s].toInt(), 5);
    QCOMPARE(quote[u"extension"_s].toString(), u".txt"_s);
    QCOMPARE(quote[u"permissions"_s].toString(), u"644"_s);
    QCOMPARE(byName[u"setuid"_s][u"permissions"_s].toString(), u"4755"_s);
    QCOMPARE(byName[u"tab\there"_s][u"modified_time"_s].toString(), u"2021-03-04T05:06:07.089Z"_s);
    QCOMPARE(byName[u"link-dir"_s][u"is_directory"_s], QJsonValue(true));
    QVERIFY(byName[u"link-dir"_s][u"extension"_s].isNull());
    QCOMPARE(byName[u"dangling"_s][u"is_directory"_s], QJsonValue(false));
    QCOMPARE(byName[u"sub"_s][u"is_directory"_s], QJsonValue(true));
    // Names sort by their bytes, as before: "bad" < "ctl" < ... < "tab" < "\xc3".
    QCOMPARE(names(result).constFirst(), u"bad\ufffd.bin"_s);
    QCOMPARE(names(result).constLast(), u"\u00e9-\u00fc.txt"_s);
}

void TestServerFiles::listErrorShapes() {
    QJsonObject data = expectFileError(
        post(u"/v1/file/list"_s, {{u"path"_s, path(u"no-such-folder"_s)}}), u"not_found"_s);
    QVERIFY(!data.isEmpty());
    QCOMPARE(data[u"path"_s].toString(), path(u"no-such-folder"_s));
    QCOMPARE(data[u"operation"_s].toString(), u"list"_s);
    QCOMPARE(data[u"errno"_s].toInt(), 2);
    QCOMPARE(data[u"errno_name"_s].toString(), u"ENOENT"_s);
    QCOMPARE(data[u"exception_type"_s].toString(), u"FileNotFoundError"_s);
    QCOMPARE(data[u"retryable"_s], QJsonValue(false));
    makeFile(u"plain.txt"_s, "x");
    data = expectFileError(post(u"/v1/file/list"_s, {{u"path"_s, path(u"plain.txt"_s)}}),
                           u"invalid_target"_s);
    QVERIFY(!data.isEmpty());
    QCOMPARE(data[u"errno_name"_s].toString(), u"ENOTDIR"_s);
    QCOMPARE(data[u"exception_type"_s].toString(), u"NotADirectoryError"_s);
}

// A folder listed by name (the default) is answered as it is read: chunked, its first rows sent
// while the last ones are still being stat'ed, and the same answer as a whole one.
void TestServerFiles::listLargeFolderAsItIsRead() {
    // About 2.3 MB of JSON, 18 pieces: the connection takes what was written each time it
    // wakes, so with 3 000 files (5 pieces) a busy machine once sent all of it as one chunk.
    constexpr int kFiles = 12000;
    makeLargeFolder(u"large"_s, kFiles);
    const QString folder = path(u"large"_s);
    const Chunked streamed =
        decodeChunked(rawExchange(m_server.port(), listRequest(folder, {}), false));
    QVERIFY2(streamed.head.startsWith("HTTP/1.1 200"), streamed.head.constData());
    QVERIFY2(streamed.head.toLower().contains("transfer-encoding: chunked"),
             streamed.head.constData());
    QVERIFY2(streamed.chunks > 1, qPrintable(u"%1 chunks"_s.arg(streamed.chunks)));
    const QJsonObject envelope = QJsonDocument::fromJson(streamed.body).object();
    QCOMPARE(envelope[u"success"_s], QJsonValue(true));
    const QJsonObject data = envelope[u"data"_s].toObject();
    const int total = kFiles + 4; // the two folders, the link, the hidden file
    QCOMPARE(data[u"total_count"_s].toInt(), total);
    QCOMPARE(data[u"directory_count"_s].toInt(), 3); // a link to a folder counts as one
    QCOMPARE(data[u"file_count"_s].toInt(), kFiles + 1);
    QCOMPARE(envelope[u"message"_s].toString(), u"Listed %1 entries"_s.arg(total));
    QStringList shown = names(envelope);
    QCOMPARE(shown.size(), total);
    QStringList sorted = shown;
    std::sort(sorted.begin(), sorted.end(),
              [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    QCOMPARE(shown, sorted);
    const QJsonArray files = data[u"files"_s].toArray();
    for (const auto &file : files) {
        const QString name = file[u"name"_s].toString();
        if (name == u"entry-00013.txt"_s) {
            QCOMPARE(file[u"size"_s].toInt(), 13 % 7);
            QCOMPARE(file[u"permissions"_s].toString(), u"644"_s);
            QCOMPARE(file[u"path"_s].toString(), folder + u"/entry-00013.txt"_s);
        }
        if (name == u"link-to-a"_s)
            QCOMPARE(file[u"is_directory"_s], QJsonValue(true));
    }

    // The same entries as the whole answer another order gives (sorted by size, then by name).
    const QJsonObject bySize =
        post(u"/v1/file/list"_s,
             {{u"path"_s, folder}, {u"sort_by"_s, u"size"_s}, {u"include_permissions"_s, true}});
    QStringList whole = names(bySize);
    std::sort(whole.begin(), whole.end(),
              [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    QCOMPARE(whole, shown);

    // An HTTP/1.0 client gets it whole, with its length; filters still apply.
    const QByteArray old = rawExchange(m_server.port(), listRequest(folder, {}, "HTTP/1.0"), false);
    QCOMPARE(rawStatus(old), 200);
    QCOMPARE(QJsonDocument::fromJson(rawBody(old)).object()[u"data"_s][u"files"_s],
             data[u"files"_s]);
    const QJsonObject pyOnly = post(
        u"/v1/file/list"_s,
        {{u"path"_s, folder}, {u"show_hidden"_s, false}, {u"file_types"_s, QJsonArray({u"py"_s})}});
    QCOMPARE(pyOnly[u"data"_s][u"total_count"_s].toInt(), (kFiles + 2) / 3 + 3);
}

// A client that goes away while its listing is still being read costs the server nothing
// lasting: it goes on answering, the next listing whole.
void TestServerFiles::listReaderGoneMidway() {
    makeLargeFolder(u"gone"_s, 3000);
    for (int round = 0; round < 3; ++round) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_server.port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(listRequest(path(u"gone"_s), {}));
        QVERIFY(socket.waitForReadyRead(10000)); // the head and the first rows
        socket.abort();
    }
    const QJsonObject result = post(u"/v1/file/list"_s, {{u"path"_s, path(u"gone"_s)}});
    QCOMPARE(result[u"data"_s][u"total_count"_s].toInt(), 3004);
}

void TestServerFiles::readLineRanges() {
    makeFile(u"lines.txt"_s, "zero\none\ntwo\nthree\nfour");
    QJsonObject result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"lines.txt"_s)}});
    QCOMPARE(result[u"success"_s], QJsonValue(true));
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"zero\none\ntwo\nthree\nfour"_s);
    QCOMPARE(result[u"data"_s][u"file"_s].toString(), path(u"lines.txt"_s));
    QCOMPARE(result[u"data"_s][u"line_count"_s].toInt(), 5);
    result = post(u"/v1/file/read"_s,
                  {{u"file"_s, path(u"lines.txt"_s)}, {u"start_line"_s, 1}, {u"end_line"_s, 3}});
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"one\ntwo\n"_s);
    QCOMPARE(result[u"data"_s][u"line_count"_s].toInt(), 2);
    result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"lines.txt"_s)}, {u"start_line"_s, 3}});
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"three\nfour"_s);
    result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"lines.txt"_s)}, {u"end_line"_s, 1}});
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"zero\n"_s);
    // Python slice semantics: negative counts from the end, out of range is empty.
    result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"lines.txt"_s)}, {u"start_line"_s, -2}});
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"three\nfour"_s);
    result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"lines.txt"_s)}, {u"start_line"_s, 40}});
    QCOMPARE(result[u"success"_s], QJsonValue(true));
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), QString());
    makeFile(u"unicode.txt"_s, "h\xc3\xa9llo \xe2\x9c\x93\n");
    result = post(u"/v1/file/read"_s, {{u"file"_s, path(u"unicode.txt"_s)}});
    QCOMPARE(result[u"data"_s][u"content"_s].toString(), u"h\u00e9llo \u2713\n"_s);
}

void TestServerFiles::readErrorShapes() {
    QJsonObject data = expectFileError(
        post(u"/v1/file/read"_s, {{u"file"_s, path(u"missing.txt"_s)}}), u"not_found"_s);
    QCOMPARE(data[u"operation"_s].toString(), u"read"_s);
    QCOMPARE(data[u"errno_name"_s].toString(), u"ENOENT"_s);
    data = expectFileError(post(u"/v1/file/read"_s, {{u"file"_s, m_root}}), u"invalid_target"_s);
    QCOMPARE(data[u"errno_name"_s].toString(), u"EISDIR"_s);
    QCOMPARE(data[u"exception_type"_s].toString(), u"IsADirectoryError"_s);
    makeFile(u"binary.bin"_s, QByteArray("\xff\xfe\x00\x01", 4));
    data = expectFileError(post(u"/v1/file/read"_s, {{u"file"_s, path(u"binary.bin"_s)}}),
                           u"decode_error"_s);
    QCOMPARE(data[u"exception_type"_s].toString(), u"UnicodeDecodeError"_s);
}

void TestServerFiles::writeUtf8Base64AndAppend() {
    QJsonObject result =
        post(u"/v1/file/write"_s, {{u"file"_s, path(u"w.txt"_s)}, {u"content"_s, u"caf\u00e9"_s}});
    QCOMPARE(result[u"success"_s], QJsonValue(true));
    QCOMPARE(result[u"data"_s][u"file"_s].toString(), path(u"w.txt"_s));
    QCOMPARE(result[u"data"_s][u"bytes_written"_s].toInt(), 5);
    QCOMPARE(contents(path(u"w.txt"_s)), QByteArray("caf\xc3\xa9"));
    result = post(u"/v1/file/write"_s, {{u"file"_s, path(u"w.txt"_s)},
                                        {u"content"_s, u"more"_s},
                                        {u"append"_s, true},
                                        {u"leading_newline"_s, true},
                                        {u"trailing_newline"_s, true}});
    QCOMPARE(result[u"data"_s][u"bytes_written"_s].toInt(), 6);
    QCOMPARE(contents(path(u"w.txt"_s)), QByteArray("caf\xc3\xa9\nmore\n"));
    const QByteArray binary("\x00\x01\xff\x80zz\n", 7);
    result = post(u"/v1/file/write"_s, {{u"file"_s, path(u"w.bin"_s)},
                                        {u"content"_s, QString::fromLatin1(binary.toBase64())},
                                        {u"encoding"_s, u"base64"_s}});
    QCOMPARE(result[u"data"_s][u"bytes_written"_s].toInt(), 7);
    QCOMPARE(contents(path(u"w.bin"_s)), binary);
    // Overwrite replaces the whole file and leaves no temporary sibling behind.
    result = post(u"/v1/file/write"_s, {{u"file"_s, path(u"w.txt"_s)}, {u"content"_s, u"x"_s}});
    QCOMPARE(contents(path(u"w.txt"_s)), QByteArray("x"));
    const QStringList leftovers =
        QDir(m_root).entryList({u".*sbx-*"_s}, QDir::Files | QDir::Hidden);
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(u", "_s)));
    const QJsonObject data =
        expectFileError(post(u"/v1/file/write"_s, {{u"file"_s, path(u"w.bin"_s)},
                                                   {u"content"_s, u"!!not base64!!"_s},
                                                   {u"encoding"_s, u"base64"_s}}),
                        u"decode_error"_s);
    QVERIFY(!data.isEmpty());
    QCOMPARE(contents(path(u"w.bin"_s)), binary);
}

void TestServerFiles::writeHostileNames() {
    const QStringList hostile = {u"with space.txt"_s, u"\u00fcnic\u00f8de \u2603.txt"_s,
                                 u"quote'\"s.txt"_s,  u"new\nline.txt"_s,
                                 u"-leading-dash"_s,  u"$(touch pwned)`x`.txt"_s};
    for (const QString &name : hostile) {
        const QJsonObject result =
            post(u"/v1/file/write"_s, {{u"file"_s, path(name)}, {u"content"_s, name}});
        QVERIFY2(result[u"success"_s] == QJsonValue(true), qPrintable(name));
        QCOMPARE(QString::fromUtf8(contents(path(name))), name);
        const QJsonObject read = post(u"/v1/file/read"_s, {{u"file"_s, path(name)}});
        QCOMPARE(read[u"data"_s][u"content"_s].toString(), name);
    }
    QVERIFY(!QFile::exists(path(u"pwned"_s)));
    QVERIFY(!QFile::exists(m_server.workspace() + u"/pwned"_s));
}

void TestServerFiles::writeErrorShapes() {
    QJsonObject data =
        expectFileError(post(u"/v1/file/write"_s,
                             {{u"file"_s, path(u"no/such/dir/f.txt"_s)}, {u"content"_s, u"x"_s}}),
                        u"not_found"_s);
    QCOMPARE(data[u"operation"_s].toString(), u"write"_s);
    QCOMPARE(data[u"path"_s].toString(), path(u"no/such/dir/f.txt"_s));
    data = expectFileError(post(u"/v1/file/write"_s, {{u"file"_s, m_root}, {u"content"_s, u"x"_s}}),
                           u"invalid_target"_s);
    QCOMPARE(data[u"errno_name"_s].toString(), u"EISDIR"_s);
    makeFile(u"a-file"_s, "f");
    data = expectFileError(
        post(u"/v1/file/write"_s, {{u"file"_s, path(u"a-file/child"_s)}, {u"content"_s, u"x"_s}}),
        u"invalid_target"_s);
    QCOMPARE(data[u"errno_name"_s].toString(), u"ENOTDIR"_s);
}

void TestServerFiles::permissionDeniedAndSudo() {
    QString denied;
    if (geteuid() != 0) {
        makeFile(u"locked.txt"_s, "secret");
        QVERIFY(QFile::setPermissions(path(u"locked.txt"_s), QFileDevice::Permissions()));
        denied = path(u"locked.txt"_s);
    } else if (::access("/proc/sys/vm/compact_memory", F_OK) == 0) {
        // Root passes file modes, but /proc/sys checks its own: this file is write-only.
        denied = u"/proc/sys/vm/compact_memory"_s;
    } else {
        QSKIP("running as root and /proc/sys/vm/compact_memory is absent: no file refuses root");
    }
    QJsonObject data =
        expectFileError(post(u"/v1/file/read"_s, {{u"file"_s, denied}}), u"permission_denied"_s);
    QVERIFY(!data.isEmpty());
    QCOMPARE(data[u"errno_name"_s].toString(), u"EACCES"_s);
    QCOMPARE(data[u"errno"_s].toInt(), 13);
    QCOMPARE(data[u"exception_type"_s].toString(), u"PermissionError"_s);
    QVERIFY(!data[u"message"_s].toString().contains(u"cannot elevate"_s));
    const QJsonObject envelope = post(u"/v1/file/read"_s, {{u"file"_s, denied}, {u"sudo"_s, true}});
    data = expectFileError(envelope, u"permission_denied"_s);
    QVERIFY(!data.isEmpty());
    const QString message = envelope[u"message"_s].toString();
    QVERIFY2(message.contains(u"this sandbox cannot elevate: sandbox-server runs as"_s),
             qPrintable(message));
    QCOMPARE(data[u"message"_s].toString(), message);
}

void TestServerFiles::relativePathsUseTheWorkspace() {
    QJsonObject result = post(u"/v1/file/write"_s,
                              {{u"file"_s, u"files-suite/relative.txt"_s}, {u"content"_s, u"r"_s}});
    QCOMPARE(result[u"data"_s][u"file"_s].toString(), path(u"relative.txt"_s));
    QCOMPARE(contents(path(u"relative.txt"_s)), QByteArray("r"));
    const QJsonObject data =
        expectFileError(post(u"/v1/file/read"_s, {{u"file"_s, QString()}}), u"invalid_path"_s);
    QVERIFY(!data.isEmpty());
}

void TestServerFiles::validationErrorsAreFastApiShaped() {
    QJsonObject result = post(u"/v1/file/read"_s, {{u"start_line"_s, 1}}, 422);
    QJsonArray detail = result[u"detail"_s].toArray();
    QCOMPARE(detail.size(), 1);
    QCOMPARE(detail[0][u"loc"_s].toArray(), QJsonArray({u"body"_s, u"file"_s}));
    QCOMPARE(detail[0][u"type"_s].toString(), u"missing"_s);
    result = post(u"/v1/file/list"_s, {{u"path"_s, m_root}, {u"sort_by"_s, u"colour"_s}}, 422);
    QCOMPARE(result[u"detail"_s][0][u"loc"_s].toArray(), QJsonArray({u"body"_s, u"sort_by"_s}));
    result =
        post(u"/v1/file/write"_s,
             {{u"file"_s, path(u"v.txt"_s)}, {u"content"_s, 5}, {u"encoding"_s, u"utf-16"_s}}, 422);
    QCOMPARE(result[u"detail"_s].toArray().size(), 2);
}

QTEST_GUILESS_MAIN(TestServerFiles)
#include "tst_server_files.moc"
