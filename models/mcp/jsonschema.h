#pragma once

#include "client/api/mcpjobs.h"

#include <QList>
#include <QString>

namespace sbx {

// A reason not to send, naming the field: "count: must be at most 10".
struct FormProblem {
    QString path; // "count", "edits[1].oldText"; empty: the arguments as a whole
    QString message;

    QString text() const;
};

// The paths FormProblem names: "options.mode", "edits[2]".
QString childPath(const QString &path, const QString &key);
QString itemPath(const QString &path, qsizetype index);

// A local "$ref" ("#/$defs/Name", "#/definitions/Name", any JSON pointer into root) followed
// to its schema, again while the target is itself a reference (bounded). The schema itself when
// it has none; null when the reference does not resolve.
const McpJson *resolveRef(const McpJson &root, const McpJson &schema);

// Checks arguments against a tool's inputSchema before they are sent, so that a mistake is
// named by its field rather than answered by the tool. It covers what forms need (type,
// required, properties, additionalProperties, items, enum, const, bounds, lengths, pattern,
// multipleOf, uniqueItems, allOf/anyOf/oneOf/not, local $ref); formats are hints, as in JSON
// Schema 2019-09 and later, and keywords it does not know are ignored: the tool has the last
// word. Draft-04 boolean exclusiveMinimum/Maximum are read as well as later numeric ones.
QList<FormProblem> validateArguments(const McpJson &schema, const McpJson &arguments);

} // namespace sbx
