#include "widgets/code/outputview.h"

#include "models/code/outputpresentation.h"
#include "models/logs/logtext.h"
#include "models/palette.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// An SVG without a size of its own is drawn this wide.
constexpr int kDefaultSvgWidth = 400;

QLabel *makeLabel(QWidget *parent) {
    auto *label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard |
                                   Qt::LinksAccessibleByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    label->setWordWrap(true);
    return label;
}

QString plainOf(const QString &text) {
    QString plain;
    for (const QString &line : text.split(u'\n'))
        plain += decodeLogLine(line.toUtf8()).text + u'\n';
    while (plain.endsWith(u'\n'))
        plain.chop(1);
    return plain;
}

QImage renderSvg(const QString &svg) {
    QSvgRenderer renderer(svg.toUtf8());
    if (!renderer.isValid())
        return {};
    QSize size = renderer.defaultSize();
    if (size.isEmpty())
        size = QSize(kDefaultSvgWidth, kDefaultSvgWidth * 3 / 4);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    renderer.render(&painter);
    return image;
}

} // namespace

OutputView::OutputView(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this)) {
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(4);
}

void OutputView::setOutputs(const QList<CodeOutput> &outputs) {
    while (QLayoutItem *item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_outputs = outputs;
    m_images.clear();
    for (const CodeOutput &output : outputs) {
        if (QWidget *widget = makeOutput(output))
            m_layout->addWidget(widget);
    }
    setVisible(!outputs.isEmpty());
}

QString OutputView::plainText() const {
    QStringList parts;
    for (int i = 0; i < m_layout->count(); ++i) {
        if (const auto *label = qobject_cast<QLabel *>(m_layout->itemAt(i)->widget())) {
            const QString text = label->property("plain").toString();
            if (!text.isEmpty())
                parts << text;
        }
    }
    return parts.join(u'\n');
}

void OutputView::setMaxImageWidth(int width) {
    if (width == m_maxImageWidth || width <= 0)
        return;
    m_maxImageWidth = width;
    rescaleImages();
}

QWidget *OutputView::makeText(const QString &html, bool stderrStream, bool error) {
    QLabel *label = makeLabel(this);
    label->setTextFormat(Qt::RichText);
    label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    label->setText(html);
    if (stderrStream || error) {
        label->setAutoFillBackground(true);
        QPalette p = label->palette();
        // The application's tint, not one over the cell's (the current cell is highlighted).
        p.setColor(QPalette::Window, Palette::color(Palette::Role::BannerError));
        label->setPalette(p);
        label->setContentsMargins(4, 2, 4, 2);
    }
    return label;
}

QWidget *OutputView::makeImage(const QImage &image) {
    QLabel *label = makeLabel(this);
    label->setWordWrap(false);
    label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    label->setObjectName(u"imageOutput"_s);
    label->setProperty("imageIndex", static_cast<int>(m_images.size()));
    m_images.append(image);
    const QImage shown = image.width() > m_maxImageWidth
                             ? image.scaledToWidth(m_maxImageWidth, Qt::SmoothTransformation)
                             : image;
    label->setPixmap(QPixmap::fromImage(shown));
    return label;
}

void OutputView::rescaleImages() {
    for (int i = 0; i < m_layout->count(); ++i) {
        auto *label = qobject_cast<QLabel *>(m_layout->itemAt(i)->widget());
        if (!label || label->objectName() != "imageOutput"_L1)
            continue;
        const QImage &image = m_images.at(label->property("imageIndex").toInt());
        label->setPixmap(
            QPixmap::fromImage(image.width() > m_maxImageWidth
                                   ? image.scaledToWidth(m_maxImageWidth, Qt::SmoothTransformation)
                                   : image));
    }
}

QWidget *OutputView::makeOutput(const CodeOutput &output) {
    const OutputPresentation p = presentOutput(output);
    QWidget *widget = nullptr;
    QString plain;
    switch (p.form) {
    case OutputPresentation::Form::AnsiText:
    case OutputPresentation::Form::Error: {
        int cut = 0;
        QString html = ansiToHtml(p.text, palette(), kMaxOutputLines, &cut);
        if (cut > 0)
            html += u"<p><i>%1</i></p>"_s.arg(
                tr("… %n more line(s) not shown", nullptr, cut).toHtmlEscaped());
        const bool error = p.form == OutputPresentation::Form::Error;
        widget = makeText(html, p.stderrStream, error);
        plain = plainOf(p.text);
        if (error && !plain.contains(p.evalue))
            plain = p.ename + u": "_s + p.evalue + u'\n' + plain;
        break;
    }
    case OutputPresentation::Form::Html: {
        QLabel *label = makeLabel(this);
        label->setTextFormat(Qt::RichText);
        label->setText(p.text);
        widget = label;
        plain = QTextDocumentFragment::fromHtml(p.text).toPlainText();
        break;
    }
    case OutputPresentation::Form::Markdown: {
        QLabel *label = makeLabel(this);
        label->setTextFormat(Qt::MarkdownText);
        label->setText(p.text);
        widget = label;
        plain = p.text;
        break;
    }
    case OutputPresentation::Form::Image:
    case OutputPresentation::Form::Svg: {
        const QImage image =
            p.form == OutputPresentation::Form::Svg
                ? renderSvg(p.text)
                : QImage::fromData(p.bytes, p.mime == "image/png"_L1 ? "PNG" : "JPEG");
        if (image.isNull()) {
            QLabel *label = makeLabel(this);
            label->setText(tr("[%1 that could not be decoded]").arg(p.mime));
            label->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
            widget = label;
            plain = label->text();
            break;
        }
        widget = makeImage(image);
        plain = tr("[image %1×%2]").arg(image.width()).arg(image.height());
        break;
    }
    case OutputPresentation::Form::Unsupported: {
        QLabel *label = makeLabel(this);
        label->setText(tr("[%1 output, not shown here]").arg(p.mime));
        label->setStyleSheet(Palette::textStyle(Palette::Role::TextMuted));
        widget = label;
        plain = label->text();
        break;
    }
    }
    if (widget)
        widget->setProperty("plain", plain);
    return widget;
}

} // namespace sbx
