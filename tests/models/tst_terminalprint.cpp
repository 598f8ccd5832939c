// The emulation's print path, where runs of text go straight into the cells: the boundaries
// where a run must stop or change course (the right margin, insert mode, character sets, wide
// and combining characters, and feeds that end in the middle of a character or a sequence).
#include "models/terminal/terminalemulation.h"
#include "models/terminal/unicodewidth.h"

#include <QSignalSpy>
#include <QTest>

#include <cstring>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QByteArray esc(const char *sequence) {
    return QByteArray("\x1b") + sequence;
}

QByteArray utf8(const QString &text) {
    return text.toUtf8();
}

// Every cell of both screens' visible rows, bit for bit, with the combining marks and cursor.
bool sameScreen(const TerminalEmulation &a, const TerminalEmulation &b, QString *why) {
    if (a.cursor().row != b.cursor().row || a.cursor().col != b.cursor().col) {
        *why = u"cursor %1,%2 vs %3,%4"_s.arg(a.cursor().row)
                   .arg(a.cursor().col)
                   .arg(b.cursor().row)
                   .arg(b.cursor().col);
        return false;
    }
    if (a.totalLines() != b.totalLines()) {
        *why = u"%1 lines vs %2"_s.arg(a.totalLines()).arg(b.totalLines());
        return false;
    }
    for (int i = 0; i < a.totalLines(); ++i) {
        const TerminalLine la = a.historyLine(i);
        const TerminalLine &lb = b.historyLine(i);
        if (la.cells.size() != lb.cells.size() ||
            std::memcmp(la.cells.data(), lb.cells.data(), la.cells.size() * sizeof(TerminalCell)) !=
                0 ||
            la.combining != lb.combining) {
            *why = u"line %1: '%2' vs '%3'"_s.arg(i).arg(lineToText(la), lineToText(lb));
            return false;
        }
    }
    return true;
}

} // namespace

class TestTerminalPrint final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellWidths_data();
    void cellWidths();
    void autowrapAtTheLastColumn();
    void noAutowrapOverwritesTheLastColumn();
    void controlsAtThePendingWrap();
    void insertModeShiftsTheLine();
    void decSpecialGraphics();
    void shiftsAndSingleShifts();
    void wideCharactersAtTheRightMargin();
    void runsOverwritingHalfAWideCharacter();
    void narrowingCutsAWideCharacterWhole();
    void combiningMarks();
    void repeatRepeatsTheLastCharacter();
    void feedsCutInsideCharactersAndSequences();
    void anyCutGivesTheSameScreen();
};

void TestTerminalPrint::cellWidths_data() {
    QTest::addColumn<uint>("codePoint");
    QTest::addColumn<int>("width");
    QTest::newRow("ascii") << uint(U'a') << 1;
    QTest::newRow("latin-1") << uint(0xe9) << 1;
    QTest::newRow("soft hyphen") << uint(0xad) << 1;
    QTest::newRow("combining acute") << uint(0x301) << 0;
    QTest::newRow("zero width space") << uint(0x200b) << 0;
    QTest::newRow("zero width joiner") << uint(0x200d) << 0;
    QTest::newRow("variation selector 16") << uint(0xfe0f) << 0;
    QTest::newRow("hangul medial vowel") << uint(0x1161) << 0;
    QTest::newRow("box drawing") << uint(0x2500) << 1;
    QTest::newRow("cjk") << uint(0x4e2d) << 2;
    QTest::newRow("hangul syllable") << uint(0xd55c) << 2;
    QTest::newRow("fullwidth A") << uint(0xff21) << 2;
    QTest::newRow("emoji") << uint(0x1f600) << 2;
    QTest::newRow("regional indicator") << uint(0x1f1e6) << 1;
    QTest::newRow("cjk extension b") << uint(0x20000) << 2;
    QTest::newRow("unassigned in plane 3") << uint(0x3fff0) << 2;
    QTest::newRow("language tag") << uint(0xe0001) << 0;
    QTest::newRow("private use") << uint(0xe000) << 1;
}

