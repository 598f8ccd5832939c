// LogData against generated logs: ranges served from the spool and from a file indexed on a
// worker, a growing last line, long lines cut for display and whole on request, CRLF and empty
// lines, the index's size per line, and a followed file that grows, is truncated and replaced.
#include "models/logs/logdata.h"
#include "tests/support/localfiles.h"

#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// Lines of varied length (some empty, some with CR or escapes), joined with '\n'.
QList<QByteArray> generatedLines(int count, quint32 seed) {
    std::mt19937 rng(seed);
    QList<QByteArray> lines;
    for (int i = 0; i < count; ++i) {
        const int length = int(rng() % 7 == 0 ? 0 : rng() % 200);
        QByteArray line = "line " + QByteArray::number(i) + ' ';
        while (line.size() < length)
            line += char('a' + rng() % 26);
        if (rng() % 10 == 0)
            line += "\x1b[31mred\x1b[0m";
        if (rng() % 13 == 0)
            line += '\r';
        lines << line;
    }
    return lines;
}

QByteArray joined(const QList<QByteArray> &lines, bool endOpen) {
    QByteArray all = lines.join('\n');
    return endOpen ? all : all + '\n';
}

bool writeBytes(const QString &path, const QByteArray &bytes, QIODevice::OpenMode mode) {
    QFile f(path);
    return f.open(mode) && f.write(bytes) == bytes.size();
}

// Compares count lines from first with the reference.
bool sameLines(const LogData &data, const QList<QByteArray> &expected, qint64 first, qint64 count) {
    const QList<QByteArray> got = data.lines(first, count);
    if (got != expected.mid(first, count)) {
        qWarning() << "lines" << first << count << "differ";
        return false;
    }
    return true;
}

} // namespace

class TestLogData final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase();
    void spoolServesAnyRange();
    void lastLineGrowsUntilItsEnd();
    void longLineIsCutForDisplayAndWholeOnRequest();
    void emptyLinesAndCrlf();
    void fileIsIndexedOnAWorker();
    void indexIsSmallPerLine();
    void followedFileGrowsIsTruncatedAndReplaced();
    void restartDropsEverything();
    void missingFileSaysWhy();
};

void TestLogData::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestLogData::spoolServesAnyRange() {
    const QList<QByteArray> lines = generatedLines(5000, 1);
    const QByteArray bytes = joined(lines, false);
    LogData data;
    QVERIFY2(data.openSpool(), qPrintable(data.errorText()));
    QSignalSpy grew(&data, &LogData::grew);
    // Pieces of random size, cutting lines anywhere, as a stream delivers them.
    std::mt19937 rng(2);
    for (qsizetype at = 0; at < bytes.size();) {
        const qsizetype n = std::min<qsizetype>(bytes.size() - at, 1 + rng() % 3000);
        data.append(QByteArrayView(bytes).sliced(at, n));
        at += n;
    }
    QCOMPARE(data.lineCount(), lines.size());
    QCOMPARE(data.byteSize(), bytes.size());
    QVERIFY(!grew.isEmpty());
    QCOMPARE(grew.last().at(1).toLongLong(), lines.size());
    QVERIFY(sameLines(data, lines, 0, lines.size()));
    for (int i = 0; i < 200; ++i) {
        const qint64 first = rng() % lines.size();
        QVERIFY(sameLines(data, lines, first, rng() % 300));
    }
    // Past the end: what exists, nothing more.
    QCOMPARE(data.lines(lines.size() - 2, 10).size(), 2);
    QVERIFY(data.lines(lines.size(), 5).isEmpty());
    // lineAt maps any byte to its line.
    qint64 offset = 0;
    for (int i = 0; i < lines.size(); i += 97) {
        offset = data.lineStart(i);
        QCOMPARE(data.lineAt(offset), i);
        QCOMPARE(data.lineAt(offset + lines[i].size()), i); // its '\n'
    }
}

void TestLogData::lastLineGrowsUntilItsEnd() {
    LogData data;
    QVERIFY(data.openSpool());
    QSignalSpy grew(&data, &LogData::grew);
    data.append("first\nprogress 1");
    QCOMPARE(data.lineCount(), 2);
    QCOMPARE(data.line(1), QByteArray("progress 1"));
    data.append("0%");
    QCOMPARE(data.lineCount(), 2);
    QCOMPARE(data.line(1), QByteArray("progress 10%"));
    // The line that changed is named, so a view repaints it.
    QCOMPARE(grew.last().at(0).toLongLong(), 1);
    data.append(" done\nnext");
    QCOMPARE(data.lineCount(), 3);
    QCOMPARE(data.lines(0, 3), (QList<QByteArray>{"first", "progress 10% done", "next"}));
}

void TestLogData::longLineIsCutForDisplayAndWholeOnRequest() {
    QByteArray huge(50 * 1024 * 1024, 'x');
    huge[huge.size() - 1] = 'E';
    LogData data;
    QVERIFY(data.openSpool());
    data.append("before\n");
    data.append(huge);
    data.append("\nafter\n");
    QCOMPARE(data.lineCount(), 3);
    QCOMPARE(data.line(1).size(), LogData::kMaxLineBytes);
    QCOMPARE(data.lineLength(1), huge.size());
    QCOMPARE(data.line(1, data.lineLength(1)), huge);
    QCOMPARE(data.line(2), QByteArray("after"));
}

