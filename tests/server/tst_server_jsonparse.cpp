// The server's one JSON reader for text from outside (parseJson) and the body policies built
// on it: bounded depth and width, no exception, no echo of the text in its errors.
#include "server/core/bodyfields.h"
#include "server/core/jsonparse.h"
#include "server/core/router.h"

#include <QTest>

#include <string>

using namespace sbx;

class TestServerJsonParse final : public QObject {
    Q_OBJECT

private slots:
    void parsesOrdinaryDocuments();
    void depthIsBounded();
    void valueCountIsBounded();
    void errorsNeverQuoteTheText();
    void numberOverflowIsAnError();
    void bodyPoliciesNeverThrow();
    void fieldsPolicyFreesTheText();
};

void TestServerJsonParse::parsesOrdinaryDocuments() {
    const JsonParse parsed = parseJson(R"({"a":[1,2,{"b":"c"}],"d":null,"e":1.5,"a":7})");
    QVERIFY2(parsed.ok(), parsed.error.c_str());
    QCOMPARE(parsed.value["a"].get<int>(), 7); // the last duplicate wins, as in nlohmann
    QCOMPARE(parsed.value["e"].get<double>(), 1.5);
    QVERIFY(parsed.value["d"].is_null());
    QCOMPARE(parseJson("[[],[[]],{}]").value.dump(), std::string("[[],[[]],{}]"));
    QCOMPARE(parseJson("\"\\u00e9\"").value.get<std::string>(), std::string("\xc3\xa9"));
}

void TestServerJsonParse::depthIsBounded() {
    const JsonLimits limits{.maxDepth = 3, .maxValues = 100};
    QVERIFY(parseJson("[[[1]]]", limits).ok());
    const JsonParse deep = parseJson("[[[[1]]]]", limits);
    QVERIFY(!deep.ok());
    QCOMPARE(deep.error, std::string("nested deeper than 3 levels"));
    QVERIFY(deep.value.is_null());
    // The default bound holds against a text far deeper than any stack would take.
    const std::string hostile = std::string(1000000, '[') + std::string(1000000, ']');
    QVERIFY(parseJson(hostile).error.find("nested deeper than 64") != std::string::npos);
    QVERIFY(parseJson(std::string(64, '[') + std::string(64, ']')).ok());
}

void TestServerJsonParse::valueCountIsBounded() {
    const JsonLimits limits{.maxDepth = 8, .maxValues = 4};
    QVERIFY(parseJson("[1,2,3]", limits).ok());
    const JsonParse wide = parseJson(R"({"a":1,"b":2,"c":3,"d":4})", limits);
    QCOMPARE(wide.error, std::string("more than 4 values"));
}

void TestServerJsonParse::errorsNeverQuoteTheText() {
    const JsonParse broken = parseJson(R"({"api_key": "sekrit-123", oops})");
    QVERIFY(!broken.ok());
    QVERIFY(broken.error.find("sekrit") == std::string::npos);
    QCOMPARE(broken.error, std::string("invalid JSON"));
    QCOMPARE(broken.byte, std::size_t(27)); // where "oops" stops the parser
    QVERIFY(!parseJson("").ok());
    QVERIFY(!parseJson("[1] trailing").ok());
}

void TestServerJsonParse::numberOverflowIsAnError() {
    QCOMPARE(parseJson("1e999999").error, std::string("a number is too large"));
    QCOMPARE(parseJson("[-1e400]").error, std::string("a number is too large"));
    // Integers past 64 bits become doubles, as nlohmann does.
    QVERIFY(parseJson("123456789012345678901234567890").value.is_number_float());
}

void TestServerJsonParse::bodyPoliciesNeverThrow() {
    for (const std::string body : {"1e999999", "[[[[[[", "{\"a\":1e999999}", "\xff\xfe"}) {
        HttpRequest request;
        request.body = body;
        std::optional<HttpResponse> refusal;
        try {
            refusal = applyBodyPolicy(request, BodyPolicy::OptionalJson);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        QVERIFY(refusal);
        QCOMPARE(refusal->status, 400);
    }
}

void TestServerJsonParse::fieldsPolicyFreesTheText() {
    HttpRequest request;
    request.body = R"({"file":"a.txt","content":"hello"})";
    QVERIFY(!applyBodyPolicy(request, BodyPolicy::Fields));
    QVERIFY(request.body.empty());
    BodyFields fields(request);
    QCOMPARE(fields.takeString("content", true).value_or(""), std::string("hello"));
    QCOMPARE(fields.string("file", true).value_or(""), std::string("a.txt"));
    QVERIFY(fields.ok());

    HttpRequest deep;
    deep.body = std::string(100, '[');
    QVERIFY(!applyBodyPolicy(deep, BodyPolicy::Fields));
    BodyFields refused(deep);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.errors()[0]["type"].get<std::string>(), std::string("json_invalid"));
    QCOMPARE(refused.refusal().status, 422);

    HttpRequest empty;
    QVERIFY(!applyBodyPolicy(empty, BodyPolicy::Fields));
    BodyFields missing(empty);
    QCOMPARE(missing.errors()[0]["type"].get<std::string>(), std::string("missing"));
}

QTEST_GUILESS_MAIN(TestServerJsonParse)
#include "tst_server_jsonparse.moc"
