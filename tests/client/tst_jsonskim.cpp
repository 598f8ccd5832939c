// skimJsonStrings (the fast path for /v1/bash/output's two large strings) against nlohmann on
// the same text: escapes, \u with surrogate pairs and lone surrogates, keys at any depth, keys
// that look alike, absent keys, and texts cut off inside a string.
#include "client/api/bashjobs.h"
#include "client/api/jsonskim.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace sbx;

class TestJsonSkim final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decodesAsAJsonParserDoes_data();
    void decodesAsAJsonParserDoes();
    void cutTextsAreRefused();
    void outputBodiesParseTheSameEitherWay();
};

void TestJsonSkim::decodesAsAJsonParserDoes_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("plain") << QByteArray(R"({"data":{"stdout":"hello","stderr":"world"}})");
    QTest::newRow("escapes") << QByteArray(
        R"({"stdout":"a\nb\tc\\d\"e\/f\b\f\r","x":"stdout","stderr":"\u00e9\u20ac"})");
    QTest::newRow("surrogates") << QByteArray(R"({"stdout":"\ud83d\ude00 \ud800 x \udc00"})");
    QTest::newRow("keys alike") << QByteArray(
        R"({"stdoutx":"no","a":{"stdout":"yes"},"stderr_offset":3,"stderr":""})");
    QTest::newRow("absent") << QByteArray(R"({"data":{"offset":5}})");
    QTest::newRow("utf8 raw") << QByteArray(
        "{\"stdout\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}");
    QTest::newRow("spaces") << QByteArray("{ \"stdout\" :\n \"a b\" , \"stderr\":\"c\" }");
}

void TestJsonSkim::decodesAsAJsonParserDoes() {
    QFETCH(QByteArray, json);
    QList<QByteArray> values;
    QByteArray rest;
    QVERIFY(skimJsonStrings(json, {"stdout", "stderr"}, values, rest));
    QCOMPARE(values.size(), 2);
    // The rest still parses, with the two values emptied.
    const auto restJson = nlohmann::json::parse(rest.toStdString(), nullptr, false);
    QVERIFY2(!restJson.is_discarded(), rest.constData());
    // Each value is what a parser reads (surrogates it cannot pair become U+FFFD).
    const auto full = nlohmann::json::parse(json.toStdString(), nullptr, false);
    const auto find = [](const nlohmann::json &j, const char *key,
                         auto &&self) -> const nlohmann::json * {
        if (!j.is_object())
            return nullptr;
        if (j.contains(key) && j[key].is_string())
            return &j[key];
        for (const auto &item : j.items()) {
            if (const auto *found = self(item.value(), key, self))
                return found;
        }
        return nullptr;
    };
    const char *keys[] = {"stdout", "stderr"};
    for (int i = 0; i < 2; ++i) {
        if (full.is_discarded()) {
            // nlohmann refuses lone surrogates; ours replaces them.
            QVERIFY(values[i].contains("\xef\xbf\xbd") || values[i].isEmpty());
            continue;
        }
        const auto *value = find(full, keys[i], find);
        QCOMPARE(values[i],
                 value ? QByteArray::fromStdString(value->get<std::string>()) : QByteArray());
        if (value)
            QCOMPARE(find(restJson, keys[i], find)->get<std::string>(), std::string());
    }
}

void TestJsonSkim::cutTextsAreRefused() {
    QList<QByteArray> values;
    QByteArray rest;
    QVERIFY(!skimJsonStrings("{\"stdout\":\"abc", {"stdout"}, values, rest));
    QVERIFY(!skimJsonStrings("{\"stdout\":\"a\\", {"stdout"}, values, rest));
    QVERIFY(!skimJsonStrings("{\"stdout\":\"\\u12", {"stdout"}, values, rest));
    QVERIFY(!skimJsonStrings(R"({"stdout":"\q"})", {"stdout"}, values, rest));
}

void TestJsonSkim::outputBodiesParseTheSameEitherWay() {
    QByteArray big;
    for (int i = 0; i < 20000; ++i)
        big += "line " + QByteArray::number(i) + " \"quoted\" \\ tab\t é\n";
    const nlohmann::json body = {{"success", true},
                                 {"message", "Command output"},
                                 {"data",
                                  {{"session_id", "s"},
                                   {"stdout", big.toStdString()},
                                   {"stderr", "oops\n"},
                                   {"offset", big.size()},
                                   {"stderr_offset", 5},
                                   {"command", {{"command_id", "c"}, {"status", "running"}}}}}};
    const auto [status, chunk] = parseBashOutput(QByteArray::fromStdString(body.dump()));
    QVERIFY(status.ok());
    QCOMPARE(chunk.stdoutBytes, big);
    QCOMPARE(chunk.stderrBytes, QByteArray("oops\n"));
    QCOMPARE(chunk.offset, big.size());
    QCOMPARE(chunk.command.status, QStringLiteral("running"));
}

QTEST_GUILESS_MAIN(TestJsonSkim)
#include "tst_jsonskim.moc"
