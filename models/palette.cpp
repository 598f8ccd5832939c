#include "models/palette.h"

#include <QGuiApplication>

namespace sbx {

using namespace Qt::StringLiterals;

namespace Palette {

namespace {

// A tint of hue over the window colour: strong enough to be seen, light or dark.
QColor tint(const QColor &window, const QColor &hue, double amount) {
    return QColor::fromRgbF(window.redF() + (hue.redF() - window.redF()) * amount,
                            window.greenF() + (hue.greenF() - window.greenF()) * amount,
                            window.blueF() + (hue.blueF() - window.blueF()) * amount);
}

// The same hue, lighter on a dark background so that it stays readable.
QColor onBackground(const QPalette &palette, const QColor &light) {
    return isDark(palette) ? light.lighter(160) : light;
}

} // namespace

bool isDark(const QPalette &palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor color(Role role, const QPalette &palette) {
    const QColor window = palette.color(QPalette::Window);
    switch (role) {
    case Role::BannerError:
        return tint(window, QColor(0xe5, 0x39, 0x35), isDark(palette) ? 0.30 : 0.12);
    case Role::BannerWarning:
        return tint(window, QColor(0xff, 0x98, 0x00), isDark(palette) ? 0.28 : 0.12);
    case Role::BannerBorder:
        return tint(window, palette.color(QPalette::WindowText), 0.25);
    case Role::TextError:
        return onBackground(palette, QColor(0xb0, 0x00, 0x20));
    case Role::TextSuccess:
        return onBackground(palette, QColor(0x2e, 0x7d, 0x32));
    case Role::TextMuted:
        return palette.color(QPalette::Disabled, QPalette::Text);
    case Role::SearchMatch:
        return tint(palette.color(QPalette::Base), QColor(0xff, 0xd5, 0x00),
                    isDark(palette) ? 0.45 : 0.6);
    case Role::StateOnline:
        return onBackground(palette, QColor(0x2e, 0xa0, 0x43));
    case Role::StateBusy:
        return onBackground(palette, QColor(0xd4, 0xa0, 0x17));
    case Role::StatePaused:
        return onBackground(palette, QColor(0x3b, 0x82, 0xc4));
    case Role::StateStopped:
        return palette.color(QPalette::Disabled, QPalette::WindowText);
    case Role::StateFailed:
        return onBackground(palette, QColor(0xc0, 0x39, 0x2b));
    case Role::LevelError:
        return onBackground(palette, QColor(0xd3, 0x2f, 0x2f));
    case Role::LevelWarning:
        return onBackground(palette, QColor(0xf5, 0x9e, 0x0b));
    case Role::LevelInfo:
        return onBackground(palette, QColor(0x3b, 0x82, 0xc4));
    case Role::LevelDebug:
        return palette.color(QPalette::Disabled, QPalette::Text);
    case Role::CurrentLine:
        return tint(palette.color(QPalette::Base), palette.color(QPalette::Highlight), 0.18);
    case Role::CurrentMatch:
        return tint(palette.color(QPalette::Base), QColor(0xff, 0x8c, 0x00),
                    isDark(palette) ? 0.6 : 0.7);
    case Role::CodeBackground:
        return tint(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.04);
    case Role::SyntaxKeyword:
        return onBackground(palette, QColor(0x00, 0x5c, 0xc5));
    case Role::SyntaxBuiltin:
        return onBackground(palette, QColor(0x00, 0x7a, 0x7a));
    case Role::SyntaxString:
        return onBackground(palette, QColor(0x0a, 0x7d, 0x29));
    case Role::SyntaxNumber:
        return onBackground(palette, QColor(0x9c, 0x4d, 0x00));
    case Role::SyntaxComment:
        return palette.color(QPalette::Disabled, QPalette::Text);
    case Role::SyntaxDefinition:
        return onBackground(palette, QColor(0x79, 0x3a, 0xb8));
    }
    return palette.color(QPalette::WindowText);
}

QColor color(Role role) {
    return color(role, QGuiApplication::palette());
}

QString bannerStyle(const QString &objectName, bool error) {
    return u"#%1 { background: %2; border: 1px solid %3; border-radius: 4px; }"_s.arg(
        objectName, color(error ? Role::BannerError : Role::BannerWarning).name(),
        color(Role::BannerBorder).name());
}

QString textStyle(Role role) {
    return u"color: %1;"_s.arg(color(role).name());
}

} // namespace Palette

} // namespace sbx
