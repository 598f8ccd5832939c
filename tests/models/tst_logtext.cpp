// A raw log line reads as a terminal would have shown it: colours as spans, other escapes gone,
// CR and BS overwriting, invalid UTF-8 visible as U+FFFD, long lines cut; search's plain bytes
// are exactly that text.
#include "models/logs/logtext.h"

#include <QTest>

#include <limits>
#include <random>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace sbxtest {

constexpr qsizetype kUnlimited = std::numeric_limits<qsizetype>::max();

struct DecodeCase {
    const char *name;
    QByteArray raw;
    QString text;
    QString spans; // as describeSpans writes them
};

QString describeColour(const char *role, uint32_t colour) {
    if (TerminalColor::kind(colour) == TerminalColor::kIndexedKind)
        return QString::fromLatin1(role) + QString::number(colour & 0xff);
    return QString::fromLatin1(role) + u"#"_s +
           QString::number(colour & 0xffffff, 16).rightJustified(6, u'0');
}

// "start+length attributes" per span, joined by " | ": readable when a row fails.
QString describeSpans(const QList<LogSpan> &spans) {
    QStringList parts;
    for (const LogSpan &span : spans) {
        QStringList words{QString::number(span.start) + u"+"_s + QString::number(span.length)};
        const LogStyle &s = span.style;
        if (s.fg != TerminalColor::kDefault)
            words << describeColour("fg", s.fg);
        if (s.bg != TerminalColor::kDefault)
            words << describeColour("bg", s.bg);
        const std::pair<bool, QString> flags[] = {
            {s.bold, u"bold"_s},           {s.dim, u"dim"_s},         {s.italic, u"italic"_s},
            {s.underline, u"underline"_s}, {s.inverse, u"inverse"_s}, {s.strike, u"strike"_s}};
        for (const auto &[on, word] : flags) {
            if (on)
                words << word;
        }
        parts << words.join(u' ');
    }
    return parts.join(u" | "_s);
}

// Empty when the spans keep their contract, else what is wrong.
QString spanProblem(const LogText &decoded) {
    int end = 0;
    const LogSpan *previous = nullptr;
    for (const LogSpan &span : decoded.spans) {
        if (span.length <= 0 || span.start < end || span.start + span.length > decoded.text.size())
            return u"span out of order or out of the text: "_s + describeSpans(decoded.spans);
        if (span.style.isPlain())
            return u"plain span listed"_s;
        if (previous && previous->start + previous->length == span.start &&
            previous->style == span.style)
            return u"adjacent equal spans not merged: "_s + describeSpans(decoded.spans);
        end = span.start + span.length;
        previous = &span;
    }
    return {};
}

