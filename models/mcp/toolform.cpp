#include "models/mcp/toolform.h"

#include <QCoreApplication>
#include <QHash>
#include <QLocale>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxDepth = 12; // a recursive schema (a tree of nodes) ends in a Json field

// lupdate files a free tr() under the enclosing class or namespace: one named context instead.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(sbx::ToolForm)
};

QString str(const McpJson &j, const char *key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

std::optional<double> num(const McpJson &j, const char *key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>())
                                            : std::nullopt;
}

std::optional<qint64> count(const McpJson &j, const char *key) {
    const auto n = num(j, key);
    return n && *n >= 0 ? std::optional<qint64>(static_cast<qint64>(*n)) : std::nullopt;
}

QString numberText(double d) {
    if (std::floor(d) == d && std::fabs(d) < 1e15)
        return QString::number(static_cast<qint64>(d));
    return QString::number(d, 'g', 15);
}

bool isNullSchema(const McpJson &s) {
    return s.is_object() && s.value("type", McpJson()) == "null";
}

// The outer schema's words (a property's title and description beside its $ref or its
// nullable anyOf) win over the inner schema's.
McpJson withOuterWords(McpJson inner, const McpJson &outer) {
    if (!inner.is_object())
        return inner;
    for (const char *key : {"title", "description", "default"}) {
        if (const auto it = outer.find(key); it != outer.end())
            inner[key] = *it;
    }
    return inner;
}

// Follows $ref, and a choice between one schema and null (Optional[X] as pydantic writes it):
// what is left is the schema the field edits, or null when no one schema is left.
const McpJson *unwrap(const McpJson &root, const McpJson &schema, McpJson &holder, bool *nullable,
                      QString *why) {
    const McpJson *s = resolveRef(root, schema);
    if (!s || !s->is_object()) {
        *why = Text::tr("its schema could not be read");
        return nullptr;
    }
    for (int round = 0; round < 4; ++round) {
        const char *choice = s->contains("anyOf")   ? "anyOf"
                             : s->contains("oneOf") ? "oneOf"
                             : s->contains("allOf") ? "allOf"
                                                    : nullptr;
        if (!choice)
            return s;
        const McpJson &branches = (*s)[choice];
        if (!branches.is_array()) {
            *why = Text::tr("its schema could not be read");
            return nullptr;
        }
        // Pointers into branches: iterated in place, never through a copy.
        std::vector<const McpJson *> kept;
        for (const McpJson &b : branches) {
            const McpJson *r = resolveRef(root, b);
            if (r && isNullSchema(*r))
                *nullable = true;
            else if (r)
                kept.push_back(r);
        }
        if (kept.size() != 1) {
            *why = Text::tr("the schema allows a choice of forms");
            return nullptr;
        }
        McpJson merged = withOuterWords(*kept.front(), *s);
        for (const auto &[key, v] : s->items()) {
            if (key != choice && !merged.contains(key))
                merged[key] = v;
        }
        holder = std::move(merged);
        s = &holder;
    }
    return s;
}

// The one non-null type of a schema, inferred from its keywords when it names none.
QString typeOf(const McpJson &s, bool *nullable, bool *several) {
    QStringList types;
    if (const auto t = s.find("type"); t != s.end()) {
        for (const McpJson &name : t->is_array() ? *t : McpJson::array({*t})) {
            if (!name.is_string())
                continue;
            if (name == "null")
                *nullable = true;
            else
                types << QString::fromStdString(name.get<std::string>());
        }
    } else if (s.contains("properties")) {
        types << u"object"_s;
    } else if (s.contains("items")) {
        types << u"array"_s;
    }
    *several = types.size() > 1;
    return types.size() == 1 ? types.front() : QString();
}