void TestLogData::emptyLinesAndCrlf() {
    LogData data;
    QVERIFY(data.openSpool());
    data.append("\n\na\r\nb\r\n\n");
    // The '\r' of CRLF stays in the bytes; decoding hides it.
    QCOMPARE(data.lines(0, 10), (QList<QByteArray>{"", "", "a\r", "b\r", ""}));
}

void TestLogData::fileIsIndexedOnAWorker() {
    const QList<QByteArray> lines = generatedLines(200000, 3);
    const QString path = m_dir.filePath(u"big.log"_s);
    QVERIFY(writeBytes(path, joined(lines, true), QIODevice::WriteOnly));
    LogData data;
    QSignalSpy progress(&data, &LogData::indexProgress);
    QSignalSpy indexed(&data, &LogData::indexed);
    QVERIFY2(data.openFile(path), qPrintable(data.errorText()));
    QVERIFY(indexed.wait(20000));
    QVERIFY(!data.isIndexing());
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0), progress.last().at(1)); // done == total at the end
    QCOMPARE(data.lineCount(), lines.size());               // the last line has no '\n' and counts
    QCOMPARE(data.byteSize(), QFileInfo(path).size());
    std::mt19937 rng(4);
    for (int i = 0; i < 300; ++i)
        QVERIFY(sameLines(data, lines, rng() % lines.size(), rng() % 200));
    QVERIFY(sameLines(data, lines, lines.size() - 50, 50));
}

void TestLogData::indexIsSmallPerLine() {
    // 1 000 000 lines of about 100 bytes: the index holds a few bytes a line, not 8 or 16.
    QByteArray chunk;
    for (int i = 0; i < 1000; ++i)
        chunk += QByteArray(90 + i % 20, 'a') + '\n';
    LogData data;
    QVERIFY(data.openSpool());
    for (int i = 0; i < 1000; ++i)
        data.append(chunk);
    QCOMPARE(data.lineCount(), 1000000);
    const double perLine = double(data.indexMemoryBytes()) / double(data.lineCount());
    qInfo("index: %.2f bytes per line", perLine);
    QVERIFY2(perLine < 4.0, qPrintable(QString::number(perLine)));
}

void TestLogData::followedFileGrowsIsTruncatedAndReplaced() {
    const QString path = m_dir.filePath(u"followed.log"_s);
    QVERIFY(writeBytes(path, "one\ntwo\n", QIODevice::WriteOnly));
    LogData data;
    QSignalSpy indexed(&data, &LogData::indexed);
    QSignalSpy reset(&data, &LogData::reset);
    QVERIFY(data.openFile(path, /*follow=*/true));
    QVERIFY(indexed.wait(10000));
    QCOMPARE(data.lineCount(), 2);

    QVERIFY(writeBytes(path, "three\nfo", QIODevice::Append));
    QTRY_COMPARE_WITH_TIMEOUT(data.lineCount(), 4, 10000);
    QCOMPARE(data.line(3), QByteArray("fo"));
    QVERIFY(writeBytes(path, "ur\n", QIODevice::Append));
    QTRY_COMPARE_WITH_TIMEOUT(data.line(3), QByteArray("four"), 10000);

    // Truncated (a log rotated by copy-truncate): said, and read again from the start.
    QVERIFY(writeBytes(path, "fresh\n", QIODevice::WriteOnly | QIODevice::Truncate));
    QTRY_VERIFY_WITH_TIMEOUT(!reset.isEmpty(), 10000);
    QVERIFY2(reset.last().first().toString().contains(u"truncated"_s),
             qPrintable(reset.last().first().toString()));
    QTRY_COMPARE_WITH_TIMEOUT(data.lines(0, 10), QList<QByteArray>{"fresh"}, 10000);

    // Replaced (rotated by rename): the new file, never spliced onto the old one.
    const QString next = m_dir.filePath(u"followed.new"_s);
    QVERIFY(writeBytes(next, "new file line\n", QIODevice::WriteOnly));
    QVERIFY(::rename(QFile::encodeName(next).constData(), QFile::encodeName(path).constData()) ==
            0);
    QTRY_COMPARE_WITH_TIMEOUT(reset.size(), 2, 10000);
    QVERIFY2(reset.last().first().toString().contains(u"replaced"_s),
             qPrintable(reset.last().first().toString()));
    QTRY_COMPARE_WITH_TIMEOUT(data.lines(0, 10), QList<QByteArray>{"new file line"}, 10000);
}

void TestLogData::restartDropsEverything() {
    LogData data;
    QVERIFY(data.openSpool());
    data.append("a\nb\n");
    QSignalSpy reset(&data, &LogData::reset);
    data.restart(u"reconnected"_s);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(data.lineCount(), 0);
    data.append("c\n");
    QCOMPARE(data.lines(0, 5), QList<QByteArray>{"c"});
}

void TestLogData::missingFileSaysWhy() {
    LogData data;
    QVERIFY(!data.openFile(m_dir.filePath(u"nope.log"_s)));
    QVERIFY2(data.errorText().contains(u"nope.log"_s), qPrintable(data.errorText()));
}

QTEST_GUILESS_MAIN(TestLogData)
#include "tst_logdata.moc"