QList<DecodeCase> sgrCases() {
    return {
        {"plain", "hello"_ba, u"hello"_s, u""_s},
        {"fg then reset", "\033[31mred\033[0m ok"_ba, u"red ok"_s, u"0+3 fg1"_s},
        {"bright fg is 8-15", "\033[91mx"_ba, u"x"_s, u"0+1 fg9"_s},
        {"bg and default bg", "\033[42mx\033[49my"_ba, u"xy"_s, u"0+1 bg2"_s},
        {"bright bg", "\033[107mx"_ba, u"x"_s, u"0+1 bg15"_s},
        {"default fg", "\033[31ma\033[39mb"_ba, u"ab"_s, u"0+1 fg1"_s},
        {"attributes add up", "\033[1ma\033[2mb\033[3mc\033[4md\033[7me\033[9mf"_ba, u"abcdef"_s,
         u"0+1 bold | 1+1 bold dim | 2+1 bold dim italic | 3+1 bold dim italic underline | "
         u"4+1 bold dim italic underline inverse | "
         u"5+1 bold dim italic underline inverse strike"_s},
        {"attributes off", "\033[1;2;3;4;7;9mA\033[22mB\033[23mC\033[24mD\033[27mE\033[29mF"_ba,
         u"ABCDEF"_s,
         u"0+1 bold dim italic underline inverse strike | 1+1 italic underline inverse strike | "
         u"2+1 underline inverse strike | 3+1 inverse strike | 4+1 strike"_s},
        {"reset with empty params", "\033[1;31ma\033[mb"_ba, u"ab"_s, u"0+1 fg1 bold"_s},
        {"empty param is 0", "\033[31;mx"_ba, u"x"_s, u""_s},
        {"leading empty param", "\033[1m\033[;4mx"_ba, u"x"_s, u"0+1 underline"_s},
        {"256 colours", "\033[38;5;208mx\033[48;5;17my"_ba, u"xy"_s,
         u"0+1 fg208 | 1+1 fg208 bg17"_s},
        {"truecolour fg", "\033[38;2;255;128;0mx"_ba, u"x"_s, u"0+1 fg#ff8000"_s},
        {"truecolour bg", "\033[48;2;1;2;3mx"_ba, u"x"_s, u"0+1 bg#010203"_s},
        {"colon 256", "\033[38:5:33mx"_ba, u"x"_s, u"0+1 fg33"_s},
        {"colon truecolour, colour space", "\033[38:2::10:20:30mx"_ba, u"x"_s, u"0+1 fg#0a141e"_s},
        {"colon truecolour", "\033[38:2:10:20:30mx"_ba, u"x"_s, u"0+1 fg#0a141e"_s},
        {"colon bg", "\033[48:5:1mx"_ba, u"x"_s, u"0+1 bg1"_s},
        {"colour then attribute", "\033[38;5;1;1mx"_ba, u"x"_s, u"0+1 fg1 bold"_s},
        {"unknown params ignored", "\033[5;31;8;53mx"_ba, u"x"_s, u"0+1 fg1"_s},
        {"index over 255 ignored", "\033[38;5;300;1mx"_ba, u"x"_s, u"0+1 bold"_s},
        {"rgb over 255 ignored", "\033[38;2;1;256;3mx"_ba, u"x"_s, u""_s},
        {"truncated 38", "\033[38;5mx"_ba, u"x"_s, u""_s},
        {"truncated colon 38", "\033[38:2:1:2mx"_ba, u"x"_s, u""_s},
        {"underline colour ignored", "\033[58;5;3;4mx\033[58:2::1:2:3my"_ba, u"xy"_s,
         u"0+2 underline"_s},
        {"underline 4:0 is off", "\033[4mx\033[4:0my\033[4:3mz"_ba, u"xyz"_s,
         u"0+1 underline | 2+1 underline"_s},
        {"adjacent equal styles merged", "\033[31ma\033[31mb\033[0m\033[31mc"_ba, u"abc"_s,
         u"0+3 fg1"_s},
        {"private SGR ignored", "\033[>4;1mx"_ba, u"x"_s, u""_s},
        {"huge param", "\033[99999999999999999999;1mx"_ba, u"x"_s, u"0+1 bold"_s},
        {"params past 32 ignored", "\033[" + QByteArray("0;").repeated(40) + "31mx", u"x"_s, u""_s},
    };
}

QList<DecodeCase> escapeCases() {
    return {
        {"erase in line", "abc\033[Kdef"_ba, u"abcdef"_s, u""_s},
        {"clear screen and home", "\033[2J\033[Hhello"_ba, u"hello"_s, u""_s},
        {"private mode", "\033[?25lhidden\033[?25h"_ba, u"hidden"_s, u""_s},
        {"cursor moves", "a\033[10Cb\033[3Ac\033[5G"_ba, u"abc"_s, u""_s},
        {"CSI with intermediate", "a\033[2 qb"_ba, u"ab"_s, u""_s},
        {"OSC ended by BEL", "\033]0;my title\007text"_ba, u"text"_s, u""_s},
        {"OSC ended by ST", "\033]2;t\033\\text"_ba, u"text"_s, u""_s},
        {"OSC 8 keeps link text", "see \033]8;;https://x.test/\033\\the docs\033]8;;\033\\ now"_ba,
         u"see the docs now"_s, u""_s},
        {"OSC 8 inside style", "\033[4m\033]8;;u\007link\033]8;;\007\033[24m!"_ba, u"link!"_s,
         u"0+4 underline"_s},
        {"DCS", "a\033P1$r0m\033\\b"_ba, u"ab"_s, u""_s},
        {"APC", "a\033_hidden\033\\b"_ba, u"ab"_s, u""_s},
        {"charset", "\033(Bplain\033)0"_ba, u"plain"_s, u""_s},
        {"keypad modes", "\033=a\033>b"_ba, u"ab"_s, u""_s},
        {"save and restore cursor", "\0337a\0338b"_ba, u"ab"_s, u""_s},
        {"C0 and DEL dropped", "a\001b\007c\nd\177e\033"_ba, u"abcde"_s, u""_s},
        {"NUL dropped", "a\0b"_ba, u"ab"_s, u""_s},
        {"TAB kept", "a\tb\t"_ba, u"a\tb\t"_s, u""_s},
        {"C1 CSI dropped, not parsed",
         "a\xc2\x9b"
         "31mb"_ba,
         u"a31mb"_s, u""_s},
        {"C1 NEL dropped",
         "a\xc2\x85"
         "b"_ba,
         u"ab"_s, u""_s},
    };
}

