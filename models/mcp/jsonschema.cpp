#include "models/mcp/jsonschema.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxDepth = 64; // schemas nest; references may loop
constexpr int kMaxRefHops = 16;

// lupdate files a free tr() under the enclosing class or namespace: one named context instead.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(sbx::JsonSchema)
};

bool isWhole(const McpJson &v) {
    if (v.is_number_integer())
        return true;
    if (!v.is_number_float())
        return false;
    const double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d;
}

bool hasType(const McpJson &v, const std::string &type) {
    if (type == "string")
        return v.is_string();
    if (type == "number")
        return v.is_number();
    if (type == "integer")
        return isWhole(v);
    if (type == "boolean")
        return v.is_boolean();
    if (type == "object")
        return v.is_object();
    if (type == "array")
        return v.is_array();
    if (type == "null")
        return v.is_null();
    return true; // a type name this checker does not know is not its to refuse
}

QString typeWord(const std::string &type) {
    if (type == "string")
        return Text::tr("text");
    if (type == "number")
        return Text::tr("a number");
    if (type == "integer")
        return Text::tr("a whole number");
    if (type == "boolean")
        return Text::tr("true or false");
    if (type == "object")
        return Text::tr("an object");
    if (type == "array")
        return Text::tr("a list");
    if (type == "null")
        return Text::tr("null");
    return QString::fromStdString(type);
}

QString numberText(double d) {
    if (std::floor(d) == d && std::fabs(d) < 1e15)
        return QString::number(static_cast<qint64>(d));
    return QString::number(d, 'g', 15);
}

QString valueText(const McpJson &v) {
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump(-1, ' ', false, McpJson::error_handler_t::replace));
}

