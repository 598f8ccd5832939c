// The MCP tab's models without a window: tool lists parsed from real tools/list answers
// (server-everything and server-filesystem, as fixtures), forms generated from their schemas and
// from hand-written ones covering every kind of field, the arguments a filled form stands for,
// and the checks that name the field a value is wrong in.
#include "client/api/mcpjobs.h"
#include "models/mcp/jsonschema.h"
#include "models/mcp/mcptoollistmodel.h"
#include "models/mcp/toolform.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

McpJson fixture(const QString &name) {
    QFile file(QStringLiteral(SBX_FIXTURES_DIR) + u"/mcp/"_s + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    return McpJson::parse(bytes.begin(), bytes.end(), nullptr, false);
}

McpToolList toolsOf(const QString &name) {
    return parseMcpToolList(fixture(name).value("data", McpJson::object()));
}

McpTool toolNamed(const QString &fixtureName, const QString &tool) {
    for (const McpTool &t : toolsOf(fixtureName).tools) {
        if (t.name == tool)
            return t;
    }
    return {};
}

const FormField *fieldOf(const FormField &form, const QString &key) {
    for (const FormField &f : form.fields) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

// The index of the field in its object's children, for filling a FormValue by name.
FormValue &slot(const FormField &form, FormValue &value, const QString &key) {
    for (std::size_t i = 0; i < form.fields.size(); ++i) {
        if (form.fields[i].key == key)
            return value.children[i];
    }
    qFatal("no field %s", qPrintable(key));
}

QStringList texts(const QList<FormProblem> &problems) {
    QStringList out;
    for (const FormProblem &p : problems)
        out << p.text();
    return out;
}

// Built, then checked against the schema, as the tab does before it sends.
QStringList problemsOf(const McpJson &schema, const FormField &form, const FormValue &value,
                       McpJson *arguments = nullptr) {
    QList<FormProblem> problems;
    const McpJson built = argumentsFrom(form, value, &problems);
    problems += validateArguments(schema, built);
    if (arguments)
        *arguments = built;
    return texts(problems);
}

// A schema with every kind of field a form generates, as a tool might declare it.
const char *const kEveryKind = R"({
  "type": "object",
  "$defs": {"Level": {"type": "integer", "minimum": 1, "maximum": 5, "description": "How loud"}},
  "properties": {
    "email": {"type": "string", "format": "email", "description": "Who to tell",
              "minLength": 3, "pattern": "@"},
    "when": {"type": "string", "format": "date-time"},
    "count": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "default": 10},
    "ratio": {"type": "number", "minimum": 0, "maximum": 1},
    "dryRun": {"type": "boolean"},
    "verbose": {"type": "boolean", "default": true},
    "mode": {"enum": ["fast", "safe"], "default": "safe", "title": "Mode"},
    "size": {"type": "number", "enum": [1, 2, 4]},
    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
    "ports": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 3},
    "edits": {"type": "array", "items": {"type": "object",
              "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
              "required": ["from", "to"]}},
    "options": {"type": "object", "description": "Fine tuning",
                "properties": {"level": {"$ref": "#/$defs/Level"},
                               "note": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                        "default": null, "title": "Note"}},
                "required": ["level"]},
    "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "kind": {"const": "report"}
  },
  "required": ["email", "mode", "kind"],
  "additionalProperties": false
})";

McpJson everyKindSchema() {
    return McpJson::parse(kEveryKind);
}

} // namespace

class TestMcpForms final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void toolListsParseFromRealServers();
    void echoFormFillsAndNamesTheMissingField();
    void sumTakesTwoNumbers();
    void defaultsFillTheFormAndBoundsAreChecked();
    void enumAndBooleanFieldsOfRealTools();
    void arrayOfObjectsFromTheFilesystemServer();
    void requiredArrayOfStringsNeedsItsItems();
    void everyKindOfFieldIsGenerated();
    void everyKindRoundTripsThroughTheForm();
    void rawJsonIsCheckedWithTheFieldNamed();
    void olderAndChoiceKeywordsAreChecked();
    void schemaThatIsNotAnObjectIsOneJsonField();
    void destructiveToolsAskFirst();
    void toolListModelPresentsHints();
};

