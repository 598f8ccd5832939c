#include "models/terminal/terminalemulation.h"

#include <QSignalSpy>
#include <QTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {
QByteArray esc(const char *sequence) {
    return QByteArray("\x1b") + sequence;
}
} // namespace

class TestTerminalEmulation final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plainTextAndCursor();
    void coloursAndAttributes_data();
    void coloursAndAttributes();
    void cursorPositionShapeAndVisibility();
    void wideAndCombiningCharacters();
    void scrollRegionMovesOnlyItsLines();
    void insertAndDeleteCharacters();
    void alternateScreenRestoresPrimary();
    void scrollbackKeepsLinesAndRespectsLimit();
    void resizeCutsLinesAndKeepsContent();
    void shrinkingRowsMovesTopLinesToScrollback();
    void shrinkingRowsKeepsTheCursorOnScreen();
    void restoredCursorStaysInsideAShrunkScreen();
    void cursorStaysInsideAfterShrinkingToOneCell();
    void tooManyCsiArgumentsDoNotCrash();
    void repeatBeforeAnyCharacterReturns();
    void titleAndBellSignals();
    void answersDeviceQueries();
    void screenChangedOncePerFeed();
    void eachReaderTakesItsOwnDamage();
    void keys_data();
    void keys();
    void applicationCursorKeys();
    void pasteWithAndWithoutBracketedMode();
    void mouseReportsOnlyWhenAsked();
};

void TestTerminalEmulation::plainTextAndCursor() {
    TerminalEmulation t(20, 5);
    t.feed("hello\r\nworld");
    QCOMPARE(t.lineText(0), u"hello"_s);
    QCOMPARE(t.lineText(1), u"world"_s);
    QCOMPARE(t.screenText(), u"hello\nworld\n\n\n"_s);
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 5);
    t.feed("\r" + esc("[K") + "x");
    QCOMPARE(t.lineText(1), u"x"_s);
    t.feed(esc("[2J"));
    QCOMPARE(t.lineText(0), QString());
}

void TestTerminalEmulation::coloursAndAttributes_data() {
    QTest::addColumn<QByteArray>("sgr");
    QTest::addColumn<uint>("fg");
    QTest::addColumn<uint>("bg");
    QTest::addColumn<QString>("attrs");
    QTest::newRow("default") << QByteArray("0") << TerminalColor::kDefault
                             << TerminalColor::kDefault << QString();
    QTest::newRow("16 fg") << QByteArray("31") << TerminalColor::indexed(1)
                           << TerminalColor::kDefault << QString();
    QTest::newRow("16 bright fg, bg") << QByteArray("91;42") << TerminalColor::indexed(9)
                                      << TerminalColor::indexed(2) << QString();
    QTest::newRow("256") << QByteArray("38;5;196;48;5;21") << TerminalColor::indexed(196)
                         << TerminalColor::indexed(21) << QString();
    QTest::newRow("truecolor") << QByteArray("38;2;10;20;30;48;2;200;100;50")
                               << TerminalColor::rgb(10, 20, 30) << TerminalColor::rgb(200, 100, 50)
                               << QString();
    QTest::newRow("bold italic") << QByteArray("1;3") << TerminalColor::kDefault
                                 << TerminalColor::kDefault << u"bi"_s;
    QTest::newRow("underline inverse strike")
        << QByteArray("4;7;9") << TerminalColor::kDefault << TerminalColor::kDefault << u"usr"_s;
}

void TestTerminalEmulation::coloursAndAttributes() {
    QFETCH(QByteArray, sgr);
    QFETCH(uint, fg);
    QFETCH(uint, bg);
    QFETCH(QString, attrs);
    TerminalEmulation t(20, 3);
    t.feed(esc("[") + sgr + "mX" + esc("[0m") + "Y");
    const TerminalCell x = t.cell(0, 0);
    QCOMPARE(x.ch, uint(U'X'));
    QCOMPARE(x.fg, fg);
    QCOMPARE(x.bg, bg);
    QString got;
    if (x.bold)
        got += QLatin1Char('b');
    if (x.italic)
        got += QLatin1Char('i');
    if (x.underline)
        got += QLatin1Char('u');
    if (x.strike)
        got += QLatin1Char('s');
    if (x.inverse)
        got += QLatin1Char('r');
    QCOMPARE(got, attrs);
    const TerminalCell y = t.cell(0, 1);
    QCOMPARE(y.fg, TerminalColor::kDefault);
    QVERIFY(!y.bold && !y.inverse);
}

