#include "widgets/common/icons.h"

#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QStandardPaths>
#include <QSvgRenderer>

using namespace Qt::StringLiterals;

// Outside any namespace, as Q_INIT_RESOURCE requires: the resources live in a static library,
// whose object file the linker would otherwise drop.
static void initResources() {
    Q_INIT_RESOURCE(sandbox_console);
}

namespace sbx {

namespace {

constexpr auto kCurrentColor = "currentColor";
constexpr int kAppIconSizes[] = {16, 22, 24, 32, 48, 64, 128, 256};

// Keep in step with resources/sandbox-console.qrc; tst_icons loads every one.
// Each with the freedesktop names tried in the icon theme first, best first (empty: ours only).
struct Named {
    const char *name;
    const char *theme[3];
};
const Named kNames[] = {
    {"new-sandbox", {"list-add"}},
    {"add-address", {"network-connect"}},
    {"start", {"media-playback-start"}},
    {"pause", {"media-playback-pause"}},
    {"resume", {"media-playback-start"}},
    {"stop", {"media-playback-stop"}},
    {"delete", {"edit-delete"}},
    {"logs", {"view-list-text", "text-x-generic"}},
    {"refresh", {"view-refresh"}},
    {"edit", {"document-edit", "document-properties"}},
    {"preferences", {"configure", "preferences-system"}},
    {"terminal", {"utilities-terminal"}},
    {"files", {"folder"}},
    {"upload", {"cloud-upload", "go-up"}},
    {"download", {"cloud-download", "go-down"}},
    {"new-folder", {"folder-new"}},
    {"split", {"view-split-left-right"}},
    {"home", {"go-home", "user-home"}},
    {"go-up", {"go-up"}},
    {"copy", {"edit-copy"}},
    {"workspace", {"folder-open"}},
    {"code", {"text-x-script"}},
    {"plug", {"network-connect"}},
    {"overview", {"dialog-information"}},
    {"llms", {"text-x-generic"}},
    {"runs", {"system-run"}},
    {"hooks", {}},
    {"monitor", {"utilities-system-monitor"}},
    {"keyboard", {"help-keybord-shortcuts", "input-keyboard"}},
    {"about", {"help-about"}},
    {"browser", {"internet-web-browser"}},
    {"quit", {"application-exit"}},
    {"open", {"document-open"}},
    // Sandbox states: ours only, tinted by the state's colour (stateIcon).
    {"state-online", {}},
    {"state-busy", {}},
    {"state-paused", {}},
    {"state-stopped", {}},
    {"state-failed", {}},
};

bool g_useTheme = true;

const Named *named(const QString &name) {
    for (const Named &n : kNames) {
        if (name == QLatin1String(n.name))
            return &n;
    }
    return nullptr;
}

bool themeDirExists(const QString &theme) {
    const QStringList paths = QIcon::themeSearchPaths();
    for (const QString &path : paths) {
        if (QFileInfo::exists(path + u'/' + theme + u"/index.theme"_s))
            return true;
    }
    return false;
}

QByteArray coloured(const QByteArray &svg, const QColor &color) {
    QByteArray out = svg;
    return out.replace(kCurrentColor, color.name(QColor::HexRgb).toLatin1());
}

// Renders the SVG at the size asked for (no scaled bitmaps: 1 px lines stay on the pixel grid)
// with the colour of the icon mode.
class SvgIconEngine final : public QIconEngine {
public:
    SvgIconEngine(const QByteArray &svg, const QPalette &palette)
        : m_svg(svg)
        , m_normal(palette.color(QPalette::Active, QPalette::WindowText))
        , m_disabled(palette.color(QPalette::Disabled, QPalette::WindowText))
        , m_selected(palette.color(QPalette::Active, QPalette::HighlightedText)) {}

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State) override {
        QSvgRenderer renderer(svgFor(mode));
        painter->save();
        painter->setOpacity(painter->opacity() * colorFor(mode).alphaF());
        renderer.render(painter, QRectF(rect));
        painter->restore();
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State state,
                         qreal scale) override {
        const QSize pixels = (QSizeF(size) * scale).toSize();
        if (pixels.isEmpty())
            return {};
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            paint(&painter, QRect(QPoint(), pixels), mode, state);
        }
        QPixmap pixmap = QPixmap::fromImage(std::move(image));
        pixmap.setDevicePixelRatio(scale);
        return pixmap;
    }

    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override { return size; }
    QString key() const override { return u"sbx-svg"_s; }
    QIconEngine *clone() const override { return new SvgIconEngine(*this); }

private:
    QColor colorFor(QIcon::Mode mode) const {
        switch (mode) {
        case QIcon::Disabled:
            return m_disabled;
        case QIcon::Selected:
            return m_selected;
        default:
            return m_normal;
        }
    }
    QByteArray svgFor(QIcon::Mode mode) const { return coloured(m_svg, colorFor(mode)); }