FormField fieldFromSchema(const McpJson &root, const McpJson &schema, const QString &key,
                          bool required, int depth) {
    FormField f;
    f.key = key;
    f.required = required;
    f.schema = schema;
    f.label = key;
    McpJson holder;
    bool nullable = false;
    const McpJson *s =
        depth > kMaxDepth ? nullptr : unwrap(root, schema, holder, &nullable, &f.jsonReason);
    if (depth > kMaxDepth)
        f.jsonReason = Text::tr("it nests deeper than a form shows");
    if (!s)
        return f; // Json
    const McpJson resolved = withOuterWords(*s, schema.is_object() ? schema : McpJson::object());
    f.schema = resolved;
    if (const QString title = str(resolved, "title"); !title.isEmpty())
        f.label = title;
    f.description = str(resolved, "description");
    if (const auto d = resolved.find("default"); d != resolved.end()) {
        f.hasDefault = true;
        f.defaultValue = *d;
    }

    if (const auto c = resolved.find("const"); c != resolved.end() && c->is_primitive()) {
        f.kind = FormKind::Enum;
        f.enumValues = McpJson::array({*c});
        return f;
    }
    if (const auto e = resolved.find("enum"); e != resolved.end() && e->is_array()) {
        for (const McpJson &v : *e) {
            if (v.is_null())
                continue;
            if (!v.is_primitive()) {
                f.jsonReason = Text::tr("its choices are not plain values");
                f.enumValues = McpJson::array();
                return f;
            }
            f.enumValues.push_back(v);
        }
        f.kind = FormKind::Enum;
        return f;
    }
    bool several = false;
    const QString type = typeOf(resolved, &nullable, &several);
    if (type == "string"_L1) {
        f.kind = FormKind::String;
        f.format = str(resolved, "format");
        f.minLength = count(resolved, "minLength");
        f.maxLength = count(resolved, "maxLength");
        f.pattern = str(resolved, "pattern");
    } else if (type == "number"_L1 || type == "integer"_L1) {
        f.kind = type == "number"_L1 ? FormKind::Number : FormKind::Integer;
        f.minimum = num(resolved, "minimum");
        f.maximum = num(resolved, "maximum");
        const auto exMin = resolved.find("exclusiveMinimum");
        const auto exMax = resolved.find("exclusiveMaximum");
        // Draft 4 marks minimum as exclusive with a boolean; later drafts give the bound.
        if (exMin != resolved.end() && exMin->is_number()) {
            f.minimum = exMin->get<double>();
            f.exclusiveMinimum = true;
        } else if (exMin != resolved.end() && *exMin == true) {
            f.exclusiveMinimum = f.minimum.has_value();
        }
        if (exMax != resolved.end() && exMax->is_number()) {
            f.maximum = exMax->get<double>();
            f.exclusiveMaximum = true;
        } else if (exMax != resolved.end() && *exMax == true) {
            f.exclusiveMaximum = f.maximum.has_value();
        }
    } else if (type == "boolean"_L1) {
        f.kind = FormKind::Boolean;
    } else if (type == "object"_L1) {
        const auto properties = resolved.find("properties");
        if (properties == resolved.end() || !properties->is_object()) {
            const auto extra = resolved.find("additionalProperties");
            if (depth > 0 || (extra != resolved.end() && *extra != false)) {
                f.jsonReason = Text::tr("it is a map of names to values");
                return f;
            }
            f.kind = FormKind::Object; // no parameters
            return f;
        }
        QStringList requiredNames;
        if (const auto r = resolved.find("required"); r != resolved.end() && r->is_array()) {
            for (const McpJson &name : *r) {
                if (name.is_string())
                    requiredNames << QString::fromStdString(name.get<std::string>());
            }
        }
        f.kind = FormKind::Object;
        for (const auto &[name, sub] : properties->items()) {
            const QString childKey = QString::fromStdString(name);
            f.fields.push_back(
                fieldFromSchema(root, sub, childKey, requiredNames.contains(childKey), depth + 1));
        }
    } else if (type == "array"_L1) {
        const auto items = resolved.find("items");
        if (items == resolved.end() || !(items->is_object() || items->is_boolean())) {
            f.jsonReason = Text::tr("its items are not of one kind");
            return f;
        }
        FormField item = fieldFromSchema(root, *items, {}, false, depth + 1);
        if (item.kind == FormKind::Json || item.kind == FormKind::Array) {
            f.jsonReason = Text::tr("it is a list of values a form row cannot show");
            return f;
        }
        // An object row is sent even when left empty, so that its required fields are named.
        item.required = item.kind == FormKind::Object;
        if (item.label.isEmpty())
            item.label = f.label;
        f.kind = FormKind::Array;
        f.minItems = count(resolved, "minItems");
        f.maxItems = count(resolved, "maxItems");
        f.fields.push_back(std::move(item));
    } else {
        f.jsonReason =
            several ? Text::tr("it may be of several types") : Text::tr("it names no type");
    }
    return f;
}

FormValue emptyValue(const FormField &field) {
    FormValue v;
    if (field.kind == FormKind::Object) {
        for (const FormField &child : field.fields)
            v.children.push_back(emptyValue(child));
    }
    return v;
}

QString jsonText(const McpJson &value) {
    const bool nested = value.is_structured() && !value.empty();
    return QString::fromStdString(
        value.dump(nested ? 2 : -1, ' ', false, McpJson::error_handler_t::replace));
}