std::optional<double> number(const McpJson &schema, const char *key) {
    const auto it = schema.find(key);
    if (it == schema.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

struct Problem {
    FormProblem problem;
    bool typeMismatch = false; // the value was not of the schema's type at all
};

class Checker {
public:
    explicit Checker(const McpJson &root)
        : m_root(root) {}

    void check(const McpJson &schema, const McpJson &value, const QString &path, int depth,
               QList<Problem> &out) const;

private:
    void checkNumber(const McpJson &s, double v, const QString &path, QList<Problem> &out) const;
    void checkString(const McpJson &s, const QString &v, const QString &path,
                     QList<Problem> &out) const;
    void checkArray(const McpJson &s, const McpJson &v, const QString &path, int depth,
                    QList<Problem> &out) const;
    void checkObject(const McpJson &s, const McpJson &v, const QString &path, int depth,
                     QList<Problem> &out) const;
    void checkChoices(const McpJson &s, const McpJson &v, const QString &path, int depth,
                      QList<Problem> &out) const;

    const McpJson &m_root;
};

void Checker::check(const McpJson &schemaIn, const McpJson &value, const QString &path, int depth,
                    QList<Problem> &out) const {
    if (depth > kMaxDepth)
        return;
    if (schemaIn.is_boolean()) {
        if (!schemaIn.get<bool>())
            out.push_back({{path, Text::tr("is not allowed here")}});
        return;
    }
    const McpJson *resolved = resolveRef(m_root, schemaIn);
    if (!resolved || !resolved->is_object())
        return; // an unresolvable reference: the tool will say
    const McpJson &s = *resolved;

    if (const auto type = s.find("type"); type != s.end()) {
        std::vector<std::string> types;
        if (type->is_string())
            types.push_back(type->get<std::string>());
        for (const McpJson &t : type->is_array() ? *type : McpJson::array()) {
            if (t.is_string())
                types.push_back(t.get<std::string>());
        }
        bool matched = types.empty();
        for (const std::string &t : types)
            matched = matched || hasType(value, t);
        if (!matched) {
            QStringList words;
            for (const std::string &t : types)
                words << typeWord(t);
            out.push_back({{path, Text::tr("must be %1").arg(words.join(Text::tr(" or ")))}, true});
            return;
        }
    }
    if (const auto e = s.find("enum"); e != s.end() && e->is_array()) {
        bool found = false;
        QStringList choices;
        for (const McpJson &choice : *e) {
            found = found || choice == value;
            choices << valueText(choice);
        }
        if (!found)
            out.push_back({{path, Text::tr("must be one of: %1").arg(choices.join(u", "_s))}});
    }
    if (const auto c = s.find("const"); c != s.end() && *c != value)
        out.push_back({{path, Text::tr("must be %1").arg(valueText(*c))}});

    if (value.is_number())
        checkNumber(s, value.get<double>(), path, out);
    else if (value.is_string())
        checkString(s, QString::fromStdString(value.get<std::string>()), path, out);
    else if (value.is_array())
        checkArray(s, value, path, depth, out);
    else if (value.is_object())
        checkObject(s, value, path, depth, out);
    checkChoices(s, value, path, depth, out);
}

void Checker::checkNumber(const McpJson &s, double v, const QString &path,
                          QList<Problem> &out) const {
    // Draft 4 writes an exclusive bound as a boolean beside minimum; later drafts as a number.
    const auto exMin = s.find("exclusiveMinimum");
    const auto exMax = s.find("exclusiveMaximum");
    const bool oldExMin = exMin != s.end() && exMin->is_boolean() && exMin->get<bool>();
    const bool oldExMax = exMax != s.end() && exMax->is_boolean() && exMax->get<bool>();
    if (const auto min = number(s, "minimum")) {
        if (oldExMin ? v <= *min : v < *min)
            out.push_back({{path, (oldExMin ? Text::tr("must be more than %1")
                                            : Text::tr("must be at least %1"))
                                      .arg(numberText(*min))}});
    }
    if (const auto max = number(s, "maximum")) {
        if (oldExMax ? v >= *max : v > *max)
            out.push_back({{path, (oldExMax ? Text::tr("must be less than %1")
                                            : Text::tr("must be at most %1"))
                                      .arg(numberText(*max))}});
    }
    if (const auto min = number(s, "exclusiveMinimum"); min && v <= *min)
        out.push_back({{path, Text::tr("must be more than %1").arg(numberText(*min))}});
    if (const auto max = number(s, "exclusiveMaximum"); max && v >= *max)
        out.push_back({{path, Text::tr("must be less than %1").arg(numberText(*max))}});
    if (const auto step = number(s, "multipleOf"); step && *step > 0) {
        const double q = v / *step;
        if (std::fabs(q - std::round(q)) > 1e-9)
            out.push_back({{path, Text::tr("must be a multiple of %1").arg(numberText(*step))}});
    }
}

void Checker::checkString(const McpJson &s, const QString &v, const QString &path,
                          QList<Problem> &out) const {
    const auto length = static_cast<double>(v.toUcs4().size()); // code points, as JSON Schema
    if (const auto min = number(s, "minLength"); min && length < *min)
        out.push_back(
            {{path, Text::tr("must be at least %n character(s) long", nullptr, int(*min))}});
    if (const auto max = number(s, "maxLength"); max && length > *max)
        out.push_back(
            {{path, Text::tr("must be at most %n character(s) long", nullptr, int(*max))}});
    if (const auto p = s.find("pattern"); p != s.end() && p->is_string()) {
        const QRegularExpression re(QString::fromStdString(p->get<std::string>()));
        if (re.isValid() && !re.match(v).hasMatch())
            out.push_back({{path, Text::tr("must match the pattern %1").arg(re.pattern())}});
    }
}

void Checker::checkArray(const McpJson &s, const McpJson &v, const QString &path, int depth,
                         QList<Problem> &out) const {
    const auto count = static_cast<double>(v.size());
    if (const auto min = number(s, "minItems"); min && count < *min)
        out.push_back({{path, Text::tr("needs at least %n item(s)", nullptr, int(*min))}});
    if (const auto max = number(s, "maxItems"); max && count > *max)
        out.push_back({{path, Text::tr("may have at most %n item(s)", nullptr, int(*max))}});
    if (const auto u = s.find("uniqueItems"); u != s.end() && *u == true) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (v[i] == v[j]) {
                    out.push_back(
                        {{itemPath(path, qsizetype(i)), Text::tr("repeats an earlier item")}});
                    break;
                }
            }
        }
    }
    std::size_t tuple = 0;
    const auto prefix = s.find("prefixItems");
    const auto items = s.find("items");
    const McpJson *positional = prefix != s.end() && prefix->is_array() ? &*prefix
                                : items != s.end() && items->is_array() ? &*items
                                                                        : nullptr;
    if (positional) {
        tuple = std::min(positional->size(), v.size());
        for (std::size_t i = 0; i < tuple; ++i)
            check((*positional)[i], v[i], itemPath(path, qsizetype(i)), depth + 1, out);
    }
    const McpJson *rest = nullptr;
    if (items != s.end() && !items->is_array())
        rest = &*items;
    else if (const auto extra = s.find("additionalItems"); positional && extra != s.end())
        rest = &*extra;
    if (rest) {
        for (std::size_t i = tuple; i < v.size(); ++i)
            check(*rest, v[i], itemPath(path, qsizetype(i)), depth + 1, out);
    }
}