void TestTerminalPrint::cellWidths() {
    QFETCH(uint, codePoint);
    QFETCH(int, width);
    QCOMPARE(unicodeCellWidth(char32_t(codePoint)), width);
}

void TestTerminalPrint::autowrapAtTheLastColumn() {
    TerminalEmulation t(10, 4);
    t.feed("0123456789");
    QCOMPARE(t.lineText(0), u"0123456789"_s);
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.cursor().col, 9); // on the last column, the wrap pending
    t.feed("A");
    QCOMPARE(t.lineText(0), u"0123456789"_s);
    QCOMPARE(t.lineText(1), u"A"_s);
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 1);
    // One run over several lines, into the scrollback.
    t.feed("\r" + QByteArray("abcdefghijklmnopqrstuvwxyz0123456789"));
    QCOMPARE(t.scrollbackCount(), 1);
    QCOMPARE(t.lineText(0), u"abcdefghij"_s);
    QCOMPARE(t.lineText(2), u"uvwxyz0123"_s);
    QCOMPARE(t.lineText(3), u"456789"_s);
    QCOMPARE(t.cursor().col, 6);
}

void TestTerminalPrint::noAutowrapOverwritesTheLastColumn() {
    TerminalEmulation t(10, 3);
    t.feed(esc("[?7l") + "0123456789XYZ");
    QCOMPARE(t.lineText(0), u"012345678Z"_s);
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.cursor().col, 9);
    t.feed(utf8(u"中"_s)); // a wide character goes where it fits
    QCOMPARE(t.lineText(0), u"01234567中"_s);
    QCOMPARE(t.cursor().row, 0);
    t.feed(esc("[?7h") + "\r\n" + "0123456789" + "!");
    QCOMPARE(t.lineText(2), u"!"_s);
}

void TestTerminalPrint::controlsAtThePendingWrap() {
    TerminalEmulation t(10, 3);
    t.feed("0123456789\rx");
    QCOMPARE(t.lineText(0), u"x123456789"_s);
    QCOMPARE(t.cursor().row, 0);
    t.feed("\r0123456789\bX"); // BS leaves the pending wrap for the column before
    QCOMPARE(t.lineText(0), u"01234567X9"_s);
    t.feed("\r0123456789" + esc("[1;5H") + "Y");
    QCOMPARE(t.lineText(0), u"0123Y56789"_s);
    QCOMPARE(t.cursor().row, 0);
}

void TestTerminalPrint::insertModeShiftsTheLine() {
    TerminalEmulation t(10, 3);
    t.feed("abcdef" + esc("[1;3H") + esc("[4h") + "XY");
    QCOMPARE(t.lineText(0), u"abXYcdef"_s);
    QCOMPARE(t.cursor().col, 4);
    // At the margin the end of the line falls off.
    t.feed("\r\n0123456789" + esc("[2;1H") + "ab");
    QCOMPARE(t.lineText(1), u"ab01234567"_s);
    t.feed(utf8(u"中"_s));
    QCOMPARE(t.lineText(1), u"ab中012345"_s);
    t.feed(esc("[4l") + "zz");
    QCOMPARE(t.lineText(1), u"ab中zz2345"_s);
}

void TestTerminalPrint::decSpecialGraphics() {
    TerminalEmulation t(20, 3);
    t.feed(esc("(0") + "lqqk" + esc("(B") + "lqqk");
    QCOMPARE(t.lineText(0), u"┌──┐lqqk"_s);
    t.feed("\r\n" + esc("(0") + "xa`~_" + esc("(B"));
    QCOMPARE(t.lineText(1), u"│▒◆·\u00a0"_s);
    t.feed("\r\n" + esc("(A") + "#1" + esc("(B") + "#");
    QCOMPARE(t.lineText(2), u"£1#"_s);
}