void TestTerminalEmulation::cursorPositionShapeAndVisibility() {
    TerminalEmulation t(20, 10);
    t.feed(esc("[5;10H"));
    QCOMPARE(t.cursor().row, 4);
    QCOMPARE(t.cursor().col, 9);
    QCOMPARE(t.cursor().shape, TerminalCursorShape::Block);
    t.feed(esc("[6 q"));
    QCOMPARE(t.cursor().shape, TerminalCursorShape::Bar);
    QVERIFY(!t.cursor().blink);
    t.feed(esc("[3 q"));
    QCOMPARE(t.cursor().shape, TerminalCursorShape::Underline);
    QVERIFY(t.cursor().blink);
    QVERIFY(t.cursor().visible);
    t.feed(esc("[?25l"));
    QVERIFY(!t.cursor().visible);
    t.feed(esc("[?25h"));
    QVERIFY(t.cursor().visible);
}

void TestTerminalEmulation::wideAndCombiningCharacters() {
    TerminalEmulation t(20, 3);
    t.feed(u"中a😀b"_s.toUtf8());
    QCOMPARE(t.cell(0, 0).ch, uint(0x4e2d));
    QVERIFY(t.cell(0, 0).wide);
    QVERIFY(t.cell(0, 1).continuation);
    QCOMPARE(t.cell(0, 2).ch, uint(U'a'));
    QCOMPARE(t.cell(0, 3).ch, uint(0x1f600));
    QVERIFY(t.cell(0, 4).continuation);
    QCOMPARE(t.cell(0, 5).ch, uint(U'b'));
    QCOMPARE(t.cursor().col, 6);
    QCOMPARE(t.lineText(0), u"中a😀b"_s);

    t.feed("\r\ne\xcc\x81x"); // e + COMBINING ACUTE ACCENT
    QCOMPARE(t.cellText(1, 0), u"e\u0301"_s);
    QCOMPARE(t.cell(1, 1).ch, uint(U'x'));
    QCOMPARE(t.lineText(1), u"e\u0301x"_s);

    // Overwriting the second half of a wide glyph blanks its first half.
    t.feed(esc("[1;2H") + "Z");
    QCOMPARE(t.lineText(0), u" Za😀b"_s);
}

void TestTerminalEmulation::scrollRegionMovesOnlyItsLines() {
    TerminalEmulation t(10, 6);
    t.feed("l1\r\nl2\r\nl3\r\nl4\r\nl5\r\nl6");
    t.feed(esc("[2;4r") + esc("[4;1H") + "\n\n");
    QCOMPARE(t.screenText(), u"l1\nl4\n\n\nl5\nl6"_s);
    QCOMPARE(t.scrollbackCount(), 0);
    // Reverse index at the region's top scrolls it down.
    t.feed(esc("[2;1H") + esc("M") + esc("M"));
    QCOMPARE(t.screenText(), u"l1\n\n\nl4\nl5\nl6"_s);
    t.feed(esc("[r"));
}

void TestTerminalEmulation::insertAndDeleteCharacters() {
    TerminalEmulation t(10, 3);
    t.feed("abcdef" + esc("[1;3H") + esc("[2@"));
    QCOMPARE(t.lineText(0), u"ab  cdef"_s);
    t.feed(esc("[3P"));
    QCOMPARE(t.lineText(0), u"abdef"_s);
    t.feed("\r\n12345" + esc("[2;2H") + esc("[1L"));
    QCOMPARE(t.lineText(1), QString());
    QCOMPARE(t.lineText(2), u"12345"_s);
}

void TestTerminalEmulation::alternateScreenRestoresPrimary() {
    TerminalEmulation t(20, 4);
    t.feed("primary\r\nshell$ ");
    t.feed(esc("[?1049h"));
    QVERIFY(t.altScreen());
    QCOMPARE(t.screenText(), u"\n\n\n"_s);
    t.feed(esc("[H") + "vim\r\n1\r\n2\r\n3\r\n4\r\n5");
    QCOMPARE(t.scrollbackCount(), 0); // the alternate screen keeps none
    QCOMPARE(t.lineText(3), u"5"_s);
    t.feed(esc("[?1049l"));
    QVERIFY(!t.altScreen());
    QCOMPARE(t.lineText(0), u"primary"_s);
    QCOMPARE(t.lineText(1), u"shell$"_s);
    QCOMPARE(t.cursor().row, 1);
    QCOMPARE(t.cursor().col, 7);
    QCOMPARE(t.scrollbackCount(), 0);
}