void TestMcpForms::toolListsParseFromRealServers() {
    const McpToolList everything = toolsOf(u"everything-tools.json"_s);
    QCOMPARE(everything.tools.size(), 13);
    QVERIFY(everything.nextCursor.isEmpty());
    const McpTool echo = toolNamed(u"everything-tools.json"_s, u"echo"_s);
    QCOMPARE(echo.title, u"Echo Tool"_s);
    QCOMPARE(echo.description, u"Echoes back the input string"_s);
    QCOMPARE(echo.annotations.readOnly, std::optional<bool>(true));
    QCOMPARE(echo.annotations.destructive, std::optional<bool>(false));
    QCOMPARE(echo.annotations.idempotent, std::optional<bool>(true));
    QCOMPARE(echo.annotations.openWorld, std::optional<bool>(false));
    const McpTool write = toolNamed(u"filesystem-tools.json"_s, u"write_file"_s);
    QCOMPARE(write.annotations.destructive, std::optional<bool>(true));
    // A hint the server leaves out stays unknown (MCP's default applies), not false.
    const McpTool read = toolNamed(u"filesystem-tools.json"_s, u"read_text_file"_s);
    QVERIFY(!read.annotations.destructive.has_value());
    // Properties keep the schema's order: the form's fields follow it.
    const McpTool gzip = toolNamed(u"everything-tools.json"_s, u"gzip-file-as-resource"_s);
    QStringList keys;
    for (const FormField &f : formFromSchema(gzip.inputSchema).fields)
        keys << f.key;
    QCOMPARE(keys, (QStringList{u"name"_s, u"data"_s, u"outputType"_s}));
}

void TestMcpForms::echoFormFillsAndNamesTheMissingField() {
    const McpTool echo = toolNamed(u"everything-tools.json"_s, u"echo"_s);
    const FormField form = formFromSchema(echo.inputSchema);
    QCOMPARE(form.kind, FormKind::Object);
    QCOMPARE(form.fields.size(), std::size_t(1));
    const FormField &message = form.fields.front();
    QCOMPARE(message.kind, FormKind::String);
    QVERIFY(message.required);
    QCOMPARE(message.description, u"Message to echo"_s);
    FormValue value = initialValue(form);
    QCOMPARE(problemsOf(echo.inputSchema, form, value), QStringList{u"message: required"_s});
    value.children[0].text = u"hello there"_s;
    McpJson arguments;
    QCOMPARE(problemsOf(echo.inputSchema, form, value, &arguments), QStringList());
    QCOMPARE(arguments, McpJson::parse(R"({"message": "hello there"})"));
}

void TestMcpForms::sumTakesTwoNumbers() {
    const McpTool sum = toolNamed(u"everything-tools.json"_s, u"get-sum"_s);
    const FormField form = formFromSchema(sum.inputSchema);
    QCOMPARE(form.fields.size(), std::size_t(2));
    QCOMPARE(form.fields[0].kind, FormKind::Number);
    QCOMPARE(form.fields[0].hint(), u"number"_s);
    FormValue value = initialValue(form);
    slot(form, value, u"a"_s).text = u"2"_s;
    slot(form, value, u"b"_s).text = u"x"_s;
    QCOMPARE(problemsOf(sum.inputSchema, form, value),
             (QStringList{u"b: must be a number"_s, u"b: required"_s}));
    slot(form, value, u"b"_s).text = u" 3.5 "_s;
    McpJson arguments;
    QCOMPARE(problemsOf(sum.inputSchema, form, value, &arguments), QStringList());
    // Whole numbers go as integers, the others as they were typed.
    QCOMPARE(arguments.dump(), std::string(R"({"a":2,"b":3.5})"));
}

