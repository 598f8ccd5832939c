// The terminal's DEC/ANSI parser on its own: what a byte stream turns into, however it is cut
// into feeds.
#include "models/terminal/vtparser.h"

#include <QStringList>
#include <QTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// Writes what the parser reports as one line per event; adjacent text is one event, so the
// log does not depend on where a feed ended.
class Recorder final : public VtHandler {
public:
    QStringList events;

    void printAscii(const char *text, size_t length) override {
        appendText(QString::fromLatin1(text, qsizetype(length)));
    }
    void print(const char32_t *text, size_t length) override {
        appendText(QString::fromUcs4(text, qsizetype(length)));
    }
    void execute(uint32_t control) override {
        events.append(u"exec %1"_s.arg(control, 2, 16, QLatin1Char('0')));
    }
    void escDispatch(const VtSequence &s) override { events.append(u"esc "_s + describe(s)); }
    void csiDispatch(const VtSequence &s) override { events.append(u"csi "_s + describe(s)); }
    void oscDispatch(std::string_view payload) override {
        events.append(u"osc "_s + QString::fromUtf8(payload.data(), qsizetype(payload.size())));
    }
    void dcsDispatch(const VtSequence &s, std::string_view payload) override {
        events.append(u"dcs "_s + describe(s) + u" "_s +
                      QString::fromUtf8(payload.data(), qsizetype(payload.size())));
    }

private:
    void appendText(const QString &text) {
        if (!events.isEmpty() && events.last().startsWith(u"text "_s))
            events.last() += text;
        else
            events.append(u"text "_s + text);
    }
    static QString describe(const VtSequence &s) {
        QString out;
        if (s.leader)
            out += QLatin1Char(s.leader);
        for (int i = 0; i < s.paramCount; ++i) {
            out += s.params[i] < 0 ? u"_"_s : QString::number(s.params[i]);
            if (i + 1 < s.paramCount)
                out += s.hasSubParam(i) ? u":"_s : u";"_s;
        }
        for (int i = 0; i < s.intermediateCount; ++i)
            out += QLatin1Char(s.intermediates[i]);
        out += QLatin1Char(s.final);
        return out;
    }
};

QStringList parse(const QByteArray &bytes) {
    VtParser parser;
    Recorder recorder;
    parser.feed(bytes.constData(), size_t(bytes.size()), recorder);
    return recorder.events;
}

// The same bytes fed in pieces of `piece` bytes.
QStringList parseInPieces(const QByteArray &bytes, int piece) {
    VtParser parser;
    Recorder recorder;
    for (qsizetype at = 0; at < bytes.size(); at += piece)
        parser.feed(bytes.constData() + at, size_t(std::min<qsizetype>(piece, bytes.size() - at)),
                    recorder);
    return recorder.events;
}

} // namespace

class TestVtParser final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void events_data();
    void events();
    void cutAnywhereGivesTheSameEvents();
    void tooManyParametersAndHugeNumbers();
    void longStringsAreCut();
    void printableRunsComeWhole();
};

void TestVtParser::events_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("text and controls")
        << QByteArray("ab\r\ncd\x07")
        << QStringList{u"text ab"_s, u"exec 0d"_s, u"exec 0a"_s, u"text cd"_s, u"exec 07"_s};
    QTest::newRow("DEL is ignored") << QByteArray("a\x7f"
                                                  "b")
                                    << QStringList{u"text ab"_s};
    QTest::newRow("csi parameters")
        << QByteArray("\x1b[1;22;333m") << QStringList{u"csi 1;22;333m"_s};
    QTest::newRow("csi left out") << QByteArray("\x1b[;5H\x1b[H")
                                  << QStringList{u"csi _;5H"_s, u"csi H"_s};
    QTest::newRow("csi sub-parameters")
        << QByteArray("\x1b[38:2::10:20:30;4:3m") << QStringList{u"csi 38:2:_:10:20:30;4:3m"_s};
    QTest::newRow("csi private") << QByteArray("\x1b[?1049h\x1b[>c")
                                 << QStringList{u"csi ?1049h"_s, u"csi >c"_s};
    QTest::newRow("csi intermediates") << QByteArray("\x1b[2 q\x1b[!p\x1b[1\"q")
                                       << QStringList{u"csi 2 q"_s, u"csi !p"_s, u"csi 1\"q"_s};
    QTest::newRow("controls inside csi")
        << QByteArray("\x1b[1\n2H") << QStringList{u"exec 0a"_s, u"csi 12H"_s};
    QTest::newRow("CAN and SUB cancel")
        << QByteArray("\x1b[12\x18x\x1b]0;t\x1ay") << QStringList{u"text xy"_s};
    QTest::newRow("three intermediates are not dispatched")
        << QByteArray("\x1b[1 !\"q\x1b(((0z") << QStringList{u"text z"_s};
    QTest::newRow("parameter after intermediate is ignored")
        << QByteArray("\x1b[1 2qk") << QStringList{u"text k"_s};
    QTest::newRow("esc") << QByteArray("\x1b(0\x1b#8\x1b"
                                       "7\x1b"
                                       "c")
                         << QStringList{u"esc (0"_s, u"esc #8"_s, u"esc 7"_s, u"esc c"_s};
    QTest::newRow("osc with BEL and ST")
        << QByteArray("\x1b]0;a title\x07\x1b]2;\xc3\xa9t\xc3\xa9\x1b\\")
        << QStringList{u"osc 0;a title"_s, u"osc 2;été"_s, u"esc \\"_s};
    QTest::newRow("dcs") << QByteArray("\x1bP$qm\x1b\\\x1bP1;2|data\x1b\\")
                         << QStringList{u"dcs $q m"_s, u"esc \\"_s, u"dcs 1;2| data"_s,
                                        u"esc \\"_s};
    QTest::newRow("apc pm sos are skipped")
        << QByteArray("\x1b_hidden\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\ok")
        << QStringList{u"esc \\"_s, u"esc \\"_s, u"esc \\"_s, u"text ok"_s};
    QTest::newRow("utf-8") << u"é中😀x"_s.toUtf8() << QStringList{u"text é中😀x"_s};
    QTest::newRow("broken utf-8")
        << QByteArray("\xff|\xc3(|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe4\xb8")
        << QStringList{u"text \ufffd|\ufffd(|\ufffd\ufffd|\ufffd|\ufffd|"_s};
    QTest::newRow("broken utf-8 before a control")
        << QByteArray("\xe4\xb8\x1b[1m") << QStringList{u"text \ufffd"_s, u"csi 1m"_s};
    QTest::newRow("c1 written as utf-8") << QByteArray("\xc2\x9b"
                                                       "1m\xc2\x9d"
                                                       "0;t\xc2\x9c\xc2\x84")
                                         << QStringList{u"csi 1m"_s, u"osc 0;t"_s, u"exec 84"_s};
    QTest::newRow("raw c1 bytes are broken utf-8") << QByteArray("\x9b"
                                                                 "1m")
                                                   << QStringList{u"text \ufffd1m"_s};
}

