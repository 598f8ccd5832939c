// Palette roles follow the application's palette: a dark theme gets dark banners and state
// colours that stand out from its background, a light one the reverse.
#include "models/palette.h"

#include <QGuiApplication>
#include <QTest>

#include <cmath>

using namespace sbx;

namespace {

QPalette themed(const QColor &window, const QColor &text) {
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::Base, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Text, text);
    return palette;
}

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

class TestPalette final : public QObject {
    Q_OBJECT

private slots:
    void bannersFollowTheTheme_data();
    void bannersFollowTheTheme();
};

void TestPalette::bannersFollowTheTheme_data() {
    QTest::addColumn<QPalette>("palette");
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << themed(QColor(0xef, 0xef, 0xef), Qt::black) << false;
    QTest::newRow("dark") << themed(QColor(0x2b, 0x2b, 0x2b), QColor(0xe0, 0xe0, 0xe0)) << true;
}

void TestPalette::bannersFollowTheTheme() {
    QFETCH(QPalette, palette);
    QFETCH(bool, dark);
    using Palette::Role;
    QCOMPARE(Palette::isDark(palette), dark);
    const QColor text = palette.color(QPalette::WindowText);
    for (Role banner : {Role::BannerError, Role::BannerWarning}) {
        const QColor background = Palette::color(banner, palette);
        // The banner stays on the theme's side, and the theme's text stays readable on it.
        QCOMPARE(background.lightness() < 128, dark);
        QVERIFY2(contrast(background, text) >= 4.5,
                 qPrintable(background.name() + QLatin1String(" under ") + text.name()));
    }
    const QColor window = palette.color(QPalette::Window);
    for (Role state : {Role::StateOnline, Role::StateFailed, Role::StatePaused, Role::TextError}) {
        const QColor colour = Palette::color(state, palette);
        QVERIFY2(contrast(colour, window) >= 2.5,
                 qPrintable(colour.name() + QLatin1String(" on ") + window.name()));
    }
}

QTEST_GUILESS_MAIN(TestPalette)
#include "tst_palette.moc"
