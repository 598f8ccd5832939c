#include "models/mcp/toolresult.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMimeDatabase>
#include <QUrl>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// lupdate files a free tr() under the enclosing class or namespace: one named context instead.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(sbx::ToolResult)
};

QString sizeText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

// A file name for saving: the URI's last segment, else "result" with the type's suffix.
QString nameFor(const QString &uri, const QString &mimeType, const QString &stem) {
    const QString fromUri = QUrl(uri).fileName();
    if (!fromUri.isEmpty())
        return fromUri;
    const QString suffix = QMimeDatabase().mimeTypeForName(mimeType).preferredSuffix();
    return suffix.isEmpty() ? stem : stem + u'.' + suffix;
}

ResultPart binaryPart(const McpContent &c, const QString &what, const QString &stem) {
    ResultPart p;
    p.kind = ResultPart::Kind::Binary;
    p.mimeType = c.mimeType;
    p.uri = c.uri;
    p.data = c.data;
    QStringList words{what};
    if (!c.mimeType.isEmpty())
        words << c.mimeType;
    words << sizeText(c.data.size());
    if (!c.uri.isEmpty())
        words << c.uri;
    p.heading = words.join(u" · "_s);
    p.suggestedName = nameFor(c.uri, c.mimeType, stem);
    if (!c.dataValid)
        p.text = Text::tr("Its base64 data did not decode.");
    return p;
}

ResultPart imagePart(const McpContent &c) {
    ResultPart p;
    p.image = QImage::fromData(c.data);
    if (p.image.isNull()) {
        ResultPart b = binaryPart(c, Text::tr("Image"), u"image"_s);
        b.text = c.dataValid ? Text::tr("The image could not be decoded.")
                             : Text::tr("Its base64 data did not decode.");
        return b;
    }
    p.kind = ResultPart::Kind::Image;
    p.mimeType = c.mimeType;
    p.uri = c.uri;
    p.data = c.data;
    QStringList words{Text::tr("Image")};
    if (!c.mimeType.isEmpty())
        words << c.mimeType;
    words << u"%1 × %2"_s.arg(p.image.width()).arg(p.image.height()) << sizeText(c.data.size());
    if (!c.uri.isEmpty())
        words << c.uri;
    p.heading = words.join(u" · "_s);
    p.suggestedName = nameFor(c.uri, c.mimeType, u"image"_s);
    return p;
}

} // namespace

QList<ResultPart> resultParts(const McpCallResult &result) {
    QList<ResultPart> parts;
    for (const McpContent &c : result.content) {
        switch (c.kind) {
        case McpContent::Kind::Text: {
            ResultPart p;
            p.text = c.text;
            parts.append(std::move(p));
            break;
        }
        case McpContent::Kind::Image:
            parts.append(imagePart(c));
            break;
        case McpContent::Kind::Audio: {
            ResultPart p = binaryPart(c, Text::tr("Audio"), u"audio"_s);
            if (p.text.isEmpty())
                p.text = Text::tr("Save it to play it.");
            parts.append(std::move(p));
            break;
        }
        case McpContent::Kind::ResourceLink: {
            ResultPart p;
            p.kind = ResultPart::Kind::Link;
            p.uri = c.uri;
            p.mimeType = c.mimeType;
            QStringList words{Text::tr("Resource link"),
                              c.title.isEmpty() ? c.name : c.title + u" ("_s + c.name + u')'};
            if (!c.mimeType.isEmpty())
                words << c.mimeType;
            if (c.size)
                words << sizeText(*c.size);
            p.heading = words.join(u" · "_s);
            p.text = c.description;
            parts.append(std::move(p));
            break;
        }
        case McpContent::Kind::Resource: {
            if (!c.data.isEmpty() || !c.dataValid) {
                if (c.mimeType.startsWith("image/"_L1) && c.dataValid)
                    parts.append(imagePart(c));
                else
                    parts.append(binaryPart(c, Text::tr("Resource"), u"resource"_s));
                break;
            }
            ResultPart p;
            p.uri = c.uri;
            p.mimeType = c.mimeType;
            p.heading = Text::tr("Resource") + u" · "_s + c.uri +
                        (c.mimeType.isEmpty() ? QString() : u" · "_s + c.mimeType);
            p.text = c.text;
            p.data = c.text.toUtf8();
            p.suggestedName = nameFor(c.uri, c.mimeType, u"resource"_s);
            parts.append(std::move(p));
            break;
        }
        case McpContent::Kind::Unknown: {
            ResultPart p;
            p.kind = ResultPart::Kind::Unknown;
            p.heading = Text::tr("Content of type “%1”").arg(c.type);
            p.text = QString::fromStdString(
                c.raw.dump(2, ' ', false, McpJson::error_handler_t::replace));
            parts.append(std::move(p));
            break;
        }
        }
    }
    return parts;
}

QString resultSummary(const McpCallResult &result) {
    QString text = Text::tr("%n content item(s)", nullptr, int(result.content.size()));
    if (!result.structuredContent.is_null())
        text += Text::tr(", structured content");
    return result.isError ? Text::tr("Tool error: %1").arg(text) : text;
}

} // namespace sbx
