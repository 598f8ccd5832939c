// A log viewer's level filter and time column read what a person sees in each line: the
// line's own level in the common log formats, nothing from prose or paths.
#include "models/logs/logclassify.h"

#include <QRandomGenerator>
#include <QTest>

#include <array>

using namespace sbx;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(sbx::LogLevel)

namespace sbx {

// QCOMPARE prints levels by name.
char *toString(LogLevel level) {
    constexpr std::array kNames = {"None", "Trace", "Debug", "Info", "Warning", "Error"};
    return qstrdup(kNames[size_t(level)]);
}

} // namespace sbx

namespace sbxtest {

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

QTEST_GUILESS_MAIN(TestLogClassify)
#include "tst_logclassify.moc"
