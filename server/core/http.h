#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Plain request/response values that route handlers work on, so handlers never include Beast.
namespace sbx {

class BodyStream;

// The Server header of every answer.
inline constexpr char kServerHeader[] = "sandbox-server/" SBX_VERSION;

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// How a request was authenticated; a route may demand more than "any" (POST /tickets does).
enum class AuthMethod { Open, ApiKey, Jwt, Ticket };

struct HttpRequest {
    std::string method;
    // Raw target with its query. It may carry ?api_key= or ?ticket=: never log it.
    std::string target;
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    HeaderList headers;
    unsigned version = 11;
    bool keepAlive = true;
    bool upgrade = false;
    std::string remote;
    AuthMethod auth = AuthMethod::Open;
    // Values of the route pattern's {name} segments.
    std::vector<std::pair<std::string, std::string>> params;
    // Filled for routes with a buffered body.
    std::string body;
    // Filled for routes whose body policy parses JSON; null when the body was empty.
    nlohmann::json json;
    // Why the body is not JSON within JsonLimits, for BodyPolicy::Fields routes.
    std::optional<std::string> jsonError;
    bool jsonParsed = false;

    // Case-insensitive; the first occurrence.
    std::optional<std::string_view> header(std::string_view name) const;
    std::optional<std::string_view> queryValue(std::string_view name) const;
    std::optional<std::string_view> param(std::string_view name) const;
};

struct HttpResponse {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    // Instead of body: a body still being made (server/core/bodystream.h), sent chunked as it
    // comes (to an HTTP/1.0 client, whole once made).
    std::shared_ptr<BodyStream> stream;
    HeaderList headers;
    // Ask the session to close the connection after this response.
    bool close = false;
};

// Decodes %XX escapes; with formEncoding, '+' is a space as in a query string. Nullopt on a bad
// escape.
std::optional<std::string> percentDecode(std::string_view text, bool formEncoding);
// Splits "a=1&b=2" into decoded pairs; malformed escapes keep the raw text.
std::vector<std::pair<std::string, std::string>> parseQuery(std::string_view query);
bool iequals(std::string_view a, std::string_view b);
// The request's Accept header names text/event-stream (any case, among other types).
bool acceptsEventStream(const HttpRequest &request);
// Splits a request target into path and raw query. Origin form "/path?query"; the absolute
// form "http://host/path" (RFC 7230 5.3.2) is accepted too. False for anything else.
bool splitTarget(std::string_view target, std::string &path, std::string_view &query);
std::string_view reasonPhrase(int status);

// The AIO envelope {success, message, data, hint} as a response.
HttpResponse envelopeResponse(int status, bool success, std::string message,
                              nlohmann::json data = nullptr, nlohmann::json hint = nullptr);
HttpResponse errorResponse(int status, std::string message);
HttpResponse jsonResponse(int status, const nlohmann::json &body);
HttpResponse textResponse(int status, std::string body,
                          std::string contentType = "text/plain; charset=utf-8");

} // namespace sbx