void TestMcpForms::defaultsFillTheFormAndBoundsAreChecked() {
    const McpTool links = toolNamed(u"everything-tools.json"_s, u"get-resource-links"_s);
    const FormField form = formFromSchema(links.inputSchema);
    const FormField *count = fieldOf(form, u"count"_s);
    QVERIFY(count);
    QVERIFY(!count->required);
    QCOMPARE(count->hint(), u"number, 1 to 10"_s);
    QCOMPARE(count->description, u"Number of resource links to return (1-10)"_s);
    FormValue value = initialValue(form);
    QCOMPARE(slot(form, value, u"count"_s).text, u"3"_s);
    McpJson arguments;
    QCOMPARE(problemsOf(links.inputSchema, form, value, &arguments), QStringList());
    QCOMPARE(arguments, McpJson::parse(R"({"count": 3})"));
    slot(form, value, u"count"_s).text = u"11"_s;
    QCOMPARE(problemsOf(links.inputSchema, form, value),
             QStringList{u"count: must be at most 10"_s});
    // An optional field left empty is not sent.
    slot(form, value, u"count"_s).text.clear();
    QCOMPARE(problemsOf(links.inputSchema, form, value, &arguments), QStringList());
    QCOMPARE(arguments, McpJson::object());

    const McpTool gzip = toolNamed(u"everything-tools.json"_s, u"gzip-file-as-resource"_s);
    const FormField gzipForm = formFromSchema(gzip.inputSchema);
    QCOMPARE(fieldOf(gzipForm, u"data"_s)->format, u"uri"_s);
    QVERIFY(fieldOf(gzipForm, u"data"_s)->hint().startsWith(u"URI"_s));
    FormValue gzipValue = initialValue(gzipForm);
    QCOMPARE(slot(gzipForm, gzipValue, u"name"_s).text, u"README.md.gz"_s);
    QCOMPARE(argumentsFrom(gzipForm, gzipValue, nullptr).value("outputType", ""),
             std::string("resourceLink"));
}

void TestMcpForms::enumAndBooleanFieldsOfRealTools() {
    const McpTool structured = toolNamed(u"everything-tools.json"_s, u"get-structured-content"_s);
    const FormField form = formFromSchema(structured.inputSchema);
    const FormField *location = fieldOf(form, u"location"_s);
    QCOMPARE(location->kind, FormKind::Enum);
    QCOMPARE(location->enumValues.size(), std::size_t(3));
    FormValue value = initialValue(form);
    QCOMPARE(value.children[0].choice, -1);
    QCOMPARE(problemsOf(structured.inputSchema, form, value), QStringList{u"location: required"_s});
    value.children[0].choice = 1;
    QCOMPARE(argumentsFrom(form, value, nullptr), McpJson::parse(R"({"location":"Chicago"})"));

    const McpTool annotated = toolNamed(u"everything-tools.json"_s, u"get-annotated-message"_s);
    const FormField aForm = formFromSchema(annotated.inputSchema);
    const FormField *image = fieldOf(aForm, u"includeImage"_s);
    QCOMPARE(image->kind, FormKind::Boolean);
    QVERIFY(image->hasDefault);
    FormValue aValue = initialValue(aForm);
    QCOMPARE(slot(aForm, aValue, u"includeImage"_s).choice, 0);
    slot(aForm, aValue, u"messageType"_s).choice = 0;
    QCOMPARE(argumentsFrom(aForm, aValue, nullptr),
             McpJson::parse(R"({"messageType":"error","includeImage":false})"));
}