int choiceOf(const FormField &field, const McpJson &value) {
    for (std::size_t i = 0; i < field.enumValues.size(); ++i) {
        if (field.enumValues[i] == value)
            return static_cast<int>(i);
    }
    return -1;
}

std::optional<McpJson> build(const FormField &f, const FormValue &v, const QString &path,
                             QList<FormProblem> *problems) {
    switch (f.kind) {
    case FormKind::String:
        if (v.text.isEmpty())
            return std::nullopt;
        return McpJson(v.text.toStdString());
    case FormKind::Number:
    case FormKind::Integer: {
        const QString t = v.text.trimmed();
        if (t.isEmpty())
            return std::nullopt;
        bool ok = false;
        const qlonglong whole = QLocale::c().toLongLong(t, &ok);
        if (ok)
            return McpJson(static_cast<std::int64_t>(whole));
        const double d = QLocale::c().toDouble(t, &ok);
        if (!ok || !std::isfinite(d)) {
            problems->push_back({path, f.kind == FormKind::Integer
                                           ? Text::tr("must be a whole number")
                                           : Text::tr("must be a number")});
            return std::nullopt;
        }
        if (f.kind == FormKind::Integer) {
            if (std::floor(d) != d || std::fabs(d) > 9e15) {
                problems->push_back({path, Text::tr("must be a whole number")});
                return std::nullopt;
            }
            return McpJson(static_cast<std::int64_t>(d));
        }
        return McpJson(d);
    }
    case FormKind::Boolean:
        if (v.choice < 0)
            return std::nullopt;
        return McpJson(v.choice == 1);
    case FormKind::Enum:
        if (v.choice < 0 || v.choice >= static_cast<int>(f.enumValues.size()))
            return std::nullopt;
        return f.enumValues[static_cast<std::size_t>(v.choice)];
    case FormKind::Object: {
        McpJson object = McpJson::object();
        for (std::size_t i = 0; i < f.fields.size(); ++i) {
            const FormField &child = f.fields[i];
            const FormValue childValue = i < v.children.size() ? v.children[i] : FormValue();
            if (auto built = build(child, childValue, childPath(path, child.key), problems))
                object[child.key.toStdString()] = std::move(*built);
        }
        if (object.empty() && !f.required && !path.isEmpty())
            return std::nullopt;
        return object;
    }
    case FormKind::Array: {
        McpJson list = McpJson::array();
        const FormField *item = f.item();
        for (std::size_t i = 0; item && i < v.children.size(); ++i) {
            if (auto built =
                    build(*item, v.children[i], itemPath(path, qsizetype(list.size())), problems))
                list.push_back(std::move(*built));
        }
        if (list.empty() && !f.required)
            return std::nullopt;
        return list;
    }
    case FormKind::Json: {
        const QString t = v.text.trimmed();
        if (t.isEmpty())
            return std::nullopt;
        const QByteArray bytes = t.toUtf8();
        McpJson parsed = McpJson::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (parsed.is_discarded()) {
            problems->push_back({path, Text::tr("is not valid JSON")});
            return std::nullopt;
        }
        return parsed;
    }
    }
    return std::nullopt;
}

} // namespace

QString FormField::choiceText(const McpJson &value) {
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    return QString::fromStdString(value.dump());
}

QString FormField::hint() const {
    switch (kind) {
    case FormKind::String: {
        static const QHash<QString, const char *> formats{
            {u"uri"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "URI, e.g. https://example.com/a")},
            {u"url"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "URL, e.g. https://example.com/a")},
            {u"email"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "email address")},
            {u"date-time"_s,
             QT_TRANSLATE_NOOP("sbx::ToolForm", "date and time, e.g. 2026-12-01T09:30:00Z")},
            {u"date"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "date, e.g. 2026-12-01")},
            {u"time"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "time, e.g. 09:30:00")},
            {u"uuid"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "UUID")},
            {u"hostname"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "host name")},
            {u"ipv4"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "IPv4 address")},
            {u"ipv6"_s, QT_TRANSLATE_NOOP("sbx::ToolForm", "IPv6 address")},
        };
        QString text = formats.contains(format) ? Text::tr(formats.value(format))
                       : format.isEmpty()       ? QString()
                                                : format;
        if (maxLength)
            text += (text.isEmpty() ? QString() : u", "_s) +
                    QCoreApplication::translate("sbx::ToolForm", "up to %n character(s)", nullptr,
                                                int(*maxLength));
        return text;
    }
    case FormKind::Number:
    case FormKind::Integer: {
        const QString what =
            kind == FormKind::Number ? Text::tr("number") : Text::tr("whole number");
        const QString lo = minimum ? numberText(*minimum) : QString();
        const QString hi = maximum ? numberText(*maximum) : QString();
        if (minimum && maximum && !exclusiveMinimum && !exclusiveMaximum)
            return Text::tr("%1, %2 to %3").arg(what, lo, hi);
        QStringList bounds;
        if (minimum)
            bounds << (exclusiveMinimum ? u"> "_s : u"≥ "_s) + lo;
        if (maximum)
            bounds << (exclusiveMaximum ? u"< "_s : u"≤ "_s) + hi;
        return bounds.isEmpty() ? what : what + u' ' + bounds.join(u", "_s);
    }
    case FormKind::Json:
        return Text::tr("JSON");
    default:
        return {};
    }
}

