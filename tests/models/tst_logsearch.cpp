// LogSearch over whole logs against a reference scan of every line's text: plain and regex,
// case, invert, escapes and carriage returns that hide or split a match, a log that grows while
// it is searched, a reset, a long line, and a pattern that does not compile.
#include "models/logs/logdata.h"
#include "models/logs/logsearch.h"
#include "models/logs/logtext.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <random>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QList<QByteArray> mixedLines(int count, quint32 seed) {
    std::mt19937 rng(seed);
    static const char *const pieces[] = {"INFO ok ",       "ERROR boom ",  "needle ",
                                         "NeEdLe ",        "\x1b[31mnee",  "\x1b[0mdle ",
                                         "progress 10%\r", "needle-7f3a ", "héllo wörld ",
                                         "\xff\xfe bad ",  "{\"a\":1} ",   "x"};
    QList<QByteArray> lines;
    for (int i = 0; i < count; ++i) {
        QByteArray line;
        const int parts = int(rng() % 5);
        for (int p = 0; p < parts; ++p)
            line += pieces[rng() % std::size(pieces)];
        lines << line;
    }
    return lines;
}

// The lines whose text matches, the slow and obvious way.
QList<qint64> reference(const QList<QByteArray> &lines, const LogQuery &q) {
    QRegularExpression re(q.regex ? q.pattern : QRegularExpression::escape(q.pattern),
                          q.caseSensitive ? QRegularExpression::NoPatternOption
                                          : QRegularExpression::CaseInsensitiveOption);
    QList<qint64> out;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const bool hit = re.match(QString::fromUtf8(plainLogBytes(lines[i]))).hasMatch();
        if (hit != q.invert)
            out << i;
    }
    return out;
}

QList<qint64> found(const LogSearch &search) {
    QList<qint64> out;
    for (qint64 k = 0; k < search.matches().count(); ++k)
        out << search.matches().at(k);
    return out;
}

bool runToEnd(LogSearch &search, const LogQuery &query) {
    QSignalSpy finished(&search, &LogSearch::finished);
    if (!search.start(query))
        return false;
    return !finished.isEmpty() || finished.wait(20000);
}

LogQuery query(const QString &pattern, bool regex = false, bool caseSensitive = false,
               bool invert = false) {
    return {.pattern = pattern, .regex = regex, .caseSensitive = caseSensitive, .invert = invert};
}

} // namespace

class TestLogSearch final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void matchesTheReference_data();
    void matchesTheReference();
    void keepsUpWhileTheLogGrows();
    void startsAgainAfterAReset();
    void findsInALongLine();
    void badRegexSaysWhy();
    void cancelStopsAndStaysStopped();
    void lineSetNavigates();
};

void TestLogSearch::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

void TestLogSearch::matchesTheReference_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<bool>("caseSensitive");
    QTest::addColumn<bool>("invert");
    QTest::newRow("plain, any case") << u"needle"_s << false << false << false;
    QTest::newRow("plain, exact case") << u"needle"_s << false << true << false;
    QTest::newRow("plain, invert") << u"needle"_s << false << false << true;
    QTest::newRow("plain, non-ascii") << u"wörld"_s << false << true << false;
    QTest::newRow("plain, regex characters") << u"{\"a\":1}"_s << false << true << false;
    QTest::newRow("regex") << u"needle-[0-9a-f]{4}\\b"_s << true << true << false;
    QTest::newRow("regex anchored") << u"^ERROR"_s << true << true << false;
    QTest::newRow("regex end") << u"x$"_s << true << true << false;
    QTest::newRow("regex any case") << u"err(or)? b"_s << true << false << false;
    QTest::newRow("regex invert") << u"^$"_s << true << true << true;
    QTest::newRow("hidden by an escape") << u"needle "_s << false << true << false;
    QTest::newRow("after a carriage return") << u"progress 10%"_s << false << true << false;
}

void TestLogSearch::matchesTheReference() {
    QFETCH(QString, pattern);
    QFETCH(bool, regex);
    QFETCH(bool, caseSensitive);
    QFETCH(bool, invert);
    const QList<QByteArray> lines = mixedLines(60000, 7);
    LogData data;
    QVERIFY(data.openSpool());
    data.append(QByteArray(lines.join('\n') + '\n'));
    LogSearch search(&data);
    const LogQuery q = query(pattern, regex, caseSensitive, invert);
    QVERIFY2(runToEnd(search, q), qPrintable(search.errorText()));
    const QList<qint64> expected = reference(lines, q);
    QVERIFY(!expected.isEmpty());
    QCOMPARE(search.matches().count(), expected.size());
    QCOMPARE(found(search), expected);
    QCOMPARE(search.scannedLines(), lines.size());
}