    QByteArray m_svg;
    QColor m_normal;
    QColor m_disabled;
    QColor m_selected;
};

QByteArray readIcon(const QString &name) {
    initResources();
    QFile file(u":/icons/"_s + name + u".svg"_s);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

namespace Icons {

QStringList names() {
    QStringList out;
    for (const Named &n : kNames)
        out << QString::fromLatin1(n.name);
    return out;
}

QString setupTheme(const QPalette &palette) {
    // Platforms without a desktop theme plugin (offscreen, minimal) search only the resources:
    // add the XDG icon folders, as a desktop would.
    QStringList search = QIcon::themeSearchPaths();
    const QStringList dataDirs =
        QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation);
    for (const QString &dir : dataDirs) {
        const QString icons = dir + u"/icons"_s;
        if (!search.contains(icons) && QFileInfo(icons).isDir())
            search << icons;
    }
    if (search != QIcon::themeSearchPaths())
        QIcon::setThemeSearchPaths(search);
    const QString current = QIcon::themeName();
    // Without a desktop (no platform theme, or only the hicolor fallback) Qt finds no icons:
    // pick an installed theme that suits the palette.
    if (current.isEmpty() || current == u"hicolor"_s || !themeDirExists(current)) {
        const bool dark = palette.color(QPalette::Window).lightness() < 128;
        const QStringList candidates = dark ? QStringList{u"breeze-dark"_s, u"Adwaita"_s}
                                            : QStringList{u"breeze"_s, u"Adwaita"_s};
        for (const QString &theme : candidates) {
            if (themeDirExists(theme)) {
                QIcon::setThemeName(theme);
                break;
            }
        }
    }
    if (QIcon::fallbackThemeName().isEmpty())
        QIcon::setFallbackThemeName(u"hicolor"_s);
    return QIcon::themeName();
}

void setThemeEnabled(bool enabled) {
    g_useTheme = enabled;
}

QString themeNameFor(const QString &name) {
    const Named *n = named(name);
    if (!n || !g_useTheme || QIcon::themeName().isEmpty())
        return {};
    for (const char *candidate : n->theme) {
        if (candidate && QIcon::hasThemeIcon(QLatin1String(candidate)))
            return QLatin1String(candidate);
    }
    return {};
}

QIcon icon(const QString &name, const QPalette &palette) {
    if (const QString themed = themeNameFor(name); !themed.isEmpty())
        return QIcon::fromTheme(themed);
    return ownIcon(name, palette);
}

QIcon stateIcon(const QString &state, const QColor &colour) {
    QPalette palette;
    for (const QPalette::ColorGroup group : {QPalette::Active, QPalette::Inactive})
        palette.setColor(group, QPalette::WindowText, colour);
    palette.setColor(QPalette::Disabled, QPalette::WindowText, colour);
    palette.setColor(QPalette::Active, QPalette::HighlightedText, colour);
    return ownIcon(u"state-"_s + state, palette);
}

QIcon ownIcon(const QString &name, const QPalette &palette) {
    static QHash<QString, QIcon> cache;
    const QString key =
        name + u'|' + palette.color(QPalette::Active, QPalette::WindowText).name(QColor::HexArgb) +
        palette.color(QPalette::Disabled, QPalette::WindowText).name(QColor::HexArgb) +
        palette.color(QPalette::Active, QPalette::HighlightedText).name(QColor::HexArgb);
    if (const auto it = cache.constFind(key); it != cache.cend())
        return *it;
    const QByteArray svg = readIcon(name);
    if (svg.isEmpty() || !QSvgRenderer(svg).isValid())
        return {};
    const QIcon made(new SvgIconEngine(svg, palette));
    cache.insert(key, made);
    return made;
}

QIcon icon(const QString &name) {
    return icon(name, QGuiApplication::palette());
}

QIcon appIcon() {
    static const QIcon made = [] {
        QSvgRenderer renderer(readIcon(u"sandbox-console"_s));
        QIcon out;
        // Sizes as pixmaps: a window manager asks for the icon by availableSizes().
        for (const int side : kAppIconSizes) {
            QImage image(side, side, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            renderer.render(&painter);
            painter.end();
            out.addPixmap(QPixmap::fromImage(std::move(image)));
        }
        return out;
    }();
    return made;
}

} // namespace Icons

} // namespace sbx