void TestTerminalEmulation::scrollbackKeepsLinesAndRespectsLimit() {
    TerminalEmulation t(20, 5);
    QByteArray out;
    for (int i = 1; i <= 20; ++i)
        out += "line" + QByteArray::number(i) + "\r\n";
    t.feed(out);
    QCOMPARE(t.scrollbackCount(), 16);
    QCOMPARE(t.historyLineText(0), u"line1"_s);
    QCOMPARE(t.historyLineText(15), u"line16"_s);
    QCOMPARE(t.lineText(0), u"line17"_s);
    QCOMPARE(t.lineText(4), QString());

    t.setScrollbackLimit(10);
    QCOMPARE(t.scrollbackCount(), 10);
    QCOMPARE(t.historyLineText(0), u"line7"_s);
    out.clear();
    for (int i = 21; i <= 100; ++i)
        out += "line" + QByteArray::number(i) + "\r\n";
    t.feed(out);
    QCOMPARE(t.scrollbackCount(), 10);
    QCOMPARE(t.historyLineText(0), u"line87"_s);
    QCOMPARE(t.lineText(3), u"line100"_s);
    QCOMPARE(t.droppedLines(), int64_t(86));
}

void TestTerminalEmulation::resizeCutsLinesAndKeepsContent() {
    TerminalEmulation t(10, 3);
    t.feed("abcdefghij\r\nxy");
    t.resize(5, 3);
    QCOMPARE(t.columns(), 5);
    QCOMPARE(t.lineText(0), u"abcde"_s);
    QCOMPARE(t.lineText(1), u"xy"_s);
    t.resize(12, 3);
    QCOMPARE(t.lineText(0), u"abcde"_s);
    t.feed("\r" + esc("[12C") + "z");
    QCOMPARE(t.cell(1, 11).ch, uint(U'z'));
}

void TestTerminalEmulation::shrinkingRowsMovesTopLinesToScrollback() {
    TerminalEmulation t(10, 6);
    t.feed("a\r\nb\r\nc\r\nd");
    t.resize(10, 3); // two blank rows below the cursor go first, then "a" scrolls off
    QCOMPARE(t.screenText(), u"b\nc\nd"_s);
    QCOMPARE(t.scrollbackCount(), 1);
    QCOMPARE(t.cursor().row, 2);
    t.resize(10, 5); // growing pulls it back
    QCOMPARE(t.screenText(), u"a\nb\nc\nd\n"_s);
    QCOMPARE(t.cursor().row, 3);
}

void TestTerminalEmulation::shrinkingRowsKeepsTheCursorOnScreen() {
    // Found by fuzz_terminalemulation: with text below the cursor, top rows left until the
    // cursor row was above the screen (row -3 here).
    TerminalEmulation t(10, 6);
    t.feed("a\r\nb\r\nc\r\nd\r\ne\r\nf" + esc("[2;1H"));
    t.resize(10, 2); // "a" scrolls off as far as the cursor allows, "d" to "f" go
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.screenText(), u"b\nc"_s);
    QCOMPARE(t.scrollbackCount(), 1);
    // The alternate screen has no scrollback: rows below the cursor go.
    t.feed(esc("[?1049h") + "x\r\ny" + esc("[1;1H"));
    t.resize(10, 1);
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.screenText(), u"x"_s);
    // The primary screen, hidden meanwhile, kept its last lines.
    t.feed(esc("[?1049l"));
    QCOMPARE(t.screenText(), u"c"_s);
}

void TestTerminalEmulation::cursorStaysInsideAfterShrinkingToOneCell() {
    // Found by fuzz_terminalemulation: a line feed and a C1 control (U+0093), then a resize to
    // one cell, left the cursor at column -1 until the next output.
    TerminalEmulation t(80, 24);
    t.feed("\x0c\xc2\x93");
    t.resize(1, 1);
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.cursor().col, 0);
    t.resize(20, 5);
    QVERIFY(t.cursor().row >= 0 && t.cursor().row < 5);
    QVERIFY(t.cursor().col >= 0 && t.cursor().col < 20);
}

