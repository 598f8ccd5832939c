// A log viewer's level filter and time column read what a person sees in each line: the
// line's own level and time in the common log formats, nothing from prose, paths or invalid
// dates. Expected times are computed here with QDateTime, independently of the parser.
#include "models/logs/logclassify.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

#include <array>

using namespace sbx;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(sbx::LogLevel)

namespace sbx {

// QCOMPARE prints levels by name; it finds this overload by ADL, so it lives in sbx.
char *toString(LogLevel level) {
    constexpr std::array kNames = {"None", "Trace", "Debug", "Info", "Warning", "Error"};
    return qstrdup(kNames[size_t(level)]);
}

} // namespace sbx

namespace sbxtest {

constexpr int kHour = 3600;

// Milliseconds since the epoch of a wall-clock time offsetSeconds east of UTC.
qint64 epochMs(QDate date, QTime time, int offsetSeconds = 0) {
    return QDateTime(date, time, QTimeZone(offsetSeconds)).toMSecsSinceEpoch();
}

// The time every "2026-12-01 15:52:14" row means, with ms milliseconds.
qint64 sampleMs(int ms = 0, int offsetSeconds = 0) {
    return epochMs(QDate(2026, 12, 1), QTime(15, 52, 14, ms), offsetSeconds);
}

struct GeneratedLine {
    QByteArray text;
    LogLevel level = LogLevel::None;
};

// Lines in the formats classifyLevel knows, with prose that names no level around them.
class LineGenerator final {
public:
    explicit LineGenerator(quint32 seed)
        : m_random(seed) {}
    GeneratedLine next();

private:
    QByteArray prose(int words);
    int pick(int count) { return int(m_random.bounded(count)); }

    QRandomGenerator m_random;
};

QByteArray LineGenerator::prose(int words) {
    // Every trap classifyLevel must not fall into, beside ordinary words.
    static const std::array<QByteArray, 24> kWords = {
        "no",      "errors",        "were",      "found",   "information",   "/error/page",
        "TERRORS", "INFORMATIONAL", "Error:",    "Warning", "ERROR_COUNT=0", "debugging",
        "warned",  "level",         "is",        "high",    "level: 7",      "low",
        "I/O",     "GET",           "/api/WARN", "ERRORS",  "(errors)",      "severity"};
    QByteArray text;
    for (int i = 0; i < words; ++i) {
        text += kWords[size_t(pick(int(kWords.size())))];
        text += ' ';
    }
    return text;
}

GeneratedLine LineGenerator::next() {
    static const std::array<QByteArray, 6> kUpper = {"", "TRACE", "DEBUG", "INFO", "WARN", "ERROR"};
    static const std::array<QByteArray, 6> kLower = {"",     "trace",   "debug",
                                                     "info", "warning", "fatal"};
    static const std::array<char, 6> kLetter = {0, 'V', 'D', 'I', 'W', 'E'};
    static const std::array<int, 6> kPriority = {0, -1, 15, 14, 12, 11};
    const auto level = LogLevel(pick(6));
    const auto index = size_t(level);
    const QByteArray before = prose(pick(4));
    const QByteArray after = prose(1 + pick(8));
    if (level == LogLevel::None) {
        switch (pick(3)) {
        case 0:
            return {before + after, level};
        case 1:
            return {"2026-12-01 15:52:14,123 " + after, level};
        default:
            return {"{\"msg\":\"" + after + "\",\"ts\":1764604334}", level};
        }
    }
    switch (pick(7)) {
    case 0:
        return {"2026-12-01 15:52:14,123 - app - " + kUpper[index] + " - " + after, level};
    case 1:
        return {before + '[' + kLower[index] + "] " + after, level};
    case 2:
        return {"{\"msg\":\"" + after + "\",\"level\":\"" + kLower[index] + "\"}", level};
    case 3:
        return {before + "level=" + kLower[index] + " msg=\"" + after + '"', level};
    case 4:
        return {"12-01 15:52:14.123  123  456 " + QByteArray(1, kLetter[index]) + " Tag: " + after,
                level};
    case 5:
        return {"{\"level\":" + QByteArray::number(int(index) * 10) + ",\"msg\":\"" + after + "\"}",
                level};
    default:
        if (kPriority[index] < 0) // syslog has no trace
            return {"TRACE " + after, level};
        return {'<' + QByteArray::number(kPriority[index]) + ">Dec  1 15:52:14 host app: " + after,
                level};
    }
}

} // namespace sbxtest

