// The server's Beast-free building blocks, linked directly: route matching, query decoding,
// JWT shape, tickets, version parsing, command line.
#include "server/auth/crypto.h"
#include "server/auth/jwtverifier.h"
#include "server/auth/ticketstore.h"
#include "server/core/http.h"
#include "server/core/jsontext.h"
#include "server/core/options.h"
#include "server/core/router.h"
#include "server/facts/factsgatherer.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace sbx;

namespace {

BufferedHandler named(std::string name) {
    return [name](HttpRequest &) {
        return textResponse(200, name);
    };
}

std::string answer(const RouteMatch &match) {
    HttpRequest request;
    return match.route ? match.route->buffered(request).body : std::string();
}

} // namespace

class TestServerUnits final : public QObject {
    Q_OBJECT

private slots:
    void jsonTextEscapesAsDumpDoes();
    void envelopeWithTextCarriesTheFields();
    void routerExactAndParams();
    void routerMostLiteralWins();
    void routerMethodNotAllowedAndHead();
    void routerRejectsBadPatterns();
    void queryDecoding();
    void jwtShape();
    void ticketsSpendOnce();
    void ticketsExpire();
    void ticketCapDropsOldest();
    void ticketMintCostStaysConstant();
    void constantTimeCompare();
    void versionParsing();
    void commandLine();
};

void TestServerUnits::routerExactAndParams() {
    Router router;
    router.add("GET", "/v1/sandbox", named("sandbox"));
    router.add("DELETE", "/v1/sandbox/hooks/{name}", named("delete hook"));
    router.add("GET", "/v1/files/{path...}", named("files"));

    RouteMatch match = router.match("GET", "/v1/sandbox");
    QCOMPARE(match.result, RouteMatch::Result::Found);
    QCOMPARE(answer(match), std::string("sandbox"));

    match = router.match("DELETE", "/v1/sandbox/hooks/warm%20up");
    QCOMPARE(match.result, RouteMatch::Result::Found);
    QCOMPARE(match.params.size(), std::size_t(1));
    QCOMPARE(match.params.front().first, std::string("name"));
    QCOMPARE(match.params.front().second, std::string("warm up"));

    match = router.match("GET", "/v1/files/a/b/c.txt");
    QCOMPARE(answer(match), std::string("files"));
    QCOMPARE(match.params.front().second, std::string("a/b/c.txt"));

    QCOMPARE(router.match("GET", "/v1/sandbox/").result, RouteMatch::Result::NotFound);
    QCOMPARE(router.match("DELETE", "/v1/sandbox/hooks/").result, RouteMatch::Result::NotFound);
    QCOMPARE(router.match("GET", "/v1/files").result, RouteMatch::Result::NotFound);
    QCOMPARE(router.match("GET", "*").result, RouteMatch::Result::NotFound);
}

void TestServerUnits::routerMostLiteralWins() {
    Router router;
    router.add("GET", "/v1/{group}/list", named("param"));
    router.add("GET", "/v1/file/list", named("literal"));
    router.add("GET", "/v1/{rest...}", named("rest"));
    QCOMPARE(answer(router.match("GET", "/v1/file/list")), std::string("literal"));
    QCOMPARE(answer(router.match("GET", "/v1/shell/list")), std::string("param"));
    QCOMPARE(answer(router.match("GET", "/v1/shell/exec")), std::string("rest"));
}

void TestServerUnits::routerMethodNotAllowedAndHead() {
    Router router;
    router.add("GET", "/llms.txt", named("llms"));
    router.add("POST", "/tickets", named("tickets"));
    RouteMatch match = router.match("POST", "/llms.txt");
    QCOMPARE(match.result, RouteMatch::Result::MethodNotAllowed);
    QVERIFY(std::find(match.allowed.begin(), match.allowed.end(), "GET") != match.allowed.end());
    QVERIFY(std::find(match.allowed.begin(), match.allowed.end(), "HEAD") != match.allowed.end());
    QCOMPARE(answer(router.match("HEAD", "/llms.txt")), std::string("llms"));
    QCOMPARE(router.match("HEAD", "/tickets").result, RouteMatch::Result::MethodNotAllowed);
    QCOMPARE(router.routes().size(), std::size_t(2));
    QCOMPARE(router.routes().front().pattern, std::string("/llms.txt"));
}