void TestTerminalEmulation::tooManyCsiArgumentsDoNotCrash() {
    // Found by fuzz_terminalemulation: libvterm 0.1.4 writes past its 16 CSI arguments, so
    // printing ESC [ and 17 separators crashed the console.
    TerminalEmulation t(40, 5);
    t.feed(esc("[") + QByteArray(17, ';') + "m" + esc("[") + QByteArray(4000, ':') + "H");
    t.feed("\xc2\x9b" + QByteArray(100, ';') + "Kok");
    // Split across feeds, and a CSI cancelled by CAN, then ordinary output.
    t.feed(esc("[") + QByteArray(10, ';'));
    t.feed(QByteArray(30, ';') + "\x18" + "after");
    QVERIFY2(t.screenText().contains(u"okafter"_s), qPrintable(t.screenText()));
    // Ordinary sequences with many arguments still work.
    t.feed(esc("[2J") + esc("[3;7H") + esc("[0;1;4;38;2;10;20;30;48;2;40;50;60m") + "x");
    QCOMPARE(t.cursor().row, 2);
    QCOMPARE(t.cursor().col, 7);
    QVERIFY(t.cell(2, 6).bold);
}

void TestTerminalEmulation::restoredCursorStaysInsideAShrunkScreen() {
    // Found by fuzz_terminalemulation: libvterm restores a saved cursor unclamped after a
    // shrink, so the cursor was drawn at column 1 of a one-column screen, or below the last row.
    TerminalEmulation t(80, 24);
    t.feed("[" + esc("[?1049h"));
    t.resize(1, 5);
    t.feed(esc("[?1049l"));
    QCOMPARE(t.cursor().row, 0);
    QCOMPARE(t.cursor().col, 0);
    t.resize(80, 24);
    t.feed(esc("[20;70H") + esc("7"));
    t.resize(10, 5);
    t.feed(esc("8"));
    QCOMPARE(t.cursor().row, 4);
    QCOMPARE(t.cursor().col, 9);
}

void TestTerminalEmulation::repeatBeforeAnyCharacterReturns() {
    // Found by fuzz_terminalemulation: libvterm looped forever on REP before its first glyph,
    // so a program printing ESC [ b first froze the console.
    // (It now repeats a space: xterm would repeat nothing.)
    TerminalEmulation t(20, 3);
    t.feed(esc("[b") + esc("[5b"));
    QCOMPARE(t.screenText().trimmed(), QString());
    QCOMPARE(t.cursor().row, 0);
    t.feed("\rab" + esc("[2b"));
    QCOMPARE(t.lineText(0), u"abbb"_s);
    t.reset(); // libvterm keeps the last glyph over a reset, so this repeats "b", and returns
    t.feed(esc("[b") + "x");
    QVERIFY(t.lineText(0).endsWith(QLatin1Char('x')));
}

void TestTerminalEmulation::titleAndBellSignals() {
    TerminalEmulation t(20, 3);
    QSignalSpy title(&t, &TerminalEmulation::titleChanged);
    QSignalSpy bell(&t, &TerminalEmulation::bell);
    t.feed(esc("]0;my title\a"));
    QCOMPARE(title.count(), 1);
    QCOMPARE(title.at(0).at(0).toString(), u"my title"_s);
    QCOMPARE(t.title(), u"my title"_s);
    QCOMPARE(bell.count(), 0);
    t.feed("\a");
    QCOMPARE(bell.count(), 1);
}

void TestTerminalEmulation::answersDeviceQueries() {
    TerminalEmulation t(20, 5);
    QSignalSpy sent(&t, &TerminalEmulation::sendData);
    t.feed(esc("[3;4H") + esc("[6n"));
    QCOMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(0).toByteArray(), esc("[3;4R"));
    t.feed(esc("[c"));
    QCOMPARE(sent.count(), 2);
    QVERIFY(sent.at(1).at(0).toByteArray().startsWith(esc("[?")));
}