QList<DecodeCase> malformedCases() {
    return {
        {"bare ESC at end", "abc\033"_ba, u"abc"_s, u""_s},
        {"only ESC", "\033"_ba, u""_s, u""_s},
        {"ESC ESC", "a\033\033[31mb"_ba, u"ab"_s, u"1+1 fg1"_s},
        {"CSI cut at line end", "abc\033[31"_ba, u"abc"_s, u""_s},
        {"only CSI introducer", "\033["_ba, u""_s, u""_s},
        {"CSI ended by a control", "a\033[31\001b"_ba, u"ab"_s, u""_s},
        {"CSI ended by UTF-8", "a\033[3\xc3\xa9"_ba, u"a\u00e9"_s, u""_s},
        {"CSI ended by ESC", "a\033[3\033[32mb"_ba, u"ab"_s, u"1+1 fg2"_s},
        {"CSI final in text", "\033[3hello"_ba, u"ello"_s, u""_s},
        {"OSC without end", "a\033]0;title"_ba, u"a]0;title"_s, u""_s},
        {"OSC ended by another ESC", "a\033]0;t\033[1mb"_ba, u"ab"_s, u"1+1 bold"_s},
        {"ESC before UTF-8", "a\033\xc3\xa9"_ba, u"a\u00e9"_s, u""_s},
        {"ESC intermediate at end", "a\033("_ba, u"a"_s, u""_s},
        {"ESC intermediate then control", "a\033(\001b"_ba, u"ab"_s, u""_s},
        {"ESC inside UTF-8", "\xe2\x82\033[1m\xac"_ba, u"\ufffd\ufffd"_s, u"1+1 bold"_s},
        {"SGR cut by CR", "\033[1;3\rx"_ba, u"x"_s, u""_s},
    };
}

QList<DecodeCase> overwriteCases() {
    return {
        {"progress bar", "10%\r20%\r100% done"_ba, u"100% done"_s, u""_s},
        {"shorter overwrite", "abcdef\rXY"_ba, u"XYcdef"_s, u""_s},
        {"trailing CR", "line\r"_ba, u"line"_s, u""_s},
        {"trailing CR keeps styles", "\033[31mred\033[0m\r"_ba, u"red"_s, u"0+3 fg1"_s},
        {"two trailing CRs", "ab\r\r"_ba, u"ab"_s, u""_s},
        {"overwrite drops old style", "\033[31mabc\033[0m\rX"_ba, u"Xbc"_s, u"1+2 fg1"_s},
        {"overwrite brings its style", "abc\r\033[1mX"_ba, u"Xbc"_s, u"0+1 bold"_s},
        {"CR then erase to end", "long old text\r\033[Knew"_ba, u"new"_s, u""_s},
        {"erase line then CR", "long old text\033[2K\rnew"_ba, u"new"_s, u""_s},
        {"erase line keeps the column", "abc\033[2Kx"_ba, u"   x"_s, u""_s},
        {"erase to start", "abcdef\rab\033[1Kz"_ba, u"  zdef"_s, u""_s},
        {"erase to start at the end", "abc\033[1K"_ba, u""_s, u""_s},
        {"erase to end at the end", "abc\033[K"_ba, u"abc"_s, u""_s},
        {"CR then erase only", "abc\r\033[0K"_ba, u""_s, u""_s},
        {"erase with unknown mode", "abc\r\033[3K"_ba, u"abc"_s, u""_s},
        {"backspace overwrites", "abc\bX"_ba, u"abX"_s, u""_s},
        {"backspace at column 0", "\b\bab"_ba, u"ab"_s, u""_s},
        {"trailing backspace", "abc\b"_ba, u"abc"_s, u""_s},
        {"backspace over a multi-byte char", "\xc3\xa9\bx"_ba, u"x"_s, u""_s},
        {"columns are code points", "\xc3\xa9\xc3\xa9\xc3\xa9\rab"_ba, u"ab\u00e9"_s, u""_s},
        {"non-BMP is one column", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\rx"_ba, u"x\U0001F600"_s,
         u""_s},
        {"TAB is one column", "a\tb\rXY"_ba, u"XYb"_s, u""_s},
        {"styled overwrite in the middle", "aaaa\r\033[32mb\033[0mb\033[32mb"_ba, u"bbba"_s,
         u"0+1 fg2 | 2+1 fg2"_s},
    };
}

