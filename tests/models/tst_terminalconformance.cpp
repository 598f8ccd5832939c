// Where libvterm 0.1.4 departed from xterm and the console now follows xterm: saved cursors
// and character sets, the pending wrap across screens, RIS, selective erase, SGR's colon forms
// and underline styles, DECALN, and the reports programs ask for.
#include "models/terminal/terminalemulation.h"

#include <QSignalSpy>
#include <QTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QByteArray esc(const char *sequence) {
    return QByteArray("\x1b") + sequence;
}

// What the emulation answers to bytes the program sent.
QByteArray answerTo(TerminalEmulation &t, const QByteArray &query) {
    QSignalSpy sent(&t, &TerminalEmulation::sendData);
    t.feed(query);
    QByteArray all;
    for (const auto &args : sent)
        all += args.at(0).toByteArray();
    return all;
}

} // namespace

class TestTerminalConformance final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void saveRestoreKeepsCharacterSets();
    void eachScreenHasItsOwnSavedCursor();
    void pendingWrapSurvivesTheAlternateScreen();
    void resetInTheStreamClearsTheScrollback();
    void selectiveEraseKeepsProtectedCells();
    void sgrColonForms_data();
    void sgrColonForms();
    void underlineStyles_data();
    void underlineStyles();
    void screenAlignmentFillsWithE();
    void reportsSettingsAndModes();
    void originModeAndScrollRegion();
    void tabStops();
};

void TestTerminalConformance::saveRestoreKeepsCharacterSets() {
    TerminalEmulation t(20, 3);
    // Saved with ASCII in G0: after line drawing and a restore, text is ASCII again.
    t.feed(esc("7") + esc("(0") + "qq" + esc("8") + esc("[1;3H") + "qq");
    QCOMPARE(t.lineText(0), u"──qq"_s);
    // Saved while drawing lines, restored after switching back: drawing again.
    t.feed("\r\n" + esc("(0") + esc("7") + esc("(B") + "x" + esc("8") + "x");
    QCOMPARE(t.lineText(1), u"│"_s);
    // The shift state too: SO (G1 in GL) saved, SI undone by the restore.
    t.feed(esc("(B") + "\r\n" + esc(")0") + "\x0e" + esc("7") + "\x0f" + "q" + esc("8") + "q");
    QCOMPARE(t.lineText(2), u"─"_s);
}

void TestTerminalConformance::eachScreenHasItsOwnSavedCursor() {
    TerminalEmulation t(20, 12);
    t.feed(esc("[5;5H") + esc("7"));
    t.feed(esc("[?1049h") + esc("[2;2H") + esc("7") + esc("[10;10H") + esc("8"));
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 1);
    t.feed(esc("[?1049l"));
    QCOMPARE(t.cursor().row, 4);
    QCOMPARE(t.cursor().col, 4);
    t.feed(esc("[1;1H") + esc("8")); // the primary screen's own, not the alternate's
    QCOMPARE(t.cursor().row, 4);
    QCOMPARE(t.cursor().col, 4);
    t.feed(esc("[?1049h") + esc("8"));
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 1);
}

void TestTerminalConformance::pendingWrapSurvivesTheAlternateScreen() {
    TerminalEmulation t(10, 4);
    t.feed("0123456789");
    t.feed(esc("[?1049h") + "vim" + esc("[?1049l"));
    t.feed("A");
    QCOMPARE(t.lineText(0), u"0123456789"_s);
    QCOMPARE(t.lineText(1), u"A"_s);
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 1);
}

void TestTerminalConformance::resetInTheStreamClearsTheScrollback() {
    TerminalEmulation t(20, 5);
    QByteArray out;
    for (int i = 0; i < 30; ++i)
        out += "line " + QByteArray::number(i) + "\r\n";
    t.feed(out + esc("[31m") + esc("[?1h") + esc("[3;4r"));
    QVERIFY(t.scrollbackCount() > 0);
    QSignalSpy sent(&t, &TerminalEmulation::sendData);
    t.feed(esc("c") + "x");
    QCOMPARE(t.scrollbackCount(), 0);
    QCOMPARE(t.screenText(), u"x\n\n\n\n"_s);
    QCOMPARE(t.cell(0, 0).fg, TerminalColor::kDefault);
    QVERIFY(!t.applicationCursorKeys());
    QCOMPARE(t.keyPress(Qt::Key_Up, Qt::NoModifier, QString()), esc("[A"));
    QCOMPARE(sent.count(), 0);
    // The region went too: a line feed at the bottom scrolls the whole screen.
    t.feed(esc("[5;1H") + "\n");
    QCOMPARE(t.scrollbackCount(), 1);
}

