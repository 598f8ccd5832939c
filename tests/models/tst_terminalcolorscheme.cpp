// Terminal colour schemes: found by the id the preferences store, the default for anything
// else; the sixteen system colours follow the scheme, the rest of xterm's 256 and RGB do not.
#include "models/terminal/terminalcell.h"
#include "models/terminal/terminalcolorscheme.h"

#include <QSet>
#include <QTest>

#include <cmath>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// WCAG's contrast ratio of two colours, 1 (none) to 21.
double contrast(const QColor &a, const QColor &b) {
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const double la = luminance(a) + 0.05;
    const double lb = luminance(b) + 0.05;
    return la > lb ? la / lb : lb / la;
}

} // namespace

class TestTerminalColorScheme final : public QObject {
    Q_OBJECT

private slots:
    void lightDarkAndXtermAreOffered();
    void unknownIdGivesTheDefault();
    void systemColoursFollowTheScheme();
    void cubeGreysAndRgbAreTheSameInEveryScheme();
    void boldBrightensTheBaseColours();
    void textReadsOnEveryBackground();
};

void TestTerminalColorScheme::lightDarkAndXtermAreOffered() {
    QSet<QString> ids;
    for (const TerminalColorScheme &scheme : terminalColorSchemes()) {
        QVERIFY2(!ids.contains(scheme.id), qPrintable(scheme.id));
        ids.insert(scheme.id);
        QVERIFY(!scheme.displayName().isEmpty());
        QCOMPARE(terminalColorScheme(scheme.id).id, scheme.id);
    }
    QVERIFY(ids.contains(u"dark"_s));
    QVERIFY(ids.contains(u"light"_s));
    QVERIFY(ids.contains(u"xterm"_s));
    QCOMPARE(defaultTerminalColorScheme(), u"dark"_s);
    // xterm's own defaults: black on white.
    QCOMPARE(terminalColorScheme(u"xterm"_s).backgroundColor(), QColor(Qt::white));
    QCOMPARE(terminalColorScheme(u"xterm"_s).foregroundColor(), QColor(Qt::black));
    QVERIFY(terminalColorScheme(u"dark"_s).backgroundColor().lightness() < 64);
    QVERIFY(terminalColorScheme(u"light"_s).backgroundColor().lightness() > 192);
}

void TestTerminalColorScheme::unknownIdGivesTheDefault() {
    QCOMPARE(terminalColorScheme(QString()).id, defaultTerminalColorScheme());
    QCOMPARE(terminalColorScheme(u"solarized-from-the-future"_s).id, defaultTerminalColorScheme());
    QCOMPARE(terminalColorScheme(u"Light"_s).id, defaultTerminalColorScheme()); // ids, not names
}

void TestTerminalColorScheme::systemColoursFollowTheScheme() {
    const TerminalColorScheme &dark = terminalColorScheme(u"dark"_s);
    const TerminalColorScheme &light = terminalColorScheme(u"light"_s);
    const TerminalColorScheme &xterm = terminalColorScheme(u"xterm"_s);
    for (uint8_t i = 0; i < 16; ++i) {
        const uint32_t colour = TerminalColor::indexed(i);
        QCOMPARE(xterm.color(colour, Qt::magenta), QColor::fromRgb(xterm.system[i]));
        QCOMPARE(light.color(colour, Qt::magenta), QColor::fromRgb(light.system[i]));
    }
    // Blue (SGR 34) is where the schemes differ most: xterm's 0000ee is unreadable on black.
    const uint32_t blue = TerminalColor::indexed(4);
    QCOMPARE(xterm.color(blue, Qt::magenta), QColor(0x00, 0x00, 0xee));
    QCOMPARE(dark.color(blue, Qt::magenta), QColor(0x3b, 0x78, 0xff));
    QVERIFY(light.color(blue, Qt::magenta) != dark.color(blue, Qt::magenta));
    // The default colour is the caller's: the view passes the scheme's foreground or background.
    QCOMPARE(light.color(TerminalColor::kDefault, Qt::magenta), QColor(Qt::magenta));
}

void TestTerminalColorScheme::cubeGreysAndRgbAreTheSameInEveryScheme() {
    const uint32_t cube = TerminalColor::indexed(16 + 36 * 5); // red 5, green 0, blue 0
    const uint32_t grey = TerminalColor::indexed(232);
    const uint32_t rgb = TerminalColor::rgb(0x12, 0x34, 0x56);
    for (const TerminalColorScheme &scheme : terminalColorSchemes()) {
        QCOMPARE(scheme.color(cube, Qt::magenta), QColor(255, 0, 0));
        QCOMPARE(scheme.color(grey, Qt::magenta), QColor(8, 8, 8));
        QCOMPARE(scheme.color(rgb, Qt::magenta), QColor(0x12, 0x34, 0x56));
        QCOMPARE(scheme.color(cube, Qt::magenta, true), QColor(255, 0, 0));
    }
}

void TestTerminalColorScheme::boldBrightensTheBaseColours() {
    const TerminalColorScheme &light = terminalColorScheme(u"light"_s);
    QCOMPARE(light.color(TerminalColor::indexed(1), Qt::magenta, true),
             QColor::fromRgb(light.system[9]));
    QCOMPARE(light.color(TerminalColor::indexed(9), Qt::magenta, true),
             QColor::fromRgb(light.system[9]));
}

void TestTerminalColorScheme::textReadsOnEveryBackground() {
    for (const TerminalColorScheme &scheme : terminalColorSchemes()) {
        QVERIFY2(contrast(scheme.foregroundColor(), scheme.backgroundColor()) >= 7,
                 qPrintable(scheme.id));
        QVERIFY2(contrast(scheme.cursorColor(), scheme.backgroundColor()) >= 3,
                 qPrintable(scheme.id));
    }
}

QTEST_GUILESS_MAIN(TestTerminalColorScheme)
#include "tst_terminalcolorscheme.moc"
