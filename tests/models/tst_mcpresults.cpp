// What the MCP tab shows of a tool's answer, without a window: every kind of content item of a
// CallToolResult parsed and presented (text, a decoded image, audio, resource links, embedded
// text and blob resources, unknown types, bad base64), structuredContent as a JSON tree, the
// call history, and curl commands that name the credential's variable and never hold a secret.
#include "client/api/mcpjobs.h"
#include "client/sandboxclient.h"
#include "models/mcp/jsontreemodel.h"
#include "models/mcp/mcphistorymodel.h"
#include "models/mcp/toolresult.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QByteArray pngOf(int width, int height) {
    QImage image(width, height, QImage::Format_ARGB32);
    image.fill(Qt::red);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

// A CallToolResult with one item of every kind (as AIO answers it, in its envelope); the
// image's data is a PNG made here, so its size is known.
McpJson everyContent() {
    QFile file(QStringLiteral(SBX_FIXTURES_DIR) + u"/mcp/call-result-every-content.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    McpJson data =
        McpJson::parse(bytes.begin(), bytes.end(), nullptr, false).value("data", McpJson());
    data["content"][1]["data"] = pngOf(3, 2).toBase64().toStdString();
    return data;
}

} // namespace

class TestMcpResults final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyContentKindIsParsed();
    void everyContentKindIsPresented();
    void structuredContentIsATreeInItsOrder();
    void historyKeepsCallsNewestFirstAndBounded();
    void curlNamesTheVariableNeverTheSecret();
};

void TestMcpResults::everyContentKindIsParsed() {
    const McpCallResult result = parseMcpCallResult(everyContent());
    QVERIFY(result.isError);
    QCOMPARE(result.content.size(), 8);
    QCOMPARE(result.content[0].kind, McpContent::Kind::Text);
    QCOMPARE(result.content[0].text, u"first line\nsecond line"_s);
    QCOMPARE(result.content[1].kind, McpContent::Kind::Image);
    QCOMPARE(result.content[1].data, pngOf(3, 2));
    QCOMPARE(result.content[2].kind, McpContent::Kind::Audio);
    QCOMPARE(result.content[2].data, "RIFF\0\0\0\0"_ba);
    QCOMPARE(result.content[3].kind, McpContent::Kind::ResourceLink);
    QCOMPARE(result.content[3].uri, u"demo://resource/1"_s);
    QCOMPARE(result.content[3].size, std::optional<qint64>(2048));
    QCOMPARE(result.content[4].kind, McpContent::Kind::Resource);
    QCOMPARE(result.content[4].text, u"# Notes"_s);
    QCOMPARE(result.content[4].mimeType, u"text/markdown"_s);
    QCOMPARE(result.content[5].data, "\x00\x01\x02\x03"_ba);
    QVERIFY(!result.content[6].dataValid);
    QCOMPARE(result.content[7].kind, McpContent::Kind::Unknown);
    QCOMPARE(result.content[7].type, u"hologram"_s);
    QVERIFY(result.structuredContent.is_object());
    // isError is false unless said.
    QVERIFY(!parseMcpCallResult(McpJson::parse(R"({"content": []})")).isError);
}

void TestMcpResults::everyContentKindIsPresented() {
    const QList<ResultPart> parts = resultParts(parseMcpCallResult(everyContent()));
    QCOMPARE(parts.size(), 8);
    QCOMPARE(parts[0].kind, ResultPart::Kind::Text);
    QVERIFY(parts[0].heading.isEmpty());
    QCOMPARE(parts[1].kind, ResultPart::Kind::Image);
    QCOMPARE(parts[1].image.size(), QSize(3, 2));
    QVERIFY2(parts[1].heading.startsWith(u"Image · image/png · 3 × 2"_s),
             qPrintable(parts[1].heading));
    QCOMPARE(parts[1].suggestedName, u"image.png"_s);
    QCOMPARE(parts[2].kind, ResultPart::Kind::Binary);
    QVERIFY(parts[2].heading.startsWith(u"Audio · audio/wav"_s));
    QCOMPARE(parts[2].data.size(), 8);
    QCOMPARE(parts[3].kind, ResultPart::Kind::Link);
    QVERIFY2(parts[3].heading.contains(u"Resource One (one)"_s), qPrintable(parts[3].heading));
    QCOMPARE(parts[3].text, u"the first"_s);
    QCOMPARE(parts[4].kind, ResultPart::Kind::Text);
    QCOMPARE(parts[4].text, u"# Notes"_s);
    QCOMPARE(parts[4].suggestedName, u"notes.md"_s);
    QCOMPARE(parts[5].kind, ResultPart::Kind::Binary);
    QCOMPARE(parts[5].suggestedName, u"data.bin"_s);
    QCOMPARE(parts[6].kind, ResultPart::Kind::Binary);
    QCOMPARE(parts[6].text, u"Its base64 data did not decode."_s);
    QCOMPARE(parts[7].kind, ResultPart::Kind::Unknown);
    QVERIFY(parts[7].text.contains(u"\"beam\": 3"_s));
    QCOMPARE(resultSummary(parseMcpCallResult(everyContent())),
             u"Tool error: 8 content item(s), structured content"_s);
}

