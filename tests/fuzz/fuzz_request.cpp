// Fuzzes the server's handling of one request up to its handler, as HttpServer's session does
// (server/core/httpserver.cpp), without sockets: the bytes go through Beast's request parser
// (header, then the body with the route's limit), the Authenticator (API key, RS256 JWT,
// tickets), the Router and the route's body policy (bounded JSON, server/core/jsonparse.cpp),
// and a handler reads fields through BodyFields. The server parses large bodies on another
// thread with the same applyBodyPolicy; here every body is parsed inline. Every refusal must be a
// 4xx whose body is JSON, as design.md section 6 asks.
//
// Input: byte 0 picks the authenticator (open, or API key "fuzz-key" plus a JWT public key);
// the rest is what a client sends on the connection.
#include "server/auth/authenticator.h"
#include "server/auth/ticketstore.h"
#include "server/core/bodyfields.h"
#include "server/core/http.h"
#include "server/core/router.h"
#include "tests/fuzz/fuzzcheck.h"

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

// The key only verifies; the JWT in corpus/request/jwt-bearer was signed with its private half,
// which is not kept.
constexpr const char *kPublicKey = R"(-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA27zlvjwd9cmW0qiglSuW
0C0yKMayM8OaKAZ5OcO8XtLM1KzbCKtaEq+YVXTiOOTTDCVFwbz33jAOpzr/MEfm
3qwvWEhG6Hzx2oF1H3i9xrxaxnSfEkEpOEgczy7n+t90vPGa7yWimy2nZOlhe25R
KAdzKxL5bVaIa5jj02dqQypu8vuGQgw/7/Wvhl5YE0qGN9b+CHOo1Af/LllUqxEp
uJB7uf+ceEbE28xmYw1gYLxzdSzJkhry8HRHPUaI6EBBh86Wv8F0ArJDL2I5rIPJ
meD+cAx3P9N+2VTG3MG68iYBPPcZONLtgnx0z0wtpehq2Zpoa+UzCvuCp+aYj1Yl
vQIDAQAB
-----END PUBLIC KEY-----
)";
constexpr std::size_t kHeaderLimit = 64 * 1024;

void checkRefusal(const sbx::HttpResponse &response) {
    check(response.status >= 400 && response.status < 500);
    const nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
    check(body.is_object());
}

// What the real handlers read from their bodies, in the same ways.
sbx::HttpResponse readFields(sbx::HttpRequest &request) {
    sbx::BodyFields fields(request);
    (void)fields.string("command", request.path == "/v1/shell/exec");
    (void)fields.string("path");
    (void)fields.string("id");
    (void)fields.takeString("content");
    (void)fields.boolean("sudo");
    (void)fields.boolean("async_mode");
    (void)fields.number("timeout");
    (void)fields.number("no_change_timeout", true);
    (void)fields.number("max_lines", true);
    if (const nlohmann::json *env = fields.value("env"); env && !env->is_object())
        fields.fail({"body", "env"}, "dict_type", "Input should be a valid dictionary");
    if (!fields.ok())
        return fields.refusal();
    return sbx::jsonResponse(200, nlohmann::json::object());
}

struct Server {
    sbx::TicketStore tickets{std::chrono::seconds(30)};
    sbx::Authenticator open{sbx::AuthConfig{}, tickets};
    sbx::Authenticator guarded{sbx::AuthConfig{"fuzz-key", kPublicKey, std::chrono::seconds(30)},
                               tickets};
    sbx::Router router;

    Server() {
        using sbx::BodyPolicy;
        const auto add = [&](const char *method, const char *pattern, BodyPolicy policy,
                             std::size_t limit = sbx::kDefaultBodyLimit) {
            router.add(method, pattern, readFields,
                       {.summary = {}, .body = policy, .bodyLimit = limit});
        };
        // The real route table's shapes (server/*/…routes.cpp); limits smaller where a large
        // one would only slow the fuzzer down.
        add("GET", "/v1/sandbox", BodyPolicy::Ignore);
        add("GET", "/llms.txt", BodyPolicy::Ignore);
        add("POST", "/tickets", BodyPolicy::OptionalJson);
        add("POST", "/v1/file/list", BodyPolicy::Fields);
        add("POST", "/v1/file/read", BodyPolicy::Fields);
        add("POST", "/v1/file/write", BodyPolicy::Fields, 64);
        add("GET", "/v1/sandbox/hooks", BodyPolicy::Ignore);
        add("POST", "/v1/sandbox/hooks", BodyPolicy::Fields, 64 * 1024);
        add("DELETE", "/v1/sandbox/hooks/{name}", BodyPolicy::Ignore);
        add("GET", "/v1/shell/sessions", BodyPolicy::Ignore);
        add("POST", "/v1/shell/sessions/create", BodyPolicy::Fields);
        add("DELETE", "/v1/shell/sessions/{id}", BodyPolicy::Ignore);
        add("POST", "/v1/shell/exec", BodyPolicy::Fields);
        add("POST", "/v1/shell/write", BodyPolicy::Fields);
        // Policies no real route uses today, and a rest-of-path parameter.
        add("POST", "/v1/demo/json", BodyPolicy::RequiredJson);
        add("GET", "/v1/demo/{rest...}", BodyPolicy::Raw);
        router.addStream("GET", "/v1/file/download", nullptr);
        router.addStream("POST", "/v1/file/upload", nullptr);
        router.addUpgrade("/v1/shell/ws", nullptr);
    }
};