void TestTerminalEmulation::screenChangedOncePerFeed() {
    TerminalEmulation t(80, 24);
    QSignalSpy changed(&t, &TerminalEmulation::screenChanged);
    QByteArray burst;
    for (int i = 0; i < 5000; ++i)
        burst += "some output line " + QByteArray::number(i) + "\r\n";
    t.feed(burst);
    QCOMPARE(changed.count(), 1);
    QVERIFY(t.takeDamage().full);
    t.feed(esc("[24;1H") + "x");
    QCOMPARE(changed.count(), 2);
    const TerminalDamage damage = t.takeDamage();
    QVERIFY(!damage.full);
    QCOMPARE(damage.rows[23], uint8_t(1));
    QCOMPARE(damage.rows[0], uint8_t(0));
    t.feed(QByteArray());
    QCOMPARE(changed.count(), 2);
}

void TestTerminalEmulation::eachReaderTakesItsOwnDamage() {
    // Two views of one session: the one that repaints first must not take the other's damage.
    TerminalEmulation t(80, 24);
    TerminalDamageMark first;
    TerminalDamageMark second;
    QVERIFY(t.takeDamage(first).full);
    t.feed(esc("[3;1H") + "a");
    const TerminalDamage firstDamage = t.takeDamage(first);
    QVERIFY(!firstDamage.full);
    QCOMPARE(firstDamage.rows[2], uint8_t(1));
    QCOMPARE(t.takeDamage(first).rows[2], uint8_t(0)); // taken
    t.feed(esc("[5;1H") + "b");
    const TerminalDamage secondDamage = t.takeDamage(second);
    QVERIFY(secondDamage.full); // a new reader paints everything once
    const TerminalDamage later = t.takeDamage(first);
    QVERIFY(!later.full);
    QCOMPARE(later.rows[4], uint8_t(1));
    QCOMPARE(later.rows[0], uint8_t(0)); // what the first reader took stays taken
    t.feed(esc("[7;1H") + "c");
    QCOMPARE(t.takeDamage(second).rows[6], uint8_t(1));
    QCOMPARE(t.takeDamage(first).rows[6], uint8_t(1));
    t.resize(60, 20);
    QVERIFY(t.takeDamage(first).full);
    QVERIFY(t.takeDamage(second).full);
}

void TestTerminalEmulation::keys_data() {
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("mods");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("bytes");
    const int none = Qt::NoModifier;
    QTest::newRow("letter") << int(Qt::Key_A) << none << u"a"_s << QByteArray("a");
    QTest::newRow("utf-8") << int(Qt::Key_unknown) << none << u"é"_s << QByteArray("\xc3\xa9");
    QTest::newRow("enter") << int(Qt::Key_Return) << none << u"\r"_s << QByteArray("\r");
    QTest::newRow("backspace") << int(Qt::Key_Backspace) << none << u"\b"_s << QByteArray("\x7f");
    QTest::newRow("tab") << int(Qt::Key_Tab) << none << u"\t"_s << QByteArray("\t");
    QTest::newRow("backtab") << int(Qt::Key_Backtab) << int(Qt::ShiftModifier) << QString()
                             << esc("[Z");
    QTest::newRow("escape") << int(Qt::Key_Escape) << none << QString() << esc("");
    QTest::newRow("ctrl+c") << int(Qt::Key_C) << int(Qt::ControlModifier) << u"\x03"_s
                            << QByteArray("\x03");
    QTest::newRow("ctrl+shift+a") << int(Qt::Key_A) << int(Qt::ControlModifier | Qt::ShiftModifier)
                                  << u"\x01"_s << QByteArray("\x01");
    QTest::newRow("ctrl+[") << int(Qt::Key_BracketLeft) << int(Qt::ControlModifier) << QString()
                            << esc("");
    QTest::newRow("ctrl+space") << int(Qt::Key_Space) << int(Qt::ControlModifier) << QString()
                                << QByteArray(1, '\0');
    QTest::newRow("alt+x") << int(Qt::Key_X) << int(Qt::AltModifier) << u"x"_s << esc("x");
    QTest::newRow("ctrl+alt+c") << int(Qt::Key_C) << int(Qt::ControlModifier | Qt::AltModifier)
                                << QString() << esc("\x03");
    QTest::newRow("up") << int(Qt::Key_Up) << none << QString() << esc("[A");
    QTest::newRow("ctrl+left") << int(Qt::Key_Left) << int(Qt::ControlModifier) << QString()
                               << esc("[1;5D");
    QTest::newRow("home") << int(Qt::Key_Home) << none << QString() << esc("[H");
    QTest::newRow("end") << int(Qt::Key_End) << none << QString() << esc("[F");
    QTest::newRow("insert") << int(Qt::Key_Insert) << none << QString() << esc("[2~");
    QTest::newRow("delete") << int(Qt::Key_Delete) << none << QString() << esc("[3~");
    QTest::newRow("pgup") << int(Qt::Key_PageUp) << none << QString() << esc("[5~");
    QTest::newRow("pgdn") << int(Qt::Key_PageDown) << none << QString() << esc("[6~");
    QTest::newRow("f1") << int(Qt::Key_F1) << none << QString() << esc("OP");
    QTest::newRow("f5") << int(Qt::Key_F5) << none << QString() << esc("[15~");
    QTest::newRow("f12") << int(Qt::Key_F12) << none << QString() << esc("[24~");
    QTest::newRow("keypad 5") << int(Qt::Key_5) << int(Qt::KeypadModifier) << u"5"_s
                              << QByteArray("5");
    QTest::newRow("shift only") << int(Qt::Key_Shift) << int(Qt::ShiftModifier) << QString()
                                << QByteArray();
}