void TestMcpResults::structuredContentIsATreeInItsOrder() {
    JsonTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setJson(everyContent().at("structuredContent"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, 0).data().toString(), u"zeta"_s);
    QCOMPARE(model.index(0, 1).data().toString(), u"1"_s);
    const QModelIndex alpha = model.index(1, 0);
    QCOMPARE(model.index(1, 1).data().toString(), u"object with 1 field(s)"_s);
    const QModelIndex nested = model.index(0, 0, alpha);
    QCOMPARE(nested.data().toString(), u"nested"_s);
    QCOMPARE(model.rowCount(nested), 3);
    QCOMPARE(model.index(0, 0, nested).data().toString(), u"[0]"_s);
    QCOMPARE(model.index(1, 1, nested).data().toString(), u"null"_s);
    QCOMPARE(model.index(2, 1, nested).data().toString(), u"x"_s);
    QCOMPARE(model.parent(model.index(2, 1, nested)), nested.siblingAtColumn(0));
    QCOMPARE(alpha.data(JsonTreeModel::JsonRole).toString(), u"{\"nested\":[true,null,\"x\"]}"_s);
    model.setJson(McpJson("just text"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 1).data().toString(), u"just text"_s);
    model.clear();
    QVERIFY(model.isEmpty());
}

void TestMcpResults::historyKeepsCallsNewestFirstAndBounded() {
    McpHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const quint64 first = model.add(u"everything"_s, u"echo"_s, McpJson::parse(R"({"m": 1})"));
    const quint64 second = model.add(u"everything"_s, u"get-sum"_s, McpJson::object());
    QCOMPARE(model.rowOf(second), 0);
    QCOMPARE(model.index(1, McpHistoryModel::ToolColumn).data().toString(), u"everything / echo"_s);
    QCOMPARE(model.index(1, McpHistoryModel::OutcomeColumn).data().toString(), u"running"_s);
    McpCallResult error;
    error.isError = true;
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.finish(first, McpCall::Outcome::ToolError, error, {}, 12);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.index(1, McpHistoryModel::OutcomeColumn).data().toString(), u"tool error"_s);
    QCOMPARE(model.index(1, McpHistoryModel::DurationColumn).data().toString(), u"12 ms"_s);
    model.finish(second, McpCall::Outcome::Failed, {}, u"no such tool"_s, 3);
    QCOMPARE(model.index(0, McpHistoryModel::OutcomeColumn).data().toString(),
             u"failed: no such tool"_s);
    for (int i = 0; i < McpHistoryModel::kMaxCalls; ++i)
        model.add(u"s"_s, u"t%1"_s.arg(i), McpJson::object());
    QCOMPARE(model.rowCount(), McpHistoryModel::kMaxCalls);
    QCOMPARE(model.rowOf(first), -1);
    QCOMPARE(model.call(0)->tool, u"t%1"_s.arg(McpHistoryModel::kMaxCalls - 1));
}

void TestMcpResults::curlNamesTheVariableNeverTheSecret() {
    const QString key = u"k-9d7e-very-secret"_s;
    SandboxClient keyed(Endpoint{QUrl(u"http://127.0.0.1:8080/base/"_s), {}},
                        Credentials{Credentials::Kind::ApiKey, key});
    const McpJson arguments =
        McpJson{{"message", "it's here"}, {"token", "tok-1234"}, {"note", "k-9d7e-very-secret"}};
    const QString curl = mcpCurlCommand(keyed, u"every thing"_s, u"echo"_s, arguments);
    QVERIFY2(!curl.contains(key), qPrintable(curl));
    QVERIFY2(!curl.contains(u"tok-1234"_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"-H \"X-AIO-API-Key: $SANDBOX_API_KEY\""_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"-X POST"_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"-H \"Content-Type: application/json\""_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"\"http://127.0.0.1:8080/base/v1/mcp/every%20thing/tools/echo\""_s),
             qPrintable(curl));
    // The quote inside the single-quoted body is escaped for the shell.
    QVERIFY2(curl.contains(u"it'\\''s here"_s), qPrintable(curl));
    QVERIFY2(curl.contains(u"redacted"_s), qPrintable(curl));

    SandboxClient bearer(Endpoint{QUrl(u"https://sandbox.example:8443"_s), {}},
                         Credentials{Credentials::Kind::Jwt, u"eyJhbGciOi.eyJzdWIi.c2ln"_s});
    const QString jwt = mcpCurlCommand(bearer, u"fs"_s, u"read"_s, McpJson::object());
    QVERIFY2(jwt.contains(u"-H \"Authorization: Bearer $SANDBOX_JWT\""_s), qPrintable(jwt));
    QVERIFY(!jwt.contains(u"eyJhbGciOi"_s));
    QVERIFY2(jwt.contains(u"--data-binary '{}'"_s), qPrintable(jwt));

    SandboxClient open(Endpoint{QUrl(u"http://127.0.0.1:8080"_s), {}}, Credentials{});
    const QString none = mcpCurlCommand(open, u"fs"_s, u"read"_s, McpJson::object());
    QVERIFY(!none.contains(u"X-AIO-API-Key"_s));
    QVERIFY(!none.contains(u"Authorization"_s));
}

QTEST_GUILESS_MAIN(TestMcpResults)
#include "tst_mcpresults.moc"
