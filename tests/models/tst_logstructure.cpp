// What the log view reads off a line's structure: JSON objects pretty-printed (alone or after a
// container's timestamp), and "go to time" by bisection over a log whose lines carry times,
// some lines without one.
#include "models/logs/logdata.h"
#include "models/logs/logstructure.h"

#include <QDateTime>
#include <QTimeZone>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

class TestLogStructure final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void prettyJson_data();
    void prettyJson();
    void goToTime();
};

void TestLogStructure::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

void TestLogStructure::prettyJson_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("pretty");
    QTest::newRow("object") << QByteArray(R"({"b":1,"a":"x"})")
                            << u"{\n  \"b\": 1,\n  \"a\": \"x\"\n}"_s; // key order kept
    QTest::newRow("after a container timestamp")
        << QByteArray(R"(2026-12-01T10:00:00.123456789Z {"level":"info"})")
        << u"{\n  \"level\": \"info\"\n}"_s;
    QTest::newRow("trailing CR") << QByteArray("{\"a\":[1,2]}\r")
                                 << u"{\n  \"a\": [\n    1,\n    2\n  ]\n}"_s;
    QTest::newRow("not json") << QByteArray("plain text line") << QString();
    QTest::newRow("broken json") << QByteArray(R"({"a":)") << QString();
    QTest::newRow("array is not an object") << QByteArray("[1,2]") << QString();
    QTest::newRow("braces in prose") << QByteArray("set {x} to {y}") << QString();
}

void TestLogStructure::prettyJson() {
    QFETCH(QByteArray, line);
    QFETCH(QString, pretty);
    QCOMPARE(prettyJsonLine(line), pretty);
}

void TestLogStructure::goToTime() {
    // One line a second from 10:00:00 UTC; every 7th line has no time, every 11th is JSON.
    LogData data;
    QVERIFY(data.openSpool());
    const QDateTime start(QDate(2026, 12, 1), QTime(10, 0), QTimeZone::utc());
    QByteArray log;
    for (int i = 0; i < 5000; ++i) {
        const QByteArray stamp = start.addSecs(i).toString(Qt::ISODate).toUtf8();
        if (i % 7 == 3)
            log += "  continuation of the line before\n";
        else if (i % 11 == 0)
            log += "{\"ts\":\"" + stamp + "\",\"msg\":\"json " + QByteArray::number(i) + "\"}\n";
        else
            log += stamp + " INFO line " + QByteArray::number(i) + '\n';
    }
    data.append(log);
    const LogTimeContext context{2026, 0};
    const qint64 at = start.addSecs(1234).toMSecsSinceEpoch();
    QCOMPARE(firstLineAtOrAfter(data, at, context), 1234);
    // A line without a time (1235 is one): the next line with a time, at or after.
    QCOMPARE(
        firstLineAtOrAfter(data, start.addMSecs(1235 * 1000 - 500).toMSecsSinceEpoch(), context),
        1235);
    QCOMPARE(firstLineAtOrAfter(data, start.toMSecsSinceEpoch() - 1, context), 0);
    QCOMPARE(firstLineAtOrAfter(data, start.addSecs(6000).toMSecsSinceEpoch(), context), 5000);
    QCOMPARE(lineTime(data, 22, context), start.addSecs(22).toMSecsSinceEpoch()); // a JSON line
    QVERIFY(!lineTime(data, 3, context));
}

QTEST_GUILESS_MAIN(TestLogStructure)
#include "tst_logstructure.moc"