void TestTerminalPrint::shiftsAndSingleShifts() {
    TerminalEmulation t(20, 2);
    t.feed(esc(")0") + "\x0eqq\x0fqq");
    QCOMPARE(t.lineText(0), u"──qq"_s);
    t.feed(esc("*0") + esc("N") + "qq" + esc("+0") + "\x1bOjj"); // SS2, SS3: one character
    QCOMPARE(t.lineText(0), u"──qq─q┘j"_s);
    t.feed("\r\n" + esc("*0") + esc("n") + "mq" + esc("+B") + esc("o") + "mq" + "\x0f" + "mq");
    QCOMPARE(t.lineText(1), u"└─mqmq"_s);
}

void TestTerminalPrint::wideCharactersAtTheRightMargin() {
    TerminalEmulation t(10, 4);
    t.feed("012345678" + utf8(u"中x"_s)); // no room on the last column: it wraps whole
    QCOMPARE(t.lineText(0), u"012345678"_s);
    QCOMPARE(t.lineText(1), u"中x"_s);
    QVERIFY(t.cell(1, 0).wide);
    QVERIFY(t.cell(1, 1).continuation);
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 3);
    // Exactly filling the line leaves the wrap pending, as for any character.
    t.feed("\r\n01234567" + utf8(u"中"_s));
    QCOMPARE(t.lineText(2), u"01234567中"_s);
    QCOMPARE(t.cursor().row, 2);
    QCOMPARE(t.cursor().col, 9);
    t.feed("y");
    QCOMPARE(t.lineText(3), u"y"_s);
    QCOMPARE(t.lineText(2), u"01234567中"_s);
}

void TestTerminalPrint::runsOverwritingHalfAWideCharacter() {
    TerminalEmulation t(10, 3);
    t.feed(utf8(u"中文中"_s) + esc("[1;2H") + "xyz");
    QCOMPARE(t.lineText(0), u" xyz中"_s);
    QVERIFY(!t.cell(0, 0).wide);
    QVERIFY(!t.cell(0, 4).continuation);
    QVERIFY(t.cell(0, 4).wide);
    t.feed("\r\n" + utf8(u"中文中"_s) + "\rabc");
    QCOMPARE(t.lineText(1), u"abc 中"_s);
    QVERIFY(!t.cell(1, 3).continuation);
    t.feed("\r\n" + utf8(u"中文"_s) + "\r" + utf8(u"é"_s));
    QCOMPARE(t.lineText(2), u"é 文"_s);
    // The half left blank loses its marks with it: a new mark later is the only one.
    t.feed("\r" + utf8(u"中\u20dd"_s) + "\b" + "y" + esc("[3;1H") + "z" + utf8(u"\u0301"_s));
    QCOMPARE(t.cellText(2, 0), u"z\u0301"_s);
    QCOMPARE(t.lineText(2), u"z\u0301y文"_s);
}

void TestTerminalPrint::narrowingCutsAWideCharacterWhole() {
    TerminalEmulation t(10, 3);
    t.feed("0123" + utf8(u"中\u20dd"_s));
    t.resize(5, 3); // the second half is cut off: the first goes too, with its mark
    QCOMPARE(t.lineText(0), u"0123"_s);
    QVERIFY(!t.cell(0, 4).wide);
    t.resize(10, 3);
    QVERIFY(!t.cell(0, 4).wide);
    QCOMPARE(t.lineText(0), u"0123"_s);
    t.feed(esc("[1;5H") + "x" + utf8(u"\u0301"_s));
    QCOMPARE(t.cellText(0, 4), u"x\u0301"_s);
}