void TestServerUnits::routerRejectsBadPatterns() {
    Router router;
    router.add("GET", "/a/{id}", named("a"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, router.add("GET", "/a/{id}", named("again")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, router.add("GET", "no-slash", named("x")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, router.add("GET", "/{rest...}/x", named("x")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, router.add("GET", "/a{b}", named("x")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, router.add("GET", "/{}", named("x")));
}

void TestServerUnits::queryDecoding() {
    const auto query = parseQuery("api_key=a%2Bb%3D&ticket=x+y&flag&bad=%zz&=v");
    QCOMPARE(query.size(), std::size_t(5));
    QCOMPARE(query[0].second, std::string("a+b="));
    QCOMPARE(query[1].second, std::string("x y"));
    QCOMPARE(query[2].first, std::string("flag"));
    QCOMPARE(query[3].second, std::string("%zz"));
    QVERIFY(!percentDecode("%4", false));
    QCOMPARE(*percentDecode("a+b", false), std::string("a+b"));

    HttpRequest request;
    request.headers = {{"X-AIO-API-Key", "k"}};
    QCOMPARE(std::string(*request.header("x-aio-api-key")), std::string("k"));
}

void TestServerUnits::jwtShape() {
    QVERIFY(JwtVerifier::looksLikeJwt("eyJh.eyJz.c2ln"));
    QVERIFY(JwtVerifier::looksLikeJwt("eyJh.eyJz."));
    QVERIFY(!JwtVerifier::looksLikeJwt("eyJh.eyJz"));
    QVERIFY(!JwtVerifier::looksLikeJwt("a.b.c.d"));
    QVERIFY(!JwtVerifier::looksLikeJwt(".b.c"));
    QVERIFY(!JwtVerifier::looksLikeJwt("a b.c.d"));
    QVERIFY(!JwtVerifier::looksLikeJwt("plain-api-key"));
}

void TestServerUnits::ticketsSpendOnce() {
    TicketStore store(std::chrono::seconds(30));
    const std::string first = store.mint();
    const std::string second = store.mint();
    QVERIFY(first != second);
    QCOMPARE(first.size(), std::size_t(43));
    QVERIFY(first.find_first_not_of(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
            std::string::npos);
    QVERIFY(store.consume(first));
    QVERIFY(!store.consume(first));
    QVERIFY(!store.consume("made-up"));
    QCOMPARE(store.liveCount(), std::size_t(1));
}

void TestServerUnits::ticketsExpire() {
    auto now = TicketStore::Clock::now();
    TicketStore store(std::chrono::seconds(30), TicketStore::kMaxLiveTickets,
                      [&now] { return now; });
    const std::string early = store.mint();
    now += std::chrono::seconds(29);
    const std::string late = store.mint();
    now += std::chrono::seconds(1);
    // early expired right now (30 s after its minting); late has 29 s left.
    QCOMPARE(store.liveCount(), std::size_t(1));
    QVERIFY(!store.consume(early));
    QVERIFY(store.consume(late));
    QVERIFY(!store.consume(late));
    QCOMPARE(store.liveCount(), std::size_t(0));
}

void TestServerUnits::ticketCapDropsOldest() {
    auto now = TicketStore::Clock::now();
    TicketStore store(std::chrono::seconds(30), 3, [&now] { return now; });
    std::vector<std::string> tickets;
    for (int i = 0; i < 4; ++i) {
        tickets.push_back(store.mint());
        now += std::chrono::milliseconds(1);
    }
    QCOMPARE(store.liveCount(), std::size_t(3));
    QVERIFY(!store.consume(tickets[0]));
    QVERIFY(store.consume(tickets[1]));
    // A spent ticket leaves room: the next mints do not push out the live ones.
    const std::string fifth = store.mint();
    QVERIFY(store.consume(tickets[2]));
    QVERIFY(store.consume(tickets[3]));
    QVERIFY(store.consume(fifth));
    QCOMPARE(store.liveCount(), std::size_t(0));
}

void TestServerUnits::ticketMintCostStaysConstant() {
    // Bookkeeping per mint must not grow with the live tickets: count the stored entries it
    // looks at (a count, not a timing), at the cap and while tickets expire.
    auto now = TicketStore::Clock::now();
    TicketStore store(std::chrono::seconds(30), TicketStore::kMaxLiveTickets,
                      [&now] { return now; });
    constexpr std::uint64_t kVisitsPerMint = 4;
    std::uint64_t minted = 0;
    auto mintBatch = [&](int count) {
        for (int i = 0; i < count; ++i)
            store.mint();
        minted += static_cast<std::uint64_t>(count);
    };
    while (minted < TicketStore::kMaxLiveTickets) {
        mintBatch(5000);
        QVERIFY2(store.entriesVisited() <= kVisitsPerMint * minted,
                 qPrintable(QStringLiteral("%1 entries visited for %2 mints")
                                .arg(store.entriesVisited())
                                .arg(minted)));
    }
    QCOMPARE(store.liveCount(), TicketStore::kMaxLiveTickets);
    // At the cap every mint pushes out the oldest.
    const std::string atCap = store.mint();
    ++minted;
    mintBatch(5000);
    QVERIFY(store.entriesVisited() <= kVisitsPerMint * minted);
    QCOMPARE(store.liveCount(), TicketStore::kMaxLiveTickets);
    // Everything expires at once; the next mints clear it, amortised over all of them.
    now += std::chrono::seconds(31);
    mintBatch(5000);
    QVERIFY(store.entriesVisited() <= kVisitsPerMint * minted);
    QCOMPARE(store.liveCount(), std::size_t(5000));
    QVERIFY(store.consume(atCap) == false);
}

void TestServerUnits::constantTimeCompare() {
    const auto digest = crypto::sha256("secret");
    QVERIFY(crypto::constantTimeEquals("secret", digest));
    QVERIFY(!crypto::constantTimeEquals("secreT", digest));
    QVERIFY(!crypto::constantTimeEquals("", digest));
    QCOMPARE(*crypto::base64Decode("aGVs\nbG8=\n"), std::string("hello"));
    QVERIFY(!crypto::base64Decode("***"));
}

void TestServerUnits::versionParsing() {
    QCOMPARE(*facts::versionIn("Python 3.11.2"), std::string("3.11.2"));
    QCOMPARE(*facts::versionIn("v18.19.0"), std::string("18.19.0"));
    QCOMPARE(*facts::versionIn("pip 23.0.1 from /usr/lib/python3/dist-packages/pip (python 3.11)"),
             std::string("23.0.1"));
    QCOMPARE(*facts::versionIn("git version 2.39.2"), std::string("2.39.2"));
    QCOMPARE(*facts::versionIn("x86_64 build 12 of uv 0.4.1"), std::string("0.4.1"));
    QVERIFY(!facts::versionIn("no digits here"));
}

void TestServerUnits::commandLine() {
    ParsedOptions parsed =
        parseCommandLine({"--host", "0.0.0.0", "--port=8091", "--workspace", "/tmp/w"});
    QVERIFY(!parsed.error);
    QCOMPARE(parsed.options.host, std::string("0.0.0.0"));
    QCOMPARE(parsed.options.port, std::uint16_t(8091));
    QCOMPARE(parsed.options.workspace, std::string("/tmp/w"));
    QVERIFY(parseCommandLine({"--port", "70000"}).error);
    QVERIFY(parseCommandLine({"--port"}).error);
    QVERIFY(parseCommandLine({"--bogus"}).error);
    QCOMPARE(parseCommandLine({}).options.maxConnections, 0u);
    QCOMPARE(parseCommandLine({}).options.headerTimeout, 15u);
    parsed = parseCommandLine({"--max-connections", "50", "--header-timeout=3"});
    QVERIFY(!parsed.error);
    QCOMPARE(parsed.options.maxConnections, 50u);
    QCOMPARE(parsed.options.headerTimeout, 3u);
    QVERIFY(parseCommandLine({"--max-connections", "0"}).error);
    QVERIFY(parseCommandLine({"--header-timeout", "x"}).error);
    QVERIFY(parseCommandLine({"--help"}).options.help);
    QVERIFY(QString::fromStdString(helpText()).contains(QStringLiteral("does NOT isolate")));
}

void TestServerUnits::jsonTextEscapesAsDumpDoes() {
    // Fixed cases: quotes, controls, UTF-8 of every length, and bytes that are not UTF-8.
    std::vector<std::string> cases = {"",
                                      "plain",
                                      "a\"b\\c",
                                      std::string("\0\x01\x1f\n\r\t\b\f", 9),
                                      "é€😀",
                                      "\xff",
                                      "\xc3",
                                      "a\xe2\x82",
                                      "\xed\xa0\x80",
                                      "\xc0\xaf",
                                      "\xf4\x90\x80\x80",
                                      "x\x7fy"};
    std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 2000; ++i) {
        std::string random;
        const int length = static_cast<int>(seed % 40);
        for (int j = 0; j < length; ++j) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            random += static_cast<char>(seed >> 56);
        }
        cases.push_back(random);
    }
    for (const std::string &text : cases) {
        std::string ours = "\"";
        appendJsonString(ours, text);
        ours += '"';
        const auto parsed = nlohmann::json::parse(ours, nullptr, false);
        QVERIFY2(!parsed.is_discarded(), ours.c_str());
        // nlohmann replaces a broken sequence with one U+FFFD where we replace each byte: the
        // same text once the replacements are taken out, and exact for valid UTF-8.
        const std::string theirs =
            nlohmann::json::parse(
                nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
                .get<std::string>();
        const auto bare = [](std::string v) {
            for (std::size_t at; (at = v.find("\xEF\xBF\xBD")) != std::string::npos;)
                v.erase(at, 3);
            return v;
        };
        QCOMPARE(bare(parsed.get<std::string>()), bare(theirs));
        if (theirs.find("\xEF\xBF\xBD") == std::string::npos)
            QCOMPARE(parsed.get<std::string>(), text);
    }
}

void TestServerUnits::envelopeWithTextCarriesTheFields() {
    const HttpResponse response = envelopeWithText(200, true, "Command output", {{"offset", 3}},
                                                   {{"stdout", "a\nb"}, {"stderr", ""}});
    const auto body = nlohmann::json::parse(response.body);
    QCOMPARE(body["data"]["stdout"].get<std::string>(), std::string("a\nb"));
    QCOMPARE(body["data"]["stderr"].get<std::string>(), std::string());
    QCOMPARE(body["data"]["offset"].get<int>(), 3);
    QCOMPARE(body["success"].get<bool>(), true);
    const auto empty = nlohmann::json::parse(
        envelopeWithText(200, true, "m", nlohmann::json::object(), {{"stdout", "x"}}).body);
    QCOMPARE(empty["data"]["stdout"].get<std::string>(), std::string("x"));
}

QTEST_GUILESS_MAIN(TestServerUnits)
#include "tst_server_units.moc"