void TestLogSearch::keepsUpWhileTheLogGrows() {
    LogData data;
    QVERIFY(data.openSpool());
    const QList<QByteArray> lines = mixedLines(100000, 8);
    data.append(QByteArray(lines.mid(0, 50000).join('\n') + '\n'));
    LogSearch search(&data);
    const LogQuery q = query(u"needle"_s);
    QVERIFY(search.start(q));
    // Appended while the worker runs, a piece ending mid-line, then the rest of that line.
    data.append(lines.mid(50000).join('\n'));
    data.append("\nlast needle\n");
    QList<QByteArray> all = lines;
    all << "last needle";
    const QList<qint64> expected = reference(all, q);
    QTRY_COMPARE_WITH_TIMEOUT(search.scannedLines(), all.size(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!search.isRunning(), 20000);
    QCOMPARE(found(search), expected);
}

void TestLogSearch::startsAgainAfterAReset() {
    LogData data;
    QVERIFY(data.openSpool());
    data.append("needle one\nnone\nneedle two\n");
    LogSearch search(&data);
    QVERIFY(runToEnd(search, query(u"needle"_s)));
    QCOMPARE(search.matches().count(), 2);
    data.restart(u"reconnected"_s);
    QCOMPARE(search.matches().count(), 0);
    data.append("x\nneedle three\n");
    QTRY_COMPARE_WITH_TIMEOUT(found(search), QList<qint64>{1}, 10000);
}

void TestLogSearch::findsInALongLine() {
    LogData data;
    QVERIFY(data.openSpool());
    QByteArray huge(20 * 1024 * 1024, 'y');
    huge.replace(huge.size() - 20, 6, "needle");
    data.append(QByteArray("a\n" + huge + "\nb needle\n"));
    LogSearch search(&data);
    QVERIFY(runToEnd(search, query(u"needle"_s)));
    QCOMPARE(found(search), (QList<qint64>{1, 2}));
}

void TestLogSearch::badRegexSaysWhy() {
    LogData data;
    QVERIFY(data.openSpool());
    LogSearch search(&data);
    QVERIFY(!search.start(query(u"needle("_s, true)));
    QVERIFY2(search.errorText().contains(u"character"_s), qPrintable(search.errorText()));
    QVERIFY(!search.isActive());
}

void TestLogSearch::cancelStopsAndStaysStopped() {
    LogData data;
    QVERIFY(data.openSpool());
    const QList<QByteArray> lines = mixedLines(200000, 9);
    data.append(QByteArray(lines.join('\n') + '\n'));
    LogSearch search(&data);
    QVERIFY(search.start(query(u"needle"_s)));
    search.cancel();
    QVERIFY(!search.isRunning());
    QVERIFY(search.isStopped());
    const qint64 scanned = search.scannedLines();
    QVERIFY(scanned < lines.size());
    // More lines do not resume it; a new start does.
    data.append("needle late\n");
    QCoreApplication::processEvents();
    QVERIFY(!search.isRunning());
    QCOMPARE(search.scannedLines(), scanned);
    QVERIFY(runToEnd(search, query(u"needle"_s)));
    QCOMPARE(search.scannedLines(), lines.size() + 1);
}

void TestLogSearch::lineSetNavigates() {
    LineSet set;
    for (const qint64 line : {2, 3, 4, 10, 11, 20})
        set.append(line);
    QCOMPARE(set.count(), 6);
    QCOMPARE(set.at(0), 2);
    QCOMPARE(set.at(3), 10);
    QCOMPARE(set.at(5), 20);
    QCOMPARE(set.lowerBound(5), 3);
    QCOMPARE(set.next(4), 10);
    QCOMPARE(set.next(20), -1);
    QCOMPARE(set.previous(10), 4);
    QCOMPARE(set.previous(2), -1);
    QVERIFY(set.contains(11));
    QVERIFY(!set.contains(12));
    set.truncate(11);
    QCOMPARE(set.count(), 4);
    QCOMPARE(set.at(3), 10);
    set.truncate(3);
    QCOMPARE(set.count(), 1);
}

QTEST_GUILESS_MAIN(TestLogSearch)
#include "tst_logsearch.moc"