void TestTerminalPrint::combiningMarks() {
    TerminalEmulation t(10, 4);
    t.feed("abc");
    t.feed(utf8(u"\u0301"_s)); // in a feed of its own, still on the c
    QCOMPARE(t.cellText(0, 2), u"c\u0301"_s);
    QCOMPARE(t.cursor().col, 3);
    // On the last column, with the wrap pending.
    t.feed("\r\n012345678e" + utf8(u"\u0308\u0323"_s));
    QCOMPARE(t.cellText(1, 9), u"e\u0308\u0323"_s);
    t.feed("x");
    QCOMPARE(t.lineText(2), u"x"_s);
    // On a wide character; after a cursor move there is nothing to join.
    t.feed(utf8(u"中\u20dd"_s) + esc("[3;8H") + utf8(u"\u0301"_s));
    QCOMPARE(t.cellText(2, 1), u"中\u20dd"_s);
    QCOMPARE(t.lineText(2), u"x中\u20dd"_s);
    // Bounded however many come.
    t.feed("\r\nq" + utf8(QString(100, QChar(0x0301))));
    QVERIFY(t.cellText(3, 0).size() <= 8);
    QVERIFY(t.cellText(3, 0).startsWith(QLatin1Char('q')));
}

void TestTerminalPrint::repeatRepeatsTheLastCharacter() {
    TerminalEmulation t(10, 3);
    t.feed("ab" + esc("[3b") + "\r\n" + utf8(u"中"_s) + esc("[2b"));
    QCOMPARE(t.lineText(0), u"abbbb"_s);
    QCOMPARE(t.lineText(1), u"中中中"_s);
    t.feed("\r\n" + esc("[1000b"));
    QCOMPARE(t.cursor().row, 2); // bounded: at most a screenful
}

void TestTerminalPrint::feedsCutInsideCharactersAndSequences() {
    TerminalEmulation t(20, 3);
    QSignalSpy title(&t, &TerminalEmulation::titleChanged);
    const QByteArray han = utf8(u"中"_s);
    t.feed(han.left(1));
    t.feed(han.mid(1, 1));
    t.feed(han.mid(2) + "\x1b");
    t.feed("[3");
    t.feed("1mX\x1b]0;ti");
    t.feed("tle\x07");
    const QByteArray emoji = utf8(u"😀"_s);
    t.feed(emoji.left(2));
    t.feed(emoji.mid(2) + "\x1b[38:2::");
    t.feed("1:2:3mY");
    QCOMPARE(t.lineText(0), u"中X😀Y"_s);
    QVERIFY(t.cell(0, 0).wide);
    QCOMPARE(t.cell(0, 2).fg, TerminalColor::indexed(1));
    QVERIFY(t.cell(0, 3).wide);
    QCOMPARE(t.cell(0, 5).fg, TerminalColor::rgb(1, 2, 3));
    QCOMPARE(title.count(), 1);
    QCOMPARE(t.title(), u"title"_s);
}

void TestTerminalPrint::anyCutGivesTheSameScreen() {
    QByteArray stream;
    for (int i = 0; i < 12; ++i)
        stream += "line " + QByteArray::number(i) + esc("[1;3") + QByteArray::number(i % 8) +
                  "mcolour" + esc("[0m ") + utf8(u"中文 e\u0301 😀"_s) + esc("(0") + "qx" +
                  esc("(B") + "\r\n";
    stream += esc("[4h") + "ins" + esc("[4l") + esc("[2;5H") + esc("[2P") + "0123456789012345";
    TerminalEmulation whole(16, 6);
    whole.feed(stream);
    for (int piece = 1; piece <= 9; ++piece) {
        TerminalEmulation cut(16, 6);
        for (qsizetype at = 0; at < stream.size(); at += piece)
            cut.feed(stream.mid(at, piece));
        QString why;
        QVERIFY2(sameScreen(cut, whole, &why), qPrintable(u"piece %1: "_s.arg(piece) + why));
    }
}

QTEST_GUILESS_MAIN(TestTerminalPrint)
#include "tst_terminalprint.moc"