// httpserver.cpp's toRequest().
bool toRequest(const http::request<http::empty_body> &header, sbx::HttpRequest &request) {
    request.method = std::string(header.method_string());
    request.target = std::string(header.target());
    std::string_view query;
    const bool valid = sbx::splitTarget(request.target, request.path, query);
    request.query = sbx::parseQuery(query);
    for (const auto &field : header)
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    request.version = header.version();
    request.keepAlive = header.keep_alive();
    request.upgrade = beast::websocket::is_upgrade(header);
    request.remote = "127.0.0.1:1";
    return valid;
}

// Feeds bytes to a parser until it has what it wants; false on a parse error.
template <typename Parser, typename Done>
bool feed(Parser &parser, std::string_view &bytes, Done done) {
    beast::error_code ec;
    while (!done() && !bytes.empty()) {
        const std::size_t used = parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
        if (ec == http::error::need_more)
            return true; // the rest of the input is not a whole step: the peer went quiet
        if (ec)
            return false;
        bytes.remove_prefix(used);
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static Server server;
    if (size < 1)
        return 0;
    const sbx::Authenticator &auth = data[0] & 1 ? server.guarded : server.open;
    std::string_view bytes(reinterpret_cast<const char *>(data) + 1, size - 1);

    http::request_parser<http::empty_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(kHeaderLimit));
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    if (!feed(parser, bytes, [&] { return parser.is_header_done(); }) || !parser.is_header_done())
        return 0; // the session answers 400/431 or hears nothing more

    sbx::HttpRequest request;
    if (!toRequest(parser.get(), request))
        return 0; // 400 Malformed request target
    (void)request.header("Content-Type");
    (void)request.queryValue("session_id");

    const sbx::AuthDecision decision = auth.check(request);
    if (!decision.allowed) {
        check(!decision.reason.empty());
        checkRefusal(auth.refusal());
        return 0;
    }
    request.auth = decision.method;

    sbx::RouteMatch match = server.router.match(request.method, request.path);
    if (match.result != sbx::RouteMatch::Result::Found) {
        check(match.route == nullptr || match.result == sbx::RouteMatch::Result::Found);
        if (match.result == sbx::RouteMatch::Result::MethodNotAllowed)
            check(!match.allowed.empty());
        return 0;
    }
    check(match.route != nullptr);
    const sbx::Route &route = *match.route;
    request.params = std::move(match.params);
    for (const auto &[name, value] : request.params)
        check(request.param(name).has_value());
    if (route.kind == sbx::RouteKind::Upgrade || route.kind == sbx::RouteKind::Stream)
        return 0;

    if (!parser.is_done()) {
        const auto length = parser.content_length();
        if (length && *length > route.options.bodyLimit)
            return 0; // 413
        http::request_parser<http::string_body> bodyParser{std::move(parser)};
        bodyParser.body_limit(route.options.bodyLimit);
        if (!feed(bodyParser, bytes, [&] { return bodyParser.is_done(); }))
            return 0; // 413 or 400
        if (!bodyParser.is_done())
            return 0; // the body never ended: the transfer times out
        request.body = std::move(bodyParser.get().body());
        check(request.body.size() <= route.options.bodyLimit);
    }
    if (auto refusal = sbx::applyBodyPolicy(request, route.options.body)) {
        checkRefusal(*refusal);
        return 0;
    }
    if (route.options.body == sbx::BodyPolicy::RequiredJson)
        check(request.json.is_object());
    if (route.options.body == sbx::BodyPolicy::Fields && request.jsonParsed)
        check(request.body.empty()); // the document replaced the text
    const sbx::HttpResponse response = route.buffered(request);
    if (response.status != 200)
        checkRefusal(response);
    return 0;
}