QList<DecodeCase> utf8Cases() {
    return {
        {"valid multi-byte", "\xc5\xbc\xc3\xb3\xc5\x82w \xf0\x9f\x98\x80"_ba,
         u"\u017c\u00f3\u0142w \U0001F600"_s, u""_s},
        {"invalid byte",
         "a\xff"
         "b"_ba,
         u"a\ufffdb"_s, u""_s},
        {"lone continuation", "\x80"_ba, u"\ufffd"_s, u""_s},
        {"two continuations", "\x80\x80"_ba, u"\ufffd\ufffd"_s, u""_s},
        {"truncated 3-byte",
         "\xe2\x82"
         "a"_ba,
         u"\ufffda"_s, u""_s},
        {"truncated 4-byte at end", "\xf0\x9f\x98"_ba, u"\ufffd"_s, u""_s},
        {"overlong 2-byte", "\xc0\xaf"_ba, u"\ufffd\ufffd"_s, u""_s},
        {"overlong 3-byte", "\xe0\x80\xaf"_ba, u"\ufffd\ufffd\ufffd"_s, u""_s},
        {"surrogate", "\xed\xa0\x80"_ba, u"\ufffd\ufffd\ufffd"_s, u""_s},
        {"past U+10FFFF", "\xf4\x90\x80\x80"_ba, u"\ufffd\ufffd\ufffd\ufffd"_s, u""_s},
        {"F5 lead", "\xf5"_ba, u"\ufffd"_s, u""_s},
        {"U+FFFD itself", "\xef\xbf\xbd"_ba, u"\ufffd"_s, u""_s},
        {"styled replacement", "\033[31m\xff"_ba, u"\ufffd"_s, u"0+1 fg1"_s},
    };
}

QList<QList<DecodeCase>> allDecodeCases() {
    return {sgrCases(), escapeCases(), malformedCases(), overwriteCases(), utf8Cases()};
}

void addDecodeRows(const QList<DecodeCase> &cases) {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("spans");
    for (const DecodeCase &c : cases)
        QTest::newRow(c.name) << c.raw << c.text << c.spans;
}

void checkDecodeRow() {
    QFETCH(QByteArray, raw);
    QFETCH(QString, text);
    QFETCH(QString, spans);
    const LogText decoded = decodeLogLine(raw);
    QCOMPARE(decoded.text, text);
    QCOMPARE(describeSpans(decoded.spans), spans);
    QCOMPARE(decoded.cut, false);
    QCOMPARE(decoded.fullBytes, raw.size());
    QCOMPARE(spanProblem(decoded), QString());
}

// Bytes a log line with escapes is made of, weighted towards the ones that start, continue and
// break sequences.
QByteArray randomLine(std::mt19937 &random) {
    static const QByteArray kPieces[] = {"\033"_ba,     "["_ba,
                                         "]"_ba,        ";"_ba,
                                         ":"_ba,        "m"_ba,
                                         "K"_ba,        "\r"_ba,
                                         "\b"_ba,       "\007"_ba,
                                         "\\"_ba,       "3"_ba,
                                         "8"_ba,        "1"_ba,
                                         "2"_ba,        "5"_ba,
                                         "a"_ba,        "Z"_ba,
                                         " "_ba,        "\t"_ba,
                                         "\xc3\xa9"_ba, "\xf0\x9f\x98\x80"_ba};
    std::uniform_int_distribution<int> length(0, 40);
    std::uniform_int_distribution<int> piece(0, int(std::size(kPieces)) + 3);
    std::uniform_int_distribution<int> high(0x80, 0xff);
    QByteArray line;
    const int n = length(random);
    for (int i = 0; i < n; ++i) {
        const int p = piece(random);
        if (p < int(std::size(kPieces)))
            line += kPieces[p];
        else
            line += char(high(random)); // lone high bytes: mostly invalid UTF-8
    }
    return line;
}

