#include "app/appearance.h"

#include "widgets/common/icons.h"

#include <QApplication>
#include <QIcon>
#include <QStyle>
#include <QStyleFactory>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// What the desktop gave the application before the console changed anything.
struct Original {
    QString style;
    QPalette palette;
    QString iconTheme;
};

const Original &original() {
    static const Original made{QApplication::style()->name(), QApplication::palette(),
                               QIcon::themeName()};
    return made;
}

} // namespace

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    const QColor button(0x35, 0x37, 0x3b), highlight(0x3d, 0x7e, 0xd6);
    const QColor disabledText(0x80, 0x80, 0x80);
    for (const QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, window);
        p.setColor(group, QPalette::WindowText, text);
        p.setColor(group, QPalette::Base, base);
        p.setColor(group, QPalette::AlternateBase, window);
        p.setColor(group, QPalette::Text, text);
        p.setColor(group, QPalette::Button, button);
        p.setColor(group, QPalette::ButtonText, text);
        p.setColor(group, QPalette::BrightText, Qt::white);
        p.setColor(group, QPalette::ToolTipBase, base);
        p.setColor(group, QPalette::ToolTipText, text);
        p.setColor(group, QPalette::PlaceholderText, disabledText);
        p.setColor(group, QPalette::Highlight, highlight);
        p.setColor(group, QPalette::HighlightedText, Qt::white);
        p.setColor(group, QPalette::Link, QColor(0x6c, 0xb6, 0xff));
        p.setColor(group, QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xdb));
        p.setColor(group, QPalette::Light, button.lighter(150));
        p.setColor(group, QPalette::Midlight, button.lighter(125));
        p.setColor(group, QPalette::Mid, QColor(0x6e, 0x70, 0x74));
        p.setColor(group, QPalette::Dark, QColor(0x18, 0x19, 0x1b));
        p.setColor(group, QPalette::Shadow, Qt::black);
    }
    p.setColor(QPalette::Inactive, QPalette::Highlight, highlight.darker(140));
    p.setColor(QPalette::Disabled, QPalette::Window, window);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Button, button);
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button);
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    return p;
}

void applyAppearance(const QString &colours) {
    const Original &desktop = original();
    static bool ours = false; // the console's style and palette are in use
    if (colours == u"dark"_s || colours == u"light"_s) {
        if (QStyle *fusion = QStyleFactory::create(u"Fusion"_s)) {
            QApplication::setStyle(fusion);
            QApplication::setPalette(colours == u"dark"_s ? darkPalette()
                                                          : fusion->standardPalette());
            ours = true;
        }
    } else if (ours) {
        if (QStyle *style = QStyleFactory::create(desktop.style))
            QApplication::setStyle(style);
        QApplication::setPalette(desktop.palette);
        ours = false;
    }
    // The theme the console picked for the old palette (breeze for light) must not stay.
    QIcon::setThemeName(desktop.iconTheme);
    Icons::setupTheme(QApplication::palette());
}

} // namespace sbx