FormField formFromSchema(const McpJson &inputSchema) {
    FormField root = fieldFromSchema(inputSchema, inputSchema, {}, true, 0);
    if (root.kind != FormKind::Object) {
        root.kind = FormKind::Json;
        if (root.jsonReason.isEmpty())
            root.jsonReason = Text::tr("the tool's schema is not an object of parameters");
    }
    return root;
}

FormValue initialValue(const FormField &field) {
    const bool scalarDefault = field.kind != FormKind::Boolean && field.kind != FormKind::Enum &&
                               field.kind != FormKind::Object;
    if (field.hasDefault && scalarDefault)
        return valueFromJson(field, field.defaultValue);
    FormValue v;
    switch (field.kind) {
    case FormKind::Boolean:
        if (field.hasDefault && field.defaultValue.is_boolean())
            v.choice = field.defaultValue == true ? 1 : 0;
        else if (field.required)
            v.choice = 0;
        break;
    case FormKind::Enum:
        v.choice = field.hasDefault ? choiceOf(field, field.defaultValue) : -1;
        if (v.choice < 0 && field.required && field.enumValues.size() == 1)
            v.choice = 0;
        break;
    case FormKind::Object:
        // A default object fills its fields; the fields' own defaults fill the rest.
        for (const FormField &child : field.fields) {
            const std::string key = child.key.toStdString();
            const McpJson &d = field.defaultValue;
            v.children.push_back(field.hasDefault && d.is_object() && d.contains(key)
                                     ? valueFromJson(child, d[key])
                                     : initialValue(child));
        }
        break;
    case FormKind::Array:
        for (qint64 i = 0; field.item() && i < field.minItems.value_or(0); ++i)
            v.children.push_back(initialValue(*field.item()));
        break;
    default:
        break;
    }
    return v;
}

FormValue valueFromJson(const FormField &field, const McpJson &value) {
    FormValue v;
    switch (field.kind) {
    case FormKind::String:
        v.text = value.is_string() ? QString::fromStdString(value.get<std::string>())
                 : value.is_null() ? QString()
                                   : jsonText(value);
        break;
    case FormKind::Number:
    case FormKind::Integer:
        v.text = value.is_number()   ? numberText(value.get<double>())
                 : value.is_string() ? QString::fromStdString(value.get<std::string>())
                 : value.is_null()   ? QString()
                                     : jsonText(value);
        if (value.is_number_integer())
            v.text = QString::number(value.get<qint64>());
        break;
    case FormKind::Boolean:
        v.choice = value.is_boolean() ? (value == true ? 1 : 0) : -1;
        break;
    case FormKind::Enum:
        v.choice = choiceOf(field, value);
        break;
    case FormKind::Object:
        for (const FormField &child : field.fields) {
            const std::string key = child.key.toStdString();
            v.children.push_back(value.is_object() && value.contains(key)
                                     ? valueFromJson(child, value[key])
                                     : emptyValue(child));
        }
        break;
    case FormKind::Array:
        for (const McpJson &item : value.is_array() ? value : McpJson::array()) {
            if (field.item())
                v.children.push_back(valueFromJson(*field.item(), item));
        }
        break;
    case FormKind::Json:
        v.text = value.is_null() ? QString() : jsonText(value);
        break;
    }
    return v;
}

McpJson argumentsFrom(const FormField &root, const FormValue &value, QList<FormProblem> *problems) {
    QList<FormProblem> scratch;
    QList<FormProblem> *out = problems ? problems : &scratch;
    if (root.kind == FormKind::Json) {
        const auto built = build(root, value, {}, out);
        if (built && !built->is_object()) {
            out->push_back({{}, Text::tr("must be a JSON object of the tool's parameters")});
            return McpJson::object();
        }
        return built ? *built : McpJson::object();
    }
    const auto built = build(root, value, {}, out);
    return built ? *built : McpJson::object();
}

} // namespace sbx