void TestMcpForms::arrayOfObjectsFromTheFilesystemServer() {
    const McpTool edit = toolNamed(u"filesystem-tools.json"_s, u"edit_file"_s);
    const FormField form = formFromSchema(edit.inputSchema);
    const FormField *edits = fieldOf(form, u"edits"_s);
    QCOMPARE(edits->kind, FormKind::Array);
    QCOMPARE(edits->item()->kind, FormKind::Object);
    QCOMPARE(edits->item()->fields.size(), std::size_t(2));
    QVERIFY(edits->item()->fields[0].required);
    FormValue value = initialValue(form);
    slot(form, value, u"path"_s).text = u"/w/a.txt"_s;
    // An added row left empty is sent, so its required fields are named.
    slot(form, value, u"edits"_s).children.push_back(initialValue(*edits->item()));
    QCOMPARE(problemsOf(edit.inputSchema, form, value),
             (QStringList{u"edits[0].oldText: required"_s, u"edits[0].newText: required"_s}));
    FormValue &row = slot(form, value, u"edits"_s).children[0];
    row.children[0].text = u"old"_s;
    row.children[1].text = u"new"_s;
    McpJson arguments;
    QCOMPARE(problemsOf(edit.inputSchema, form, value, &arguments), QStringList());
    QCOMPARE(arguments, McpJson::parse(R"({"path":"/w/a.txt",
        "edits":[{"oldText":"old","newText":"new"}],"dryRun":false})"));
}

void TestMcpForms::requiredArrayOfStringsNeedsItsItems() {
    const McpTool read = toolNamed(u"filesystem-tools.json"_s, u"read_multiple_files"_s);
    const FormField form = formFromSchema(read.inputSchema);
    const FormField *paths = fieldOf(form, u"paths"_s);
    QCOMPARE(paths->kind, FormKind::Array);
    QCOMPARE(paths->item()->kind, FormKind::String);
    QCOMPARE(paths->minItems, std::optional<qint64>(1));
    FormValue value = initialValue(form);
    // minItems rows are there to fill; an empty row of scalars is not sent.
    QCOMPARE(slot(form, value, u"paths"_s).children.size(), std::size_t(1));
    QCOMPARE(problemsOf(read.inputSchema, form, value),
             QStringList{u"paths: needs at least 1 item(s)"_s});
    slot(form, value, u"paths"_s).children[0].text = u"/w/a"_s;
    slot(form, value, u"paths"_s).children.push_back({u"/w/b"_s, -1, {}});
    QCOMPARE(argumentsFrom(form, value, nullptr), McpJson::parse(R"({"paths":["/w/a","/w/b"]})"));
}

void TestMcpForms::everyKindOfFieldIsGenerated() {
    const FormField form = formFromSchema(everyKindSchema());
    QCOMPARE(form.kind, FormKind::Object);
    QStringList keys;
    for (const FormField &f : form.fields)
        keys << f.key;
    QCOMPARE(keys, (QStringList{u"email"_s, u"when"_s, u"count"_s, u"ratio"_s, u"dryRun"_s,
                                u"verbose"_s, u"mode"_s, u"size"_s, u"tags"_s, u"ports"_s,
                                u"edits"_s, u"options"_s, u"target"_s, u"labels"_s, u"kind"_s}));
    const FormField *email = fieldOf(form, u"email"_s);
    QCOMPARE(email->kind, FormKind::String);
    QVERIFY(email->required);
    QCOMPARE(email->hint(), u"email address"_s);
    QCOMPARE(email->description, u"Who to tell"_s);
    QVERIFY(fieldOf(form, u"when"_s)->hint().startsWith(u"date and time"_s));
    const FormField *count = fieldOf(form, u"count"_s);
    QCOMPARE(count->kind, FormKind::Integer);
    QCOMPARE(count->hint(), u"whole number > 0, ≤ 100"_s);
    QCOMPARE(fieldOf(form, u"ratio"_s)->hint(), u"number, 0 to 1"_s);
    QCOMPARE(fieldOf(form, u"dryRun"_s)->kind, FormKind::Boolean);
    QCOMPARE(fieldOf(form, u"mode"_s)->label, u"Mode"_s);
    QCOMPARE(fieldOf(form, u"size"_s)->kind, FormKind::Enum);
    QCOMPARE(fieldOf(form, u"tags"_s)->item()->kind, FormKind::String);
    QCOMPARE(fieldOf(form, u"ports"_s)->item()->kind, FormKind::Integer);
    QCOMPARE(fieldOf(form, u"edits"_s)->item()->kind, FormKind::Object);
    const FormField *options = fieldOf(form, u"options"_s);
    QCOMPARE(options->kind, FormKind::Object);
    QCOMPARE(options->description, u"Fine tuning"_s);
    const FormField *level = fieldOf(*options, u"level"_s);
    QCOMPARE(level->kind, FormKind::Integer); // through $ref
    QCOMPARE(level->description, u"How loud"_s);
    QVERIFY(level->required);
    const FormField *note = fieldOf(*options, u"note"_s);
    QCOMPARE(note->kind, FormKind::String); // Optional[str]: anyOf with null
    QCOMPARE(note->label, u"Note"_s);
    // What a form cannot show falls to a raw JSON field that says why.
    QCOMPARE(fieldOf(form, u"target"_s)->kind, FormKind::Json);
    QVERIFY(!fieldOf(form, u"target"_s)->jsonReason.isEmpty());
    QCOMPARE(fieldOf(form, u"labels"_s)->kind, FormKind::Json);
    QCOMPARE(fieldOf(form, u"labels"_s)->hint(), u"JSON"_s);
    QCOMPARE(fieldOf(form, u"kind"_s)->kind, FormKind::Enum); // const: the one choice

    const FormValue value = initialValue(form);
    FormValue filled = value;
    QCOMPARE(slot(form, filled, u"count"_s).text, u"10"_s);
    QCOMPARE(slot(form, filled, u"verbose"_s).choice, 1);
    QCOMPARE(slot(form, filled, u"mode"_s).choice, 1);
    QCOMPARE(slot(form, filled, u"dryRun"_s).choice, -1); // optional, no default: not sent
    QCOMPARE(slot(form, filled, u"kind"_s).choice, 0);    // required, one choice
    QCOMPARE(problemsOf(everyKindSchema(), form, value), QStringList{u"email: required"_s});
}

