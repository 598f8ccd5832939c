#include "widgets/common/icons.h"

#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPixmap>
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
const char *const kNames[] = {
    "new-sandbox", "add-address", "start",     "pause",      "resume",      "stop",
    "delete",      "logs",        "refresh",   "edit",       "preferences", "terminal",
    "files",       "upload",      "download",  "new-folder", "split",       "home",
    "go-up",       "copy",        "workspace", "code",       "plug",
};

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
    for (const char *name : kNames)
        out << QString::fromLatin1(name);
    return out;
}

QIcon icon(const QString &name, const QPalette &palette) {
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