void TestVtParser::events() {
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, expected);
    QCOMPARE(parse(bytes), expected);
}

void TestVtParser::cutAnywhereGivesTheSameEvents() {
    const QByteArray bytes = "plain \x1b[38;2;1;2;3mrgb\x1b[0m " + u"中文😀e\u0301"_s.toUtf8() +
                             "\x1b]0;t\xc3\xa9tle\x07\x1bP$qr\x1b\\\xc2\x9b?25l\x1b(0qq\x1b(B" +
                             "\xe4\xb8 broken\r\n";
    const QStringList whole = parse(bytes);
    QVERIFY(whole.contains(u"csi 38;2;1;2;3m"_s));
    for (int piece = 1; piece <= 7; ++piece)
        QCOMPARE(parseInPieces(bytes, piece), whole);
    // And cut once at every position.
    for (qsizetype cut = 1; cut < bytes.size(); ++cut) {
        VtParser parser;
        Recorder recorder;
        parser.feed(bytes.constData(), size_t(cut), recorder);
        parser.feed(bytes.constData() + cut, size_t(bytes.size() - cut), recorder);
        QCOMPARE(recorder.events, whole);
    }
}

void TestVtParser::tooManyParametersAndHugeNumbers() {
    QByteArray many = "\x1b[";
    for (int i = 0; i < 40; ++i)
        many += QByteArray::number(i) + ';';
    many += "m";
    const QStringList events = parse(many + "\x1b[99999999999;7H");
    QCOMPARE(events.size(), 2);
    QStringList first;
    for (int i = 0; i < VtSequence::kMaxParams; ++i)
        first.append(QString::number(i));
    QCOMPARE(events.at(0), u"csi "_s + first.join(QLatin1Char(';')) + u"m"_s);
    QCOMPARE(events.at(1), u"csi 65535;7H"_s);
    // Separators without end do not grow anything.
    QCOMPARE(parse("\x1b[" + QByteArray(100000, ':') + "Hz").last(), u"text z"_s);
}

void TestVtParser::longStringsAreCut() {
    const QByteArray title(VtParser::kMaxString + 100, 'a');
    const QStringList osc = parse("\x1b]2;" + title + "\x07");
    QCOMPARE(osc.size(), 1);
    QCOMPARE(osc.at(0).size(), qsizetype(4 + VtParser::kMaxString));
    // A DCS whose data was cut is not dispatched at all: half a request is no request.
    QCOMPARE(parse("\x1bP$q" + title + "\x1b\\x"), (QStringList{u"esc \\"_s, u"text x"_s}));
}

void TestVtParser::printableRunsComeWhole() {
    // The hot path: a line of text is one call, however long.
    struct Counter final : VtHandler {
        int asciiCalls = 0;
        size_t asciiBytes = 0;
        int otherCalls = 0;
        void printAscii(const char *, size_t length) override {
            ++asciiCalls;
            asciiBytes += length;
        }
        void print(const char32_t *, size_t) override { ++otherCalls; }
        void execute(uint32_t) override {}
        void escDispatch(const VtSequence &) override {}
        void csiDispatch(const VtSequence &) override {}
        void oscDispatch(std::string_view) override {}
        void dcsDispatch(const VtSequence &, std::string_view) override {}
    } counter;
    VtParser parser;
    const QByteArray line = QByteArray(1000, 'x') + "\r\n";
    parser.feed(line.constData(), size_t(line.size()), counter);
    QCOMPARE(counter.asciiCalls, 1);
    QCOMPARE(counter.asciiBytes, size_t(1000));
    const QByteArray cjk = u"中文中文中文"_s.toUtf8();
    parser.feed(cjk.constData(), size_t(cjk.size()), counter);
    QCOMPARE(counter.otherCalls, 1);
}

QTEST_GUILESS_MAIN(TestVtParser)
#include "tst_vtparser.moc"