constexpr int kRandomLines = 10000;

} // namespace sbxtest

using namespace sbxtest;

class TestLogText final : public QObject {
    Q_OBJECT

private slots:
    void sgr_data();
    void sgr();
    void escapesRemoved_data();
    void escapesRemoved();
    void malformed_data();
    void malformed();
    void overwrite_data();
    void overwrite();
    void utf8_data();
    void utf8();
    void cut_data();
    void cut();
    void hugeLineReadsOnlyWhatIsShown();
    void needsPlainRewrite_data();
    void needsPlainRewrite();
    void plainBytesAreTheDecodedText();
    void randomBytesKeepTheContracts();
};

void TestLogText::sgr_data() {
    addDecodeRows(sgrCases());
}

void TestLogText::sgr() {
    checkDecodeRow();
}

void TestLogText::escapesRemoved_data() {
    addDecodeRows(escapeCases());
}

void TestLogText::escapesRemoved() {
    checkDecodeRow();
}

void TestLogText::malformed_data() {
    addDecodeRows(malformedCases());
}

void TestLogText::malformed() {
    checkDecodeRow();
}

void TestLogText::overwrite_data() {
    addDecodeRows(overwriteCases());
}

void TestLogText::overwrite() {
    checkDecodeRow();
}

void TestLogText::utf8_data() {
    addDecodeRows(utf8Cases());
}

void TestLogText::utf8() {
    checkDecodeRow();
}

void TestLogText::cut_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<qsizetype>("maxChars");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("cut");
    QTest::newRow("fits exactly") << "abcd"_ba << qsizetype(4) << u"abcd"_s << false;
    QTest::newRow("one over") << "abcde"_ba << qsizetype(4) << u"abcd"_s << true;
    QTest::newRow("escape after a full line")
        << "abcd\033[0m"_ba << qsizetype(4) << u"abcd"_s << false;
    QTest::newRow("CR after a full line") << "abcd\r"_ba << qsizetype(4) << u"abcd"_s << false;
    QTest::newRow("overwrite after a full line")
        << "abcd\rXY"_ba << qsizetype(4) << u"XYcd"_s << false;
    QTest::newRow("surrogate pair not split")
        << "abc\xf0\x9f\x98\x80"_ba << qsizetype(4) << u"abc"_s << true;
    QTest::newRow("counted in UTF-16, not bytes")
        << "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"_ba << qsizetype(4)
        << u"\u00e9\u00e9\u00e9\u00e9"_s << true;
    QTest::newRow("zero") << "a"_ba << qsizetype(0) << u""_s << true;
    QTest::newRow("zero, nothing shown") << "\033[1m\r"_ba << qsizetype(0) << u""_s << false;
    QTest::newRow("padding counts") << "ab\033[2Kcd"_ba << qsizetype(3) << u"  c"_s << true;
    QTest::newRow("replacement counts") << "ab\xff\xff"_ba << qsizetype(3) << u"ab\ufffd"_s << true;
}

void TestLogText::cut() {
    QFETCH(QByteArray, raw);
    QFETCH(qsizetype, maxChars);
    QFETCH(QString, text);
    QFETCH(bool, cut);
    const LogText decoded = decodeLogLine(raw, maxChars);
    QCOMPARE(decoded.text, text);
    QCOMPARE(decoded.cut, cut);
    QCOMPARE(decoded.fullBytes, raw.size());
}

void TestLogText::hugeLineReadsOnlyWhatIsShown() {
    // 50 MB in one line: the decode keeps only a screenful, so its work is bounded by that.
    constexpr qsizetype kHuge = 50 * 1024 * 1024;
    QByteArray raw = "\033[31m"_ba;
    raw.append(kHuge - raw.size(), 'x');
    const LogText decoded = decodeLogLine(raw);
    QVERIFY(decoded.cut);
    QCOMPARE(decoded.text.size(), kMaxDisplayChars);
    QCOMPARE(decoded.fullBytes, kHuge);
    QCOMPARE(describeSpans(decoded.spans), u"0+%1 fg1"_s.arg(kMaxDisplayChars));
    QCOMPARE(decoded.text, QString(kMaxDisplayChars, u'x'));
}