void TestMcpForms::everyKindRoundTripsThroughTheForm() {
    const McpJson schema = everyKindSchema();
    const FormField form = formFromSchema(schema);
    const McpJson arguments = McpJson::parse(R"({
        "email": "ada@example.com", "when": "2026-12-01T09:30:00Z", "count": 7, "ratio": 0.25,
        "dryRun": true, "verbose": false, "mode": "fast", "size": 4, "tags": ["a", "b"],
        "ports": [80, 443], "edits": [{"from": "x", "to": "y"}],
        "options": {"level": 3, "note": "quiet"}, "target": 12, "labels": {"team": "core"},
        "kind": "report"})");
    QCOMPARE(texts(validateArguments(schema, arguments)), QStringList());
    const FormValue value = valueFromJson(form, arguments);
    QList<FormProblem> problems;
    const McpJson again = argumentsFrom(form, value, &problems);
    QCOMPARE(texts(problems), QStringList());
    QCOMPARE(again, arguments);
    QCOMPARE(again.dump(), arguments.dump()); // the schema's order, too

    // Typed wrong in the form: each problem names its field, nested ones with their path.
    FormValue wrong = value;
    slot(form, wrong, u"count"_s).text = u"2.5"_s;
    slot(form, wrong, u"ports"_s).children[1].text = u"0"_s;
    slot(form, wrong, u"labels"_s).text = u"{team: core}"_s;
    FormValue &options = slot(form, wrong, u"options"_s);
    options.children[0].text.clear();
    QCOMPARE(problemsOf(schema, form, wrong),
             (QStringList{u"count: must be a whole number"_s, u"labels: is not valid JSON"_s,
                          u"ports[1]: must be at least 1"_s, u"options.level: required"_s}));
}