void TestTerminalEmulation::keys() {
    QFETCH(int, key);
    QFETCH(int, mods);
    QFETCH(QString, text);
    QFETCH(QByteArray, bytes);
    TerminalEmulation t(80, 24);
    QCOMPARE(t.keyPress(key, Qt::KeyboardModifiers(mods), text), bytes);
}

void TestTerminalEmulation::applicationCursorKeys() {
    TerminalEmulation t(80, 24);
    QVERIFY(!t.applicationCursorKeys());
    QCOMPARE(t.keyPress(Qt::Key_Up, Qt::NoModifier, QString()), esc("[A"));
    t.feed(esc("[?1h"));
    QVERIFY(t.applicationCursorKeys());
    QCOMPARE(t.keyPress(Qt::Key_Up, Qt::NoModifier, QString()), esc("OA"));
    QCOMPARE(t.keyPress(Qt::Key_Left, Qt::NoModifier, QString()), esc("OD"));
    // Application keypad (DECKPAM) changes the keypad, not the digits row.
    t.feed(esc("="));
    QCOMPARE(t.keyPress(Qt::Key_5, Qt::KeypadModifier, u"5"_s), esc("Ou"));
    QCOMPARE(t.keyPress(Qt::Key_5, Qt::NoModifier, u"5"_s), QByteArray("5"));
    t.feed(esc("[?1l"));
    QCOMPARE(t.keyPress(Qt::Key_Up, Qt::NoModifier, QString()), esc("[A"));
}

void TestTerminalEmulation::pasteWithAndWithoutBracketedMode() {
    TerminalEmulation t(80, 24);
    QVERIFY(!t.bracketedPaste());
    QCOMPARE(t.paste(u"ls\nps\r\n"_s), QByteArray("ls\rps\r"));
    t.feed(esc("[?2004h"));
    QVERIFY(t.bracketedPaste());
    QCOMPARE(t.paste(u"a\nb"_s), esc("[200~") + "a\rb" + esc("[201~"));
    // An ESC inside cannot close the bracket early.
    QCOMPARE(t.paste(u"x\x1b[201~y"_s), esc("[200~") + "x[201~y" + esc("[201~"));
    t.feed(esc("[?2004l"));
    QVERIFY(!t.bracketedPaste());
}

void TestTerminalEmulation::mouseReportsOnlyWhenAsked() {
    TerminalEmulation t(80, 24);
    QCOMPARE(t.mouseMode(), TerminalMouseMode::None);
    QVERIFY(t.mouseButton(1, true, 2, 3, Qt::NoModifier).isEmpty());
    t.feed(esc("[?1000h") + esc("[?1006h"));
    QCOMPARE(t.mouseMode(), TerminalMouseMode::Click);
    QCOMPARE(t.mouseButton(1, true, 2, 3, Qt::NoModifier), esc("[<0;4;3M"));
    QCOMPARE(t.mouseButton(1, false, 2, 3, Qt::NoModifier), esc("[<0;4;3m"));
    t.feed(esc("[?1000l"));
    QCOMPARE(t.mouseMode(), TerminalMouseMode::None);
}

QTEST_GUILESS_MAIN(TestTerminalEmulation)
#include "tst_terminalemulation.moc"