void TestTerminalConformance::selectiveEraseKeepsProtectedCells() {
    TerminalEmulation t(20, 4);
    const QByteArray line = esc("[1\"q") + "PROT" + esc("[0\"q") + "free" + esc("[2\"q") + "x";
    t.feed(line + "\r\n" + line + "\r\n" + line + "\r\n" + line);
    QVERIFY(t.cell(0, 0).protect);
    QVERIFY(!t.cell(0, 4).protect);
    t.feed(esc("[?2J")); // DECSED
    QCOMPARE(t.lineText(0), u"PROT"_s);
    QCOMPARE(t.lineText(3), u"PROT"_s);
    t.feed(esc("[1;1H") + esc("[1\"q") + "PROT" + esc("[0\"q") + "free");
    t.feed(esc("[1;1H") + esc("[?K")); // DECSEL from the cursor
    QCOMPARE(t.lineText(0), u"PROT"_s);
    // ED and EL erase everything.
    t.feed(esc("[2;1H") + esc("[2K"));
    QCOMPARE(t.lineText(1), QString());
    t.feed(esc("[2J"));
    QCOMPARE(t.screenText(), u"\n\n\n"_s);
}

void TestTerminalConformance::sgrColonForms_data() {
    QTest::addColumn<QByteArray>("sgr");
    QTest::addColumn<uint>("fg");
    QTest::addColumn<uint>("bg");
    QTest::addColumn<uint>("underlineColor");
    const uint def = TerminalColor::kDefault;
    QTest::newRow("38:2 with colour space")
        << QByteArray("38:2:0:10:20:30") << TerminalColor::rgb(10, 20, 30) << def << def;
    QTest::newRow("38:2 empty colour space")
        << QByteArray("38:2::10:20:30") << TerminalColor::rgb(10, 20, 30) << def << def;
    QTest::newRow("38:2 without colour space (xterm)")
        << QByteArray("38:2:10:20:30") << TerminalColor::rgb(10, 20, 30) << def << def;
    QTest::newRow("48:2") << QByteArray("48:2::1:2:3") << def << TerminalColor::rgb(1, 2, 3) << def;
    QTest::newRow("58:2") << QByteArray("4;58:2::4:5:6") << def << def
                          << TerminalColor::rgb(4, 5, 6);
    QTest::newRow("58;2 semicolons")
        << QByteArray("58;2;7;8;9") << def << def << TerminalColor::rgb(7, 8, 9);
    QTest::newRow("colon 256") << QByteArray("38:5:100;48:5:200;58:5:9")
                               << TerminalColor::indexed(100) << TerminalColor::indexed(200)
                               << TerminalColor::indexed(9);
    QTest::newRow("sub-parameters do not leak")
        << QByteArray("38:2::1:2:3:4;32") << TerminalColor::indexed(2) << def << def;
    QTest::newRow("59 resets") << QByteArray("58:5:9;59") << def << def << def;
}

void TestTerminalConformance::sgrColonForms() {
    QFETCH(QByteArray, sgr);
    QFETCH(uint, fg);
    QFETCH(uint, bg);
    QFETCH(uint, underlineColor);
    TerminalEmulation t(20, 2);
    t.feed(esc("[") + sgr + "mX" + esc("[0m") + "Y");
    QCOMPARE(uint(t.cell(0, 0).fg), fg);
    QCOMPARE(uint(t.cell(0, 0).bg), bg);
    QCOMPARE(uint(t.cell(0, 0).underlineColor), underlineColor);
    QCOMPARE(uint(t.cell(0, 1).underlineColor), uint(TerminalColor::kDefault));
}

void TestTerminalConformance::underlineStyles_data() {
    QTest::addColumn<QByteArray>("sgr");
    QTest::addColumn<int>("style");
    QTest::newRow("4") << QByteArray("4") << int(TerminalUnderline::Single);
    QTest::newRow("4:0") << QByteArray("4;4:0") << int(TerminalUnderline::None);
    QTest::newRow("4:1") << QByteArray("4:1") << int(TerminalUnderline::Single);
    QTest::newRow("4:2") << QByteArray("4:2") << int(TerminalUnderline::Double);
    QTest::newRow("21") << QByteArray("21") << int(TerminalUnderline::Double);
    QTest::newRow("4:3") << QByteArray("4:3") << int(TerminalUnderline::Curly);
    QTest::newRow("4:4") << QByteArray("4:4") << int(TerminalUnderline::Dotted);
    QTest::newRow("4:5") << QByteArray("4:5") << int(TerminalUnderline::Dashed);
    QTest::newRow("24") << QByteArray("4:3;24") << int(TerminalUnderline::None);
}