void TestMcpForms::rawJsonIsCheckedWithTheFieldNamed() {
    const McpJson schema = everyKindSchema();
    const auto check = [&](const char *json) {
        return texts(validateArguments(schema, McpJson::parse(json)));
    };
    const char *base = R"("email": "a@b.c", "mode": "safe", "kind": "report")";
    QCOMPARE(check(("{" + std::string(base) + "}").c_str()), QStringList());
    QCOMPARE(check(R"({"mode": "slow", "kind": "report", "email": "ab"})"),
             (QStringList{u"mode: must be one of: fast, safe"_s,
                          u"email: must be at least 3 character(s) long"_s,
                          u"email: must match the pattern @"_s}));
    QCOMPARE(check((std::string("{") + base + R"(, "count": 0, "ratio": "half"})").c_str()),
             (QStringList{u"count: must be more than 0"_s, u"ratio: must be a number"_s}));
    QCOMPARE(check((std::string("{") + base + R"(, "options": {"level": 1.5}})").c_str()),
             QStringList{u"options.level: must be a whole number"_s});
    QCOMPARE(check((std::string("{") + base + R"(, "tags": ["a", 2, "a"]})").c_str()),
             (QStringList{u"tags[2]: repeats an earlier item"_s, u"tags[1]: must be text"_s}));
    QCOMPARE(check((std::string("{") + base + R"(, "ports": [1, 2, 3, 4]})").c_str()),
             QStringList{u"ports: may have at most 3 item(s)"_s});
    QCOMPARE(check((std::string("{") + base + R"(, "colour": "red"})").c_str()),
             QStringList{u"colour: is not a parameter here (the schema does not list it)"_s});
    QCOMPARE(
        check((std::string("{") + base + R"(, "kind2": 1, "edits": [{"from": "x"}]})").c_str()),
        (QStringList{u"kind2: is not a parameter here (the schema does not list it)"_s,
                     u"edits[0].to: required"_s}));
    QCOMPARE(check((std::string("{") + base + R"(, "labels": {"team": 5}})").c_str()),
             QStringList{u"labels.team: must be text"_s});
    QCOMPARE(check((std::string("{") + base + R"(, "target": true})").c_str()),
             QStringList{u"target: does not match any of the forms the schema allows"_s});
    QCOMPARE(check(R"({"email": "a@b.c", "mode": "safe", "kind": "memo"})"),
             QStringList{u"kind: must be report"_s});
    // A nullable field: null is allowed, a wrong type is named by the one branch it fits.
    QCOMPARE(
        check((std::string("{") + base + R"(, "options": {"level": 2, "note": null}})").c_str()),
        QStringList());
    QCOMPARE(check((std::string("{") + base + R"(, "options": {"level": 2, "note": 4}})").c_str()),
             QStringList{u"options.note: does not match any of the forms the schema allows"_s});
    QCOMPARE(texts(validateArguments(schema, McpJson::array())),
             QStringList{u"arguments: must be an object"_s});
}

void TestMcpForms::olderAndChoiceKeywordsAreChecked() {
    const McpJson schema = McpJson::parse(R"({
        "type": "object",
        "definitions": {"Pos": {"type": "number", "minimum": 0, "exclusiveMinimum": true}},
        "properties": {
            "step": {"type": "number", "multipleOf": 0.5},
            "pos": {"$ref": "#/definitions/Pos"},
            "either": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]},
            "not5": {"not": {"const": 5}},
            "both": {"allOf": [{"type": "string"}, {"maxLength": 2}]},
            "broken": {"$ref": "#/definitions/Missing"}
        }})");
    const auto check = [&](const char *json) {
        return texts(validateArguments(schema, McpJson::parse(json)));
    };
    QCOMPARE(check(R"({"step": 1.5, "pos": 2, "either": -1, "not5": 4, "both": "ab"})"),
             QStringList());
    QCOMPARE(check(R"({"step": 1.2, "pos": 0})"),
             (QStringList{u"step: must be a multiple of 0.5"_s, u"pos: must be more than 0"_s}));
    QCOMPARE(check(R"({"either": 3})"),
             QStringList{u"either: matches more than one of the forms the schema allows"_s});
    QCOMPARE(check(R"({"not5": 5, "both": "abc"})"),
             (QStringList{u"not5: must not match the form the schema excludes"_s,
                          u"both: must be at most 2 character(s) long"_s}));
    // A reference that does not resolve is the tool's to judge, not a reason to refuse.
    QCOMPARE(check(R"({"broken": {"any": "thing"}})"), QStringList());
    const FormField form = formFromSchema(schema);
    QCOMPARE(fieldOf(form, u"pos"_s)->hint(), u"number > 0"_s);
    QCOMPARE(fieldOf(form, u"broken"_s)->kind, FormKind::Json);
    QCOMPARE(fieldOf(form, u"both"_s)->kind, FormKind::Json);
}

