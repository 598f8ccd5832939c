#pragma once

#include "models/mcp/jsonschema.h"

#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace sbx {

// What one field of a generated form edits.
enum class FormKind {
    String,
    Number,
    Integer,
    Boolean,
    Enum,   // one of enumValues (strings, numbers or booleans)
    Object, // fields: its properties, in the schema's order
    Array,  // fields: the one item field (a scalar or an object)
    Json,   // a raw JSON value: what the form cannot show otherwise
};

// The form description generated from a JSON Schema (a tool's inputSchema): one field per
// property, nested objects as groups, arrays of scalars or objects as rows. Whatever the
// generator does not understand (a choice of schemas, a map, nested arrays) becomes a Json
// field, so every schema has a form.
struct FormField {
    QString key;   // the property's name; empty for the root and for array items
    QString label; // the schema's title, else the key
    QString description;
    FormKind kind = FormKind::Json;
    bool required = false;
    QString format; // a string's format (uri, email, date-time, ...): a hint, not checked
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool exclusiveMaximum = false;
    std::optional<qint64> minLength;
    std::optional<qint64> maxLength;
    QString pattern;
    std::optional<qint64> minItems;
    std::optional<qint64> maxItems;
    McpJson enumValues = McpJson::array();
    bool hasDefault = false;
    McpJson defaultValue;
    std::vector<FormField> fields;
    QString jsonReason; // Json: why the schema is not a form of its own
    McpJson schema;     // the field's schema, $ref and nullable choices resolved

    const FormField *item() const {
        return kind == FormKind::Array && !fields.empty() ? &fields.front() : nullptr;
    }
    // A placeholder saying what to type: "number, 1 to 10", "URI", "integer ≥ 0", "JSON".
    QString hint() const;
    // The text of an enum value as a choice shows it.
    static QString choiceText(const McpJson &value);
};

// What a filled form holds, shaped like its FormField.
struct FormValue {
    QString text;    // String, Number, Integer, Json: as typed
    int choice = -1; // Enum: the index in enumValues; Boolean: 0 false, 1 true; -1: not set
    std::vector<FormValue> children; // Object: one per field; Array: one per row
};

// The form of a tool's inputSchema. The root is an Object (its fields the tool's parameters),
// or a Json field for a schema that is not an object of properties.
FormField formFromSchema(const McpJson &inputSchema);

// A form's first state: defaults filled in, arrays with the rows of their default.
FormValue initialValue(const FormField &field);
// The form showing these arguments (a call to run again, the raw editor's text). Values the
// field cannot show (a string where a number goes) are kept as text, so building reports them.
FormValue valueFromJson(const FormField &field, const McpJson &value);

// The arguments the filled form stands for. Empty optional fields, empty rows of scalar arrays
// and optional objects left empty are left out. Text that is not a number or not JSON is
// reported in problems; whether the result fits the schema is validateArguments'.
McpJson argumentsFrom(const FormField &root, const FormValue &value, QList<FormProblem> *problems);

} // namespace sbx