class TestLogClassify final : public QObject {
    Q_OBJECT

private slots:
    void levelForms_data();
    void levelForms();
    void levelScanIsBounded_data();
    void levelScanIsBounded();
    void levelCountsOfGeneratedLines();
    void timeForms_data();
    void timeForms();
};

void TestLogClassify::levelForms_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<LogLevel>("level");
    using L = LogLevel;
    auto row = [](const char *tag, const QByteArray &line, LogLevel level) {
        QTest::newRow(tag) << line << level;
    };

    // Upper-case words.
    row("python dashes", "2026-12-01 15:52:14,123 - app - ERROR - boom", L::Error);
    row("python root", "ERROR:root:boom", L::Error);
    row("env_logger", "[2026-12-01T15:52:14Z WARN  foo] x", L::Warning);
    row("log4j", "2026-12-01 15:52:14,123 [main] INFO  com.example.App - up", L::Info);
    row("monolog", "[2026-12-01 15:52:14] app.WARNING: disk full", L::Warning);
    row("npm", "npm ERR! code E404", L::Error);
    row("quoted", "state \"ERROR\" reached", L::Error);
    row("hyphens", "x-ERROR-y", L::Error);
    row("alone", "ERROR", L::Error);
    row("line end", "boom DEBUG", L::Debug);
    const std::array<std::pair<const char *, LogLevel>, 15> bare = {{
        {"ERROR", L::Error},
        {"ERR", L::Error},
        {"FATAL", L::Error},
        {"CRITICAL", L::Error},
        {"CRIT", L::Error},
        {"PANIC", L::Error},
        {"ALERT", L::Error},
        {"EMERG", L::Error},
        {"SEVERE", L::Error},
        {"WARN", L::Warning},
        {"WARNING", L::Warning},
        {"INFO", L::Info},
        {"NOTICE", L::Info},
        {"DEBUG", L::Debug},
        {"TRACE", L::Trace},
    }};
    for (const auto &[word, level] : bare) {
        const QByteArray line = "12:00:01 " + QByteArray(word) + " something happened";
        QTest::newRow(qPrintable(u"bare "_s + QLatin1String(word))) << line << level;
    }

    // Any case in brackets.
    row("[error]", "[error] x", L::Error);
    row("[Warn]", "[Warn] x", L::Warning);
    row("<info>", "<info> x", L::Info);
    row("(debug)", "(debug) x", L::Debug);
    row("[ INFO ]", "[ INFO ] x", L::Info);
    row("[INFO ] padded", "2026-12-01 [INFO ] x", L::Info);
    row("[trace]", "[trace] x", L::Trace);
    row("(fatal)", "worker (fatal) x", L::Error);
    row("[Information] .NET", "[Information] x", L::Info);
    row("[verbose] Serilog", "[verbose] x", L::Trace);
    row("apache", "[Tue Dec 01 15:52:14.123456 2026] [core:error] [pid 1:tid 2] AH00124: x",
        L::Error);
    row("apache module", "[Tue Dec 01 15:52:14 2026] [proxy_http:warn] [pid 1] x", L::Warning);
    row("nginx", "2026/12/01 15:52:14 [error] 123#0: *1 open() failed", L::Error);

    // Level keys.
    row("level=error", "ts=1 level=error msg=x", L::Error);
    row("lvl=warn", "lvl=warn msg=x", L::Warning);
    row("severity=ERROR", "severity=ERROR x", L::Error);
    row("level=\"info\"", "level=\"info\" msg=x", L::Info);
    row("level='debug'", "level='debug' msg=x", L::Debug);
    row("LEVEL=Warn", "LEVEL=Warn x", L::Warning);
    row("loglevel=trace", "loglevel=trace x", L::Trace);
    row("level: warn", "log level: warn", L::Warning);
    row("json level", "{\"level\":\"error\",\"msg\":\"x\"}", L::Error);
    row("json space", "{\"level\": \"warn\"}", L::Warning);
    row("json spaces", "{\"level\" : \"warning\"}", L::Warning);
    row("json severity", "{\"severity\":\"ERROR\"}", L::Error);
    row("json lvl", "{\"lvl\":\"debug\"}", L::Debug);
    row("json ecs", "{\"log.level\":\"info\"}", L::Info);
    row("json level last", "{\"msg\":\"x\",\"time\":1,\"level\":\"error\"}", L::Error);
    const std::array<std::pair<int, LogLevel>, 6> pino = {{
        {10, L::Trace},
        {20, L::Debug},
        {30, L::Info},
        {40, L::Warning},
        {50, L::Error},
        {60, L::Error},
    }};
    for (const auto &[number, level] : pino) {
        const QByteArray line = "{\"level\":" + QByteArray::number(number) + ",\"msg\":\"x\"}";
        QTest::newRow(qPrintable(u"pino "_s + QString::number(number))) << line << level;
    }

    // glog / klog.
    row("glog E", "E1201 15:52:14.123456    1 main.go:10] boom", L::Error);
    row("glog W", "W1201 15:52:14.123456    1 main.go:10] x", L::Warning);
    row("glog I", "I1201 15:52:14.123456    1 main.go:10] x", L::Info);
    row("glog F", "F1201 15:52:14.123456    1 main.go:10] x", L::Error);

    // syslog priority, N % 8.
    const std::array<std::pair<int, LogLevel>, 10> priorities = {{
        {0, L::Error},
        {3, L::Error},
        {4, L::Warning},
        {5, L::Info},
        {6, L::Info},
        {7, L::Debug},
        {11, L::Error},
        {12, L::Warning},
        {13, L::Info},
        {191, L::Debug},
    }};
    for (const auto &[priority, level] : priorities) {
        const QByteArray line = '<' + QByteArray::number(priority) + ">Dec  1 15:52:14 host x";
        QTest::newRow(qPrintable(u"syslog <"_s + QString::number(priority) + u'>'))
            << line << level;
    }

    // Android logcat.
    row("logcat threadtime", "12-01 15:52:14.123  123  456 E Tag: msg", L::Error);
    row("logcat threadtime year", "2026-12-01 15:52:14.123  1234  5678 W ActivityManager: x",
        L::Warning);
    row("logcat time", "12-01 15:52:14.123 D/dalvikvm( 123): GC", L::Debug);
    row("logcat brief", "E/Tag( 123): msg", L::Error);
    row("logcat brief no space", "W/Tag(123): msg", L::Warning);
    row("logcat brief padded", "I/ActivityManager(  585): Start proc", L::Info);
    row("logcat tag padded", "V/Tag     ( 1): x", L::Trace);
    row("logcat tag", "D/dalvikvm: GC", L::Debug);
    row("logcat fatal", "F/libc    ( 1): Fatal signal 11", L::Error);

    // The earliest form wins.
    row("bracket before word", "[info] retrying after ERROR", L::Info);
    row("key before quoted word", "level=warn msg=\"ERROR upstream\"", L::Warning);
    row("word before json key", "{\"msg\":\"ERROR seen\",\"level\":\"info\"}", L::Error);
    row("priority before word", "<14>Dec  1 15:52:14 host app: ERROR x", L::Info);
    row("glog before word", "I1201 15:52:14.123 1 a.go:1] ERROR x", L::Info);

    // Not levels.
    row("empty", "", L::None);
    row("prose", "no errors were found", L::None);
    row("prose information", "information about the error", L::None);
    row("capitalised", "Error: file not found", L::None);
    row("gcc", "main.cpp:3:5: warning: unused variable", L::None);
    row("TERRORS", "TERRORS of the night", L::None);
    row("INFORMATIONAL", "INFORMATIONAL message", L::None);
    row("ERRORS", "ERRORS: 0", L::None);
    row("ERROR2", "ERROR2 x", L::None);
    row("ERROR_COUNT", "ERROR_COUNT=0", L::None);
    row("MY_ERROR", "MY_ERROR x", L::None);
    row("utf-8 letter after", "ERROR\xc3\xa9 x", L::None);
    row("utf-8 letter before", "\xc3\xa9WARN x", L::None);
    row("url path", "GET /error/page 200", L::None);
    row("url path upper", "GET /ERROR/page 200", L::None);
    row("path end", "tail /var/log/WARN", L::None);
    row("[errors]", "[errors] x", L::None);
    row("[error:x]", "[error:x] y", L::None);
    row("[pid 1:error]", "[pid 1:error] y", L::None);
    row("(core:error)", "(core:error) y", L::None);
    row("level=high", "level=high x", L::None);
    row("level=errors", "level=errors x", L::None);
    row("levels=error", "levels=error x", L::None);
    row("number outside json", "battery level: 50", L::None);
    row("pino 55", "{\"level\":55}", L::None);
    row("pino 5", "{\"level\":5}", L::None);
    row("pino 500", "{\"level\":500}", L::None);
    row("glog month 13", "I1301 15:52:14.123 1 a.go:1] x", L::None);
    row("glog no time", "I1201 is the room", L::None);
    row("I/O", "I/O error: disk", L::None);
    row("priority 192", "<192>Dec  1 15:52:14 x", L::None);
    row("priority letters", "<12a> x", L::None);
    row("logcat unknown letter", "12-01 15:52:14.123  123  456 X Tag: msg", L::None);
}