void TestLogText::needsPlainRewrite_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<bool>("needs");
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("ASCII") << "GET /index.html 200 {\"ok\":true}~"_ba << false;
    QTest::newRow("long ASCII") << QByteArray(1000, 'a') << false;
    QTest::newRow("TAB") << "a\tb"_ba << false;
    QTest::newRow("valid UTF-8") << "\xc5\xbc\xc3\xb3\xc5\x82w \xf0\x9f\x98\x80"_ba << false;
    QTest::newRow("U+FFFD itself") << "\xef\xbf\xbd"_ba << false;
    QTest::newRow("ESC") << "a\033[0m"_ba << true;
    QTest::newRow("ESC after 8-byte blocks") << QByteArray(17, 'a') + "\033" << true;
    QTest::newRow("CR") << "a\rb"_ba << true;
    QTest::newRow("trailing CR") << "line\r"_ba << true;
    QTest::newRow("BS") << "a\bb"_ba << true;
    QTest::newRow("NUL") << "a\0b"_ba << true;
    QTest::newRow("LF") << "a\nb"_ba << true;
    QTest::newRow("DEL") << "abcdefgh\177"_ba << true;
    QTest::newRow("invalid UTF-8") << "abc\xff"_ba << true;
    QTest::newRow("truncated UTF-8") << "abc\xe2\x82"_ba << true;
    QTest::newRow("overlong") << "\xc0\xaf"_ba << true;
    QTest::newRow("C1 control") << "a\xc2\x9b"_ba << true;
}

void TestLogText::needsPlainRewrite() {
    QFETCH(QByteArray, raw);
    QFETCH(bool, needs);
    QCOMPARE(sbx::needsPlainRewrite(raw), needs);
    // The contract search relies on: no rewrite needed means the plain bytes are the raw ones.
    QCOMPARE(plainLogBytes(raw) != raw, needs);
}

void TestLogText::plainBytesAreTheDecodedText() {
    for (const QList<DecodeCase> &cases : allDecodeCases()) {
        for (const DecodeCase &c : cases) {
            const QByteArray expected = decodeLogLine(c.raw, kUnlimited).text.toUtf8();
            QVERIFY2(plainLogBytes(c.raw) == expected, c.name);
            QVERIFY2(sbx::needsPlainRewrite(c.raw) == (expected != c.raw), c.name);
        }
    }
}

void TestLogText::randomBytesKeepTheContracts() {
    std::mt19937 random(20261201);
    std::uniform_int_distribution<int> smallLimit(0, 12);
    for (int i = 0; i < kRandomLines; ++i) {
        const QByteArray raw = randomLine(random);
        const QByteArray hex = raw.toHex(' ');
        const LogText full = decodeLogLine(raw, kUnlimited);
        const QByteArray plain = plainLogBytes(raw);
        QVERIFY2(plain == full.text.toUtf8(), hex.constData());
        QVERIFY2(sbx::needsPlainRewrite(raw) == (plain != raw), hex.constData());
        QVERIFY2(!full.cut, hex.constData());
        QVERIFY2(spanProblem(full).isEmpty(),
                 qPrintable(spanProblem(full) + u' ' + QString::fromLatin1(hex)));

        // A cut decode shows a prefix of what the line would show in full... unless a CR
        // rewrote it later; either way it stays within its limit and keeps the span contract.
        const qsizetype limit = smallLimit(random);
        const LogText cut = decodeLogLine(raw, limit);
        QVERIFY2(cut.text.size() <= limit, hex.constData());
        QVERIFY2(spanProblem(cut).isEmpty(),
                 qPrintable(spanProblem(cut) + u' ' + QString::fromLatin1(hex)));
        if (!cut.cut)
            QVERIFY2(cut.text == full.text && cut.spans == full.spans, hex.constData());
    }
}

QTEST_GUILESS_MAIN(TestLogText)
#include "tst_logtext.moc"
