#pragma once

#include "client/api/mcpjobs.h"

#include <QImage>
#include <QList>

namespace sbx {

// One content item of a tool's result as the MCP tab shows it: text, a decoded image, audio or
// another binary to save, a link to a resource, an embedded resource's text.
struct ResultPart {
    enum class Kind { Text, Image, Binary, Link, Unknown };
    Kind kind = Kind::Text;
    QString heading; // "Image · image/png · 16 × 16 · 1 KB"
    QString text;    // text, a text resource's contents, a link's description
    QImage image;    // Image: decoded
    QByteArray data; // Image and Binary: the bytes, for saving
    QString mimeType;
    QString uri;           // Link and resources
    QString suggestedName; // a file name to save the bytes as
};

// The parts of a result, in the order of its content. Images that do not decode become a Binary
// part saying so; items of a type this console does not know show their JSON.
QList<ResultPart> resultParts(const McpCallResult &result);
// One line about the whole result: "2 items, structured content", "Tool error: 1 item".
QString resultSummary(const McpCallResult &result);

} // namespace sbx
