#include "widgets/common/icons.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>
#include <QtTest>

using namespace sbx;

using namespace Qt::StringLiterals;

namespace {

QPalette paletteWith(const QColor &window, const QColor &text) {
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    return palette;
}

// The opaque pixels' mean lightness (0..255), and how many there are.
struct Ink {
    int opaque = 0;
    double lightness = 0;
};

Ink inkOf(const QPixmap &pixmap) {
    const QImage image = pixmap.toImage().convertToFormat(QImage::Format_ARGB32);
    Ink ink;
    double sum = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() < 128)
                continue;
            ++ink.opaque;
            sum += c.lightness();
        }
    }
    ink.lightness = ink.opaque ? sum / ink.opaque : 0;
    return ink;
}

} // namespace

class TestIcons final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyIconRenders_data();
    void everyIconRenders();
    void colourFollowsThePalette_data();
    void colourFollowsThePalette();
    void disabledUsesTheDisabledColour();
    void unknownNameIsNull();
    void appIconRenders();
};

void TestIcons::everyIconRenders_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("side");
    const QStringList names = Icons::names();
    QVERIFY(names.size() >= 17);
    for (const QString &name : names) {
        QTest::addRow("%s@16", qPrintable(name)) << name << 16;
        QTest::addRow("%s@32", qPrintable(name)) << name << 32;
    }
}

void TestIcons::everyIconRenders() {
    QFETCH(QString, name);
    QFETCH(int, side);
    const QIcon icon = Icons::icon(name);
    QVERIFY(QFile::exists(u":/icons/"_s + name + u".svg"_s));
    QVERIFY(!icon.isNull());
    const QPixmap pixmap = icon.pixmap(QSize(side, side));
    QCOMPARE(pixmap.size(), QSize(side, side));
    const Ink ink = inkOf(pixmap);
    // Some ink, but a line icon, not a filled square.
    QVERIFY2(ink.opaque >= side, qPrintable(u"%1 opaque pixels"_s.arg(ink.opaque)));
    QVERIFY(ink.opaque < side * side * 3 / 4);
}

void TestIcons::colourFollowsThePalette_data() {
    QTest::addColumn<QString>("name");
    const QStringList names = Icons::names();
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << name;
}

void TestIcons::colourFollowsThePalette() {
    QFETCH(QString, name);
    const QPalette dark = paletteWith(QColor(0x20, 0x20, 0x20), QColor(0xee, 0xee, 0xee));
    const QPalette light = paletteWith(QColor(0xf4, 0xf4, 0xf4), QColor(0x10, 0x10, 0x10));
    const Ink onDark = inkOf(Icons::icon(name, dark).pixmap(QSize(32, 32)));
    const Ink onLight = inkOf(Icons::icon(name, light).pixmap(QSize(32, 32)));
    QVERIFY(onDark.opaque > 0 && onLight.opaque > 0);
    QVERIFY2(onDark.lightness > 200, qPrintable(QString::number(onDark.lightness)));
    QVERIFY2(onLight.lightness < 60, qPrintable(QString::number(onLight.lightness)));
}

void TestIcons::disabledUsesTheDisabledColour() {
    const QPalette dark = paletteWith(QColor(0x20, 0x20, 0x20), QColor(0xee, 0xee, 0xee));
    const QIcon icon = Icons::icon(u"start"_s, dark);
    const Ink normal = inkOf(icon.pixmap(QSize(32, 32), QIcon::Normal));
    const Ink disabled = inkOf(icon.pixmap(QSize(32, 32), QIcon::Disabled));
    QVERIFY(disabled.opaque > 0);
    QVERIFY(qAbs(disabled.lightness - 0x80) < 20);
    QVERIFY(normal.lightness - disabled.lightness > 60);
}

void TestIcons::unknownNameIsNull() {
    QVERIFY(Icons::icon(u"no-such-icon"_s).isNull());
}

void TestIcons::appIconRenders() {
    const QIcon icon = Icons::appIcon();
    QVERIFY(!icon.isNull());
    QVERIFY(icon.availableSizes().contains(QSize(64, 64)));
    QVERIFY(inkOf(icon.pixmap(QSize(64, 64))).opaque > 64 * 64 / 2);
}

QTEST_MAIN(TestIcons)
#include "tst_icons.moc"
