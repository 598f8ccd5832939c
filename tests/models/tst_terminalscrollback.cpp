// The compact scrollback: lines that leave the screen read back exactly as they were shown.
#include "models/terminal/compactline.h"
#include "models/terminal/linering.h"
#include "models/terminal/terminalemulation.h"

#include <QTest>

#include <cstring>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QByteArray esc(const char *sequence) {
    return QByteArray("\x1b") + sequence;
}

bool sameCells(const TerminalLine &a, const TerminalLine &b, QString *why) {
    if (a.cells.size() != b.cells.size()) {
        *why = u"width %1 vs %2"_s.arg(a.cells.size()).arg(b.cells.size());
        return false;
    }
    for (size_t i = 0; i < a.cells.size(); ++i) {
        // Every bit counts (the cell has no padding): character, flags and both colours.
        if (std::memcmp(&a.cells[i], &b.cells[i], sizeof(TerminalCell)) != 0) {
            *why = u"cell %1 differs"_s.arg(i);
            return false;
        }
    }
    if (a.combining != b.combining) {
        *why = u"combining marks differ"_s;
        return false;
    }
    return true;
}

#define COMPARE_LINES(actual, expected)                                                            \
    do {                                                                                           \
        QString why;                                                                               \
        QVERIFY2(sameCells(actual, expected, &why), qPrintable(why));                              \
    } while (false)

// One screen of everything a cell can hold.
QByteArray richScreen() {
    QByteArray out;
    out += "plain text" + esc("[K") + "\r\n";
    out += esc("[31mred") + esc("[1;38;5;208mbold256") + esc("[0;38;2;1;2;3mrgb") +
           esc("[48;2;250;251;252mbg") + esc("[0m") + "\r\n";
    out += esc("[3mitalic") + esc("[4munder") + esc("[4:2mdouble") + esc("[0;5mblink") +
           esc("[0;7minverse") + esc("[0;9mstrike") + esc("[0m") + "\r\n";
    out += u"中a😀b漢字 e\u0301x o\u0308\u0323 end"_s.toUtf8() + "\r\n";
    // Erased with a coloured pen: the trailing cells carry a background and must survive.
    out += "bce" + esc("[44m") + esc("[K") + esc("[0m") + "\r\n";
    out += "trailing spaces   " + esc("[0m") + "\r\n";
    out += "\r\n"; // an empty line
    out += esc("[1;4;7;9;35;48;5;17m") + "all at once" + esc("[0m");
    return out;
}

} // namespace

class TestTerminalScrollback final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellFlagsAreWhereTheWordsSayTheyAre();
    void compactLineRoundTripsOddCells();
    void scrolledLinesReadBackAsShown();
    void cacheSurvivesLongWalksAndLimit();
    void resizePullsCompactLinesBackToTheScreen();
    void plainLinesAreSmall();
};

void TestTerminalScrollback::cellFlagsAreWhereTheWordsSayTheyAre() {
    // The screen's hot paths and the compact encoding test these bits in cells as words.
    TerminalCell cell;
    cell.wide = 1;
    QCOMPARE(cellWords(cell).w[0], kCellWideBit);
    cell = TerminalCell();
    cell.continuation = 1;
    QCOMPARE(cellWords(cell).w[0], kCellContinuationBit);
    cell = TerminalCell();
    cell.combined = 1;
    QCOMPARE(cellWords(cell).w[0], kCellCombinedBit);
    cell = TerminalCell();
    cell.ch = kCellCharMask;
    QCOMPARE(cellWords(cell).w[0], kCellCharMask);
}

void TestTerminalScrollback::compactLineRoundTripsOddCells() {
    TerminalLine line;
    line.cells.resize(300);
    for (size_t i = 0; i < line.cells.size(); ++i) {
        TerminalCell &c = line.cells[i];
        c.ch = uint32_t((i * 7919u) % 0x200000u); // every range of the 21 bits, 0 included
        c.bold = i % 2;
        c.italic = (i / 2) % 2;
        c.underline = uint32_t(i % 6);
        c.blink = (i / 5) % 2;
        c.inverse = (i / 3) % 2;
        c.strike = (i / 7) % 2;
        c.wide = (i % 11) == 0;
        c.continuation = (i % 11) == 1;
        c.combined = (i % 13) == 0;
        c.fg = i % 3 == 0 ? TerminalColor::rgb(uint8_t(i), 2, 3) : TerminalColor::indexed(7);
        c.bg = i % 17 == 0 ? TerminalColor::indexed(uint8_t(i)) : TerminalColor::kDefault;
        if (i >= 200) { // the fourth word, on part of the line only
            c.underlineColor =
                i % 2 ? TerminalColor::rgb(9, 8, uint8_t(i)) : TerminalColor::indexed(3);
            c.faint = (i / 3) % 2;
            c.conceal = (i / 5) % 2;
            c.protect = (i / 7) % 2;
        }
    }
    // Proper wide pairs too, between the odd ones: a wide cell and its plain second half.
    for (size_t i = 150; i < 190; i += 2) {
        line.cells[i] = TerminalCell();
        line.cells[i].ch = uint32_t(0x4e00 + i);
        line.cells[i].wide = 1;
        line.cells[i].fg = TerminalColor::indexed(uint8_t(i % 3));
        line.cells[i + 1] = line.cells[i];
        line.cells[i + 1].ch = 0;
        line.cells[i + 1].wide = 0;
        line.cells[i + 1].continuation = 1;
    }
    line.combining.emplace_back(13, std::u32string{U'\u0301', U'\u0323'});
    line.combining.emplace_back(0, std::u32string{char32_t(0x1f3fb)});
    line.cells.resize(310); // ten never-written cells at the end: trimmed, then restored
    const CompactLine compact(line);
    TerminalLine back;
    back.cells.resize(5); // storage reuse must not leak old content
    back.combining.emplace_back(1, std::u32string{U'x'});
    compact.expandInto(back);
    COMPARE_LINES(back, line);

    TerminalLine empty;
    CompactLine(empty).expandInto(back);
    COMPARE_LINES(back, empty);
    TerminalLine blank;
    blank.cells.resize(80);
    CompactLine(blank).expandInto(back);
    COMPARE_LINES(back, blank);
}