void Checker::checkObject(const McpJson &s, const McpJson &v, const QString &path, int depth,
                          QList<Problem> &out) const {
    if (const auto required = s.find("required"); required != s.end() && required->is_array()) {
        for (const McpJson &name : *required) {
            if (name.is_string() && !v.contains(name.get<std::string>()))
                out.push_back({{childPath(path, QString::fromStdString(name.get<std::string>())),
                                Text::tr("required")}});
        }
    }
    const auto properties = s.find("properties");
    const bool hasProperties = properties != s.end() && properties->is_object();
    const auto additional = s.find("additionalProperties");
    for (const auto &[key, item] : v.items()) {
        const QString where = childPath(path, QString::fromStdString(key));
        if (hasProperties && properties->contains(key)) {
            check((*properties)[key], item, where, depth + 1, out);
        } else if (additional != s.end()) {
            if (*additional == false)
                out.push_back(
                    {{where, Text::tr("is not a parameter here (the schema does not list it)")}});
            else
                check(*additional, item, where, depth + 1, out);
        }
    }
}

void Checker::checkChoices(const McpJson &s, const McpJson &v, const QString &path, int depth,
                           QList<Problem> &out) const {
    if (const auto all = s.find("allOf"); all != s.end() && all->is_array()) {
        for (const McpJson &branch : *all)
            check(branch, v, path, depth + 1, out);
    }
    for (const char *keyword : {"anyOf", "oneOf"}) {
        const auto choices = s.find(keyword);
        if (choices == s.end() || !choices->is_array() || choices->empty())
            continue;
        int matches = 0;
        QList<QList<Problem>> failures;
        for (const McpJson &branch : *choices) {
            QList<Problem> found;
            check(branch, v, path, depth + 1, found);
            if (found.isEmpty())
                ++matches;
            else
                failures.append(found);
        }
        if (matches == 0) {
            // One branch of the right type (a nullable value's): its reasons say more.
            QList<const QList<Problem> *> typed;
            for (const QList<Problem> &f : failures) {
                if (!(f.size() == 1 && f.front().typeMismatch && f.front().problem.path == path))
                    typed.append(&f);
            }
            if (typed.size() == 1)
                out.append(*typed.front());
            else
                out.push_back(
                    {{path, Text::tr("does not match any of the forms the schema allows")}});
        } else if (matches > 1 && qstrcmp(keyword, "oneOf") == 0) {
            out.push_back(
                {{path, Text::tr("matches more than one of the forms the schema allows")}});
        }
    }
    if (const auto n = s.find("not"); n != s.end()) {
        QList<Problem> found;
        check(*n, v, path, depth + 1, found);
        if (found.isEmpty())
            out.push_back({{path, Text::tr("must not match the form the schema excludes")}});
    }
}

} // namespace

QString FormProblem::text() const {
    return (path.isEmpty() ? QCoreApplication::translate("sbx::JsonSchema", "arguments") : path) +
           u": "_s + message;
}

QString childPath(const QString &path, const QString &key) {
    return path.isEmpty() ? key : path + u'.' + key;
}

QString itemPath(const QString &path, qsizetype index) {
    return path + u'[' + QString::number(index) + u']';
}

const McpJson *resolveRef(const McpJson &root, const McpJson &schema) {
    const McpJson *at = &schema;
    for (int hop = 0; hop < kMaxRefHops; ++hop) {
        if (!at->is_object())
            return at;
        const auto ref = at->find("$ref");
        if (ref == at->end() || !ref->is_string())
            return at;
        // A fragment: a JSON pointer, percent-encoded as URI fragments are. Remote references
        // are not fetched.
        const QString target =
            QUrl::fromPercentEncoding(QByteArray::fromStdString(ref->get<std::string>()));
        if (!target.startsWith(u'#'))
            return nullptr;
        at = &root;
        const QStringList tokens = target.mid(1).split(u'/');
        for (qsizetype i = 1; i < tokens.size() && at; ++i) {
            QString token = tokens.at(i);
            token.replace(u"~1"_s, u"/"_s).replace(u"~0"_s, u"~"_s);
            if (at->is_object()) {
                const auto next = at->find(token.toStdString());
                at = next == at->end() ? nullptr : &*next;
            } else if (at->is_array()) {
                bool ok = false;
                const qulonglong index = token.toULongLong(&ok);
                at = ok && index < at->size() ? &(*at)[index] : nullptr;
            } else {
                at = nullptr;
            }
        }
        if (!at)
            return nullptr;
    }
    return nullptr;
}

QList<FormProblem> validateArguments(const McpJson &schema, const McpJson &arguments) {
    QList<Problem> found;
    Checker(schema).check(schema, arguments, {}, 0, found);
    QList<FormProblem> out;
    out.reserve(found.size());
    for (Problem &p : found) {
        bool repeated = false;
        for (const FormProblem &o : out)
            repeated = repeated || (o.path == p.problem.path && o.message == p.problem.message);
        if (!repeated)
            out.append(std::move(p.problem));
    }
    return out;
}

} // namespace sbx