void TestTerminalConformance::underlineStyles() {
    QFETCH(QByteArray, sgr);
    QFETCH(int, style);
    TerminalEmulation t(20, 2);
    t.feed(esc("[") + sgr + "mX");
    QCOMPARE(int(t.cell(0, 0).underline), style);
}

void TestTerminalConformance::screenAlignmentFillsWithE() {
    TerminalEmulation t(6, 3);
    t.feed("ab" + esc("[41;1m") + esc("[2;3r") + esc("#8"));
    QCOMPARE(t.screenText(), u"EEEEEE\nEEEEEE\nEEEEEE"_s);
    const TerminalCell e = t.cell(2, 5);
    QCOMPARE(e.ch, uint(U'E'));
    QCOMPARE(e.bg, TerminalColor::kDefault);
    QVERIFY(!e.bold);
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.cursor().col, 0);
    // The margins are the whole screen again: a line feed at the bottom scrolls all of it.
    t.feed(esc("[3;1H") + "\n");
    QCOMPARE(t.scrollbackCount(), 1);
}

void TestTerminalConformance::reportsSettingsAndModes() {
    TerminalEmulation t(30, 10);
    QCOMPARE(answerTo(t, esc("[1;31;48:2::1:2:3m") + esc("P$qm") + esc("\\")),
             esc("P1$r0;1;31;48:2::1:2:3m") + esc("\\"));
    QCOMPARE(answerTo(t, esc("[3;7r") + esc("P$qr") + esc("\\")), esc("P1$r3;7r") + esc("\\"));
    QCOMPARE(answerTo(t, esc("[6 q") + esc("P$q q") + esc("\\")), esc("P1$r6 q") + esc("\\"));
    QCOMPARE(answerTo(t, esc("P$qx") + esc("\\")), esc("P0$r") + esc("\\"));
    QCOMPARE(answerTo(t, esc("[?2004h") + esc("[?2004$p")), esc("[?2004;1$y"));
    QCOMPARE(answerTo(t, esc("[?2004l") + esc("[?2004$p")), esc("[?2004;2$y"));
    QCOMPARE(answerTo(t, esc("[?7$p")), esc("[?7;1$y"));
    QCOMPARE(answerTo(t, esc("[4$p")), esc("[4;2$y"));
    QCOMPARE(answerTo(t, esc("[?9999$p")), esc("[?9999;0$y"));
    QCOMPARE(answerTo(t, esc("[5n")), esc("[0n"));
    QCOMPARE(answerTo(t, esc("[>c")), esc("[>0;100;0c"));
    QCOMPARE(answerTo(t, esc("[18t")), esc("[8;10;30t"));
}

void TestTerminalConformance::originModeAndScrollRegion() {
    TerminalEmulation t(10, 6);
    t.feed(esc("[2;4r") + esc("[?6h") + esc("[1;1H") + "a" + esc("[9;1H") + "b");
    QCOMPARE(t.lineText(1), u"a"_s); // row 1 of the region is the screen's second
    QCOMPARE(t.lineText(3), u"b"_s); // and it cannot leave the region
    QCOMPARE(answerTo(t, esc("[6n")), esc("[3;2R"));
    t.feed(esc("[?6l") + esc("[1;1H") + "c");
    QCOMPARE(t.lineText(0), u"c"_s);
    // Cursor up and down stop at the margins from inside them.
    t.feed(esc("[3;2H") + esc("[10A") + "u" + esc("[10B") + "d");
    QCOMPARE(t.lineText(1), u"au"_s);
    QCOMPARE(t.lineText(3), u"b d"_s);
}

void TestTerminalConformance::tabStops() {
    TerminalEmulation t(30, 2);
    t.feed("a\tb\tc");
    QCOMPARE(t.lineText(0), u"a       b       c"_s);
    t.feed("\r" + esc("[3g") + esc("[5G") + esc("H") + "\r\tX" + esc("[Z") + "Y");
    QCOMPARE(t.cell(0, 4).ch, uint(U'Y'));
    QCOMPARE(t.cursor().col, 5);
    t.feed("\r\n\t\t\tZ"); // no stops left past column 5: the last column
    QCOMPARE(t.cell(1, 29).ch, uint(U'Z'));
}

QTEST_GUILESS_MAIN(TestTerminalConformance)
#include "tst_terminalconformance.moc"