void TestMcpForms::schemaThatIsNotAnObjectIsOneJsonField() {
    const FormField none = formFromSchema(McpJson::parse(R"({"type": "object"})"));
    QCOMPARE(none.kind, FormKind::Object);
    QVERIFY(none.fields.empty());
    QCOMPARE(argumentsFrom(none, initialValue(none), nullptr), McpJson::object());
    const FormField map = formFromSchema(
        McpJson::parse(R"({"type": "object", "additionalProperties": {"type": "number"}})"));
    QCOMPARE(map.kind, FormKind::Json);
    QList<FormProblem> problems;
    QCOMPARE(argumentsFrom(map, {u"{\"a\": 1}"_s, -1, {}}, &problems),
             McpJson::parse(R"({"a":1})"));
    QVERIFY(problems.isEmpty());
    argumentsFrom(map, {u"[1]"_s, -1, {}}, &problems);
    QCOMPARE(texts(problems),
             QStringList{u"arguments: must be a JSON object of the tool's parameters"_s});
}

void TestMcpForms::destructiveToolsAskFirst() {
    QVERIFY(!needsConfirmation(toolNamed(u"everything-tools.json"_s, u"echo"_s)));
    // Writes, but says it destroys nothing.
    QVERIFY(
        !needsConfirmation(toolNamed(u"everything-tools.json"_s, u"toggle-simulated-logging"_s)));
    QVERIFY(needsConfirmation(toolNamed(u"filesystem-tools.json"_s, u"write_file"_s)));
    QVERIFY(needsConfirmation(toolNamed(u"filesystem-tools.json"_s, u"move_file"_s)));
    QVERIFY(!needsConfirmation(toolNamed(u"filesystem-tools.json"_s, u"read_text_file"_s)));
    QVERIFY(!needsConfirmation(toolNamed(u"filesystem-tools.json"_s, u"create_directory"_s)));
    McpTool silent; // no annotations: MCP's defaults, not read-only and destructive
    QVERIFY(needsConfirmation(silent));
    McpTool contradictory;
    contradictory.annotations.readOnly = true;
    contradictory.annotations.destructive = true;
    QVERIFY(needsConfirmation(contradictory));
    QStringList badges;
    for (const ToolBadge &b : toolBadges(toolNamed(u"filesystem-tools.json"_s, u"write_file"_s)))
        badges << b.text;
    QCOMPARE(badges, (QStringList{u"destructive"_s, u"idempotent"_s}));
}

void TestMcpForms::toolListModelPresentsHints() {
    McpToolListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTools(toolsOf(u"everything-tools.json"_s).tools);
    QCOMPARE(model.rowCount(), 13);
    const int echo = model.rowOf(u"echo"_s);
    QCOMPARE(model.index(echo, McpToolListModel::NameColumn).data().toString(), u"echo"_s);
    QCOMPARE(model.index(echo, McpToolListModel::HintsColumn).data().toString(),
             u"read-only · idempotent"_s);
    QVERIFY(model.index(echo, McpToolListModel::NameColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(u"Echoes back the input string"_s));
    QCOMPARE(model.index(model.rowOf(u"gzip-file-as-resource"_s), McpToolListModel::HintsColumn)
                 .data()
                 .toString(),
             u"writes · idempotent · open world"_s);
    // A further page adds only what is new.
    QCOMPARE(model.appendTools(toolsOf(u"everything-tools.json"_s).tools), 0);
    QCOMPARE(model.appendTools(toolsOf(u"filesystem-tools.json"_s).tools), 14);
    QCOMPARE(model.rowCount(), 27);
    QCOMPARE(model.tool(u"write_file"_s)->name, u"write_file"_s);
    model.setTools({});
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestMcpForms)
#include "tst_mcpforms.moc"