void TestLogClassify::levelForms() {
    QFETCH(QByteArray, line);
    QFETCH(LogLevel, level);
    QCOMPARE(classifyLevel(line), level);
}

void TestLogClassify::levelScanIsBounded_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<LogLevel>("level");
    const QByteArray spaces(kLevelScanBytes, ' ');
    auto row = [](const char *tag, const QByteArray &line, LogLevel level) {
        QTest::newRow(tag) << line << level;
    };
    row("last byte", spaces.first(kLevelScanBytes - 1) + "ERROR", LogLevel::Error);
    row("past the bound", spaces + "ERROR", LogLevel::None);
    row("form runs past the bound", spaces.first(kLevelScanBytes - 3) + "level = \"warning\"",
        LogLevel::Warning);
    row("word runs past the bound", spaces.first(kLevelScanBytes - 3) + "ERRORS", LogLevel::None);
    row("long token then level", QByteArray(400, 'x') + " INFO " + QByteArray(100'000, 'y'),
        LogLevel::Info);
    row("long token", QByteArray(100'000, 'y') + " INFO", LogLevel::None);
}

void TestLogClassify::levelScanIsBounded() {
    QFETCH(QByteArray, line);
    QFETCH(LogLevel, level);
    QCOMPARE(classifyLevel(line), level);
}

void TestLogClassify::levelCountsOfGeneratedLines() {
    constexpr int kLines = 200'000;
    sbxtest::LineGenerator generator(20261201);
    std::array<int, 6> expected{};
    std::array<int, 6> counted{};
    for (int i = 0; i < kLines; ++i) {
        const sbxtest::GeneratedLine line = generator.next();
        ++expected[size_t(line.level)];
        const LogLevel level = classifyLevel(line.text);
        ++counted[size_t(level)];
        if (level != line.level) { // the first miss names its line, not only a count
            const QScopedArrayPointer<char> name(toString(level));
            QFAIL(
                qPrintable(QString::fromUtf8(line.text) + u" -> "_s + QLatin1String(name.data())));
        }
    }
    for (size_t level = 0; level < expected.size(); ++level) {
        QVERIFY(expected[level] > kLines / 10); // every level was generated
        QCOMPARE(counted[level], expected[level]);
    }
}

void TestLogClassify::timeForms_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("year");
    QTest::addColumn<int>("offset");
    QTest::addColumn<bool>("found");
    QTest::addColumn<qint64>("ms");
    using sbxtest::epochMs;
    using sbxtest::kHour;
    using sbxtest::sampleMs;
    auto row = [](const char *tag, const QByteArray &line, int year, int offset, qint64 ms) {
        QTest::newRow(tag) << line << year << offset << true << ms;
    };
    auto none = [](const char *tag, const QByteArray &line, int year = 2026) {
        QTest::newRow(tag) << line << year << 0 << false << qint64(0);
    };
    // 1764604334 is 2025-12-01T15:52:14Z.
    const QDate epochDate(2025, 12, 1);

    // ISO 8601 / RFC 3339 at the start.
    row("Z", "2026-12-01T15:52:14Z x", 0, 0, sampleMs());
    row("ms Z", "2026-12-01T15:52:14.123Z x", 0, 0, sampleMs(123));
    row("docker ns", "2026-12-01T15:52:14.123456789Z stdout F x", 0, 0, sampleMs(123));
    row("lower z", "2026-12-01t15:52:14z x", 0, 0, sampleMs());
    row("+01:00", "2026-12-01T15:52:14+01:00 x", 0, 0, sampleMs(0, kHour));
    row("-0530", "2026-12-01T15:52:14.5-0530 x", 0, 0, sampleMs(500, -(5 * kHour + 1800)));
    row("+01", "2026-12-01T15:52:14+01 x", 0, 0, sampleMs(0, kHour));
    row("offset beats context", "2026-12-01T15:52:14Z x", 0, 7 * kHour, sampleMs());
    row("space", "2026-12-01 15:52:14 x", 0, 0, sampleMs());
    row("space context offset", "2026-12-01 15:52:14 x", 0, 2 * kHour, sampleMs(0, 2 * kHour));
    row("west context offset", "2026-12-01 15:52:14 x", 0, -8 * kHour, sampleMs(0, -8 * kHour));
    row("comma fraction", "2026-12-01 15:52:14,123 - app - ERROR - boom", 0, 0, sampleMs(123));
    row("dot fraction", "2026-12-01 15:52:14.123 x", 0, 0, sampleMs(123));
    row("one digit fraction", "2026-12-01 15:52:14.1 x", 0, 0, sampleMs(100));
    row("line is the time", "2026-12-01T15:52:14Z", 0, 0, sampleMs());
    row("bracketed", "[2026-12-01T15:52:14Z WARN  foo] x", 0, 0, sampleMs());
    row("after priority", "<13>2026-12-01T15:52:14.123+00:00 host x", 0, 0, sampleMs(123));
    row("rfc 5424", "<165>1 2026-12-01T15:52:14.003Z host app - - x", 0, 0, sampleMs(3));
    row("slashes", "2026/12/01 15:52:14 [error] 1#0: x", 0, 0, sampleMs());
    row("leap day", "2028-02-29T00:00:00Z", 0, 0, epochMs(QDate(2028, 2, 29), QTime(0, 0)));
    row("before 1970", "1969-12-31T23:59:59Z", 0, 0,
        epochMs(QDate(1969, 12, 31), QTime(23, 59, 59)));

    // syslog, year from the context.
    row("syslog", "Dec  1 15:52:14 host app: x", 2026, 0, sampleMs());
    row("syslog 01", "Dec 01 15:52:14 host app: x", 2026, 0, sampleMs());
    row("syslog offset", "Dec  1 15:52:14 host app: x", 2026, kHour, sampleMs(0, kHour));
    row("syslog priority", "<34>Oct 11 22:14:15 mymachine su: x", 2026, 0,
        epochMs(QDate(2026, 10, 11), QTime(22, 14, 15)));
    row("syslog leap day", "Feb 29 00:00:01 h x", 2028, 0,
        epochMs(QDate(2028, 2, 29), QTime(0, 0, 1)));
    row("syslog fraction", "Dec  1 15:52:14.250 h x", 2026, 0, sampleMs(250));

    row("ctime", "Tue Dec  1 15:52:14 2026 x", 0, 0, sampleMs());
    row("apache", "[Tue Dec 01 15:52:14.123456 2026] [core:error] x", 0, kHour,
        sampleMs(123, kHour));

    // glog and logcat, year from the context.
    row("glog", "I1201 15:52:14.123456    1 main.go:10] x", 2026, 0, sampleMs(123));
    row("glog offset", "E1201 15:52:14.123456 1 a.go:1] x", 2026, -kHour, sampleMs(123, -kHour));
    row("logcat", "12-01 15:52:14.123  123  456 E Tag: x", 2026, 0, sampleMs(123));

    // JSON fields.
    row("ts seconds.fraction", "{\"ts\":1764604334.123,\"msg\":\"x\"}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14, 123)));
    row("ts seconds", "{\"level\":\"info\",\"ts\":1764604334}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14)));
    row("time ms", "{\"time\":1764604334123}", 0, 0, epochMs(epochDate, QTime(15, 52, 14, 123)));
    row("time us", "{\"time\":1764604334123456}", 0, 0, epochMs(epochDate, QTime(15, 52, 14, 123)));
    row("time ns", "{\"time\":1764604334123456789}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14, 123)));
    row("timestamp string", "{\"timestamp\":\"2026-12-01T15:52:14Z\"}", 0, 0, sampleMs());
    row("@timestamp", "{\"@timestamp\":\"2026-12-01T15:52:14.123Z\",\"message\":\"x\"}", 0, 0,
        sampleMs(123));
    row("t with offset", "{\"t\":\"2026-12-01T15:52:14.123+01:00\"}", 0, 0, sampleMs(123, kHour));
    row("string without offset", "{\"time\":\"2026-12-01 15:52:14\"}", 0, kHour,
        sampleMs(0, kHour));
    row("numeric string", "{\"ts\":\"1764604334.5\"}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14, 500)));
    row("spaces", " { \"ts\" : 1764604334 , \"msg\" : \"x\" }", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14)));
    row("docker json",
        "{\"log\":\"{\\\"time\\\":1}\\n\",\"stream\":\"stdout\","
        "\"time\":\"2026-12-01T15:52:14.123456789Z\"}",
        0, 0, sampleMs(123));
    row("nested object skipped", "{\"ctx\":{\"ts\":5,\"a\":[1,{\"b\":\"}\"}]},\"ts\":1764604334}",
        0, 0, epochMs(epochDate, QTime(15, 52, 14)));
    row("key in a string skipped", "{\"msg\":\"\\\"ts\\\":1\",\"time\":1764604334}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14)));
    row("unparsable key then good", "{\"time\":\"soon\",\"ts\":1764604334}", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14)));
    row("mongodb $date", "{\"t\":{\"$date\":\"2026-12-01T15:52:14.123+00:00\"},\"s\":\"I\"}", 0, 0,
        sampleMs(123));

    // logfmt's first fields.
    row("logrus", "time=\"2026-12-01T15:52:14Z\" level=info msg=x", 0, 0, sampleMs());
    row("go-kit", "level=info ts=2026-12-01T15:52:14.123Z caller=main.go:1", 0, 0, sampleMs(123));
    row("logfmt epoch", "ts=1764604334.123 level=info", 0, 0,
        epochMs(epochDate, QTime(15, 52, 14, 123)));

    // No time.
    none("empty", "");
    none("month 13", "2026-13-01T15:52:14Z x");
    none("month 0", "2026-00-01T15:52:14Z x");
    none("feb 30", "2026-02-30 15:52:14 x");
    none("feb 29 common year", "2026-02-29 15:52:14 x");
    none("hour 25", "2026-12-01 25:00:00 x");
    none("hour 24", "2026-12-01 24:00:00 x");
    none("minute 60", "2026-12-01 15:60:00 x");
    none("second 60", "2026-12-01 15:52:60 x");
    none("offset hour 25", "2026-12-01T15:52:14+25:00 x");
    none("date only", "2026-12-01 x");
    none("no seconds", "2026-12-01 15:52 x");
    none("digits run on", "2026-12-01 15:52:145 x");
    none("mid prose", "at 2026-12-01T15:52:14Z it failed");
    none("json mid prose", "got {\"ts\":1764604334}");
    none("json without time", "{\"msg\":\"x\",\"level\":\"info\"}");
    none("json words", "{\"ts\":\"yesterday\"}");
    none("json exponent", "{\"ts\":1.764604334e9}");
    none("json negative", "{\"ts\":-1}");
    none("json unclosed", "{\"msg\":\"x");
    none("json 20 digits", "{\"ts\":17646043341234567890}");
    none("syslog day 32", "Dec 32 15:52:14 h x");
    none("syslog bad month", "Foo  1 15:52:14 h x");
    none("syslog feb 29 common", "Feb 29 00:00:01 h x");
    none("ctime feb 30", "Mon Feb 30 15:52:14 2026 x");
    none("ctime without year", "Tue Dec  1 15:52:14 x");
    none("syslog without year", "Dec  1 15:52:14 h x", 0);
    none("glog without year", "I1201 15:52:14.123456 1 a.go:1] x", 0);
    none("glog month 13", "I1301 15:52:14.123456 1 a.go:1] x");
    none("logcat without year", "12-01 15:52:14.123  123  456 E Tag: x", 0);
    none("logfmt without time", "level=info msg=x");
}

void TestLogClassify::timeForms() {
    QFETCH(QByteArray, line);
    QFETCH(int, year);
    QFETCH(int, offset);
    QFETCH(bool, found);
    QFETCH(qint64, ms);
    const std::optional<qint64> time = parseLogTime(line, LogTimeContext{year, offset});
    QCOMPARE(time.has_value(), found);
    if (found)
        QCOMPARE(*time, ms);
}

QTEST_GUILESS_MAIN(TestLogClassify)
#include "tst_logclassify.moc"