void TestTerminalScrollback::scrolledLinesReadBackAsShown() {
    TerminalEmulation t(40, 8);
    t.feed(richScreen());
    std::vector<TerminalLine> shown;
    for (int row = 0; row < t.rows(); ++row)
        shown.push_back(t.screenLine(row));
    QVERIFY(t.screenLine(3).cells[0].wide);
    QVERIFY(!t.screenLine(3).combining.empty());
    QCOMPARE(t.screenLine(4).cells[39].bg, TerminalColor::indexed(4));

    // Everything scrolls off: the screen's lines are now the oldest of the scrollback.
    t.feed(esc("[8;1H") + QByteArray(t.rows(), '\n'));
    QCOMPARE(t.scrollbackCount(), t.rows());
    for (int i = 0; i < t.rows(); ++i)
        COMPARE_LINES(t.historyLine(i), shown[size_t(i)]);
    QCOMPARE(t.historyLineText(3), u"中a😀b漢字 e\u0301x o\u0308\u0323 end"_s);
    QCOMPARE(t.historyLineText(5), u"trailing spaces"_s);
}

void TestTerminalScrollback::cacheSurvivesLongWalksAndLimit() {
    TerminalEmulation t(30, 4);
    t.setScrollbackLimit(2000);
    QByteArray out;
    for (int i = 0; i < 1500; ++i)
        out += esc("[3") + QByteArray::number(i % 8) + "mline " + QByteArray::number(i) + "\r\n";
    t.feed(out);
    QCOMPARE(t.scrollbackCount(), 1497);
    // Far more lines than the cache holds, in both directions.
    for (int i = 0; i < t.scrollbackCount(); ++i)
        QCOMPARE(t.historyLineText(i), u"line %1"_s.arg(i));
    for (int i = t.scrollbackCount() - 1; i >= 0; i -= 3) {
        QCOMPARE(t.historyLineText(i), u"line %1"_s.arg(i));
        QCOMPARE(t.historyLine(i).cells[0].fg, TerminalColor::indexed(uint8_t(i % 8)));
    }
    // Dropping the oldest lines shifts indices; the cache must follow the lines, not slots.
    t.setScrollbackLimit(100);
    QCOMPARE(t.droppedLines(), int64_t(1397));
    QCOMPARE(t.historyLineText(0), u"line 1397"_s);
    QCOMPARE(t.historyLineText(99), u"line 1496"_s);
    t.feed("more\r\n");
    QCOMPARE(t.historyLineText(0), u"line 1398"_s);
    QCOMPARE(t.historyLineText(99), u"line 1497"_s);
}

void TestTerminalScrollback::resizePullsCompactLinesBackToTheScreen() {
    TerminalEmulation t(20, 7);
    t.feed(esc("[32m") + "green" + esc("[0m") + "\r\n" + u"中e\u0301"_s.toUtf8() +
           "\r\nc\r\nd\r\ne\r\nf\r\ng");
    const TerminalLine green = t.screenLine(0);
    const TerminalLine wide = t.screenLine(1);
    QCOMPARE(t.scrollbackCount(), 0);
    t.feed("\r\nh");
    QCOMPARE(t.scrollbackCount(), 1);
    QCOMPARE(t.historyLineText(0), u"green"_s); // now cached
    t.resize(20, 3);
    QCOMPARE(t.scrollbackCount(), 5);
    COMPARE_LINES(t.historyLine(0), green);
    COMPARE_LINES(t.historyLine(1), wide);
    t.resize(20, 8); // pulls all five back
    QCOMPARE(t.scrollbackCount(), 0);
    COMPARE_LINES(t.screenLine(0), green);
    COMPARE_LINES(t.screenLine(1), wide);
    // The same line number now leaves again with other content: no stale cache entry.
    t.feed(esc("[1;1H") + "changed" + esc("[K") + esc("[8;1H") + "\n");
    QCOMPARE(t.historyLineText(0), u"changed"_s);
}

void TestTerminalScrollback::plainLinesAreSmall() {
    LineRing ring(120, 2, 1000);
    TerminalLine &row = ring.screenLine(0);
    for (int i = 0; i < 80; ++i)
        row.cells[size_t(i)].ch = uint32_t('a' + i % 26);
    ring.scrollUp(0, 2, 1, TerminalCell{});
    QCOMPARE(ring.scrollbackCount(), 1);
    // 80 characters and one attribute run, not 120 twelve-byte cells.
    QVERIFY2(ring.scrollbackBytes() <= 80 + 32,
             qPrintable(QString::number(ring.scrollbackBytes())));
    QCOMPARE(lineToText(ring.lineAt(0)),
             QString::fromLatin1(QByteArray("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
                                            "abcdefghijklmnopqrstuvwxyzab")));
    QCOMPARE(int(ring.lineAt(0).cells.size()), 120);
}

QTEST_GUILESS_MAIN(TestTerminalScrollback)
#include "tst_terminalscrollback.moc"
