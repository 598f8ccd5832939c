#pragma once

#include "server/core/http.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sbx {

// Interfaces for routes that take over the connection; declared with Beast types in
// server/core/streamroute.h so that plain JSON route files never include Beast.
class EventStreamHandler;
class StreamHandler;
class UpgradeHandler;

// A route that takes a few JSON fields needs no more; routes that carry content set their own.
inline constexpr std::size_t kDefaultBodyLimit = 256 * 1024;

// Runs on the I/O thread: keep it short, hand blocking work to an AsyncHandler instead.
using BufferedHandler = std::function<HttpResponse(HttpRequest &)>;
// Answers an AsyncHandler's request from any thread, once. Dropping every copy unanswered
// sends a 500, so a forgotten reply cannot hang the client.
using Responder = std::function<void(HttpResponse)>;
using AsyncHandler = std::function<void(HttpRequest, Responder)>;

// What the session does with a buffered route's body before calling the handler.
enum class BodyPolicy {
    Ignore,       // read (up to bodyLimit) and dropped
    Raw,          // HttpRequest::body
    OptionalJson, // empty, or valid JSON in HttpRequest::json (400 otherwise)
    RequiredJson, // a JSON object in HttpRequest::json (400 otherwise)
    // Parsed into HttpRequest::json (or HttpRequest::jsonError) for BodyFields, which answers
    // a FastAPI-shaped 422 for whatever does not fit; HttpRequest::body is freed.
    Fields,
};

enum class RouteKind { Buffered, Async, Stream, Upgrade };

struct RouteOptions {
    // One line for the endpoint list of /llms.txt; empty keeps the route out of it.
    std::string summary;
    BodyPolicy body = BodyPolicy::Ignore;
    std::size_t bodyLimit = kDefaultBodyLimit;
    // Buffered and async routes only: serves the requests whose Accept header names
    // text/event-stream instead of the plain handler (same path, same body policy).
    std::shared_ptr<EventStreamHandler> eventStream = {};
};

struct Route {
    std::string method;
    // Segments are literals, "{name}" (one segment) or a final "{name...}" (the rest).
    std::string pattern;
    RouteKind kind = RouteKind::Buffered;
    RouteOptions options;
    BufferedHandler buffered;
    AsyncHandler async;
    std::shared_ptr<StreamHandler> stream;
    std::shared_ptr<UpgradeHandler> upgrade;
};

struct RouteMatch {
    enum class Result { Found, NotFound, MethodNotAllowed };
    Result result = Result::NotFound;
    const Route *route = nullptr;
    std::vector<std::pair<std::string, std::string>> params;
    // For a 405: the methods the path does accept.
    std::vector<std::string> allowed;
};

struct RouteInfo {
    std::string method;
    std::string pattern;
    std::string summary;
    RouteKind kind = RouteKind::Buffered;
};

// Checks a buffered body against the route's policy and parses JSON into request.json, within
// JsonLimits' bounds and without throwing. The refusal to send when the body does not fit.
std::optional<HttpResponse> applyBodyPolicy(HttpRequest &request, BodyPolicy policy);
bool parsesJson(BodyPolicy policy);
// Parses request.body into request.json or request.jsonError and frees the text.
void takeJsonBody(HttpRequest &request);

// Route table: (method, path pattern) -> handler, matched before any body is read.
class Router final {
public:
    Router();
    ~Router();
    Router(const Router &) = delete;
    Router &operator=(const Router &) = delete;

    // Each throws std::invalid_argument on a malformed pattern or a duplicate (method, pattern).
    void add(std::string method, std::string pattern, BufferedHandler handler,
             RouteOptions options = {});
    void addAsync(std::string method, std::string pattern, AsyncHandler handler,
                  RouteOptions options = {});
    void addStream(std::string method, std::string pattern, std::shared_ptr<StreamHandler> handler,
                   RouteOptions options = {});
    // A WebSocket endpoint (GET with Upgrade). A plain GET on it gets 426.
    void addUpgrade(std::string pattern, std::shared_ptr<UpgradeHandler> handler,
                    RouteOptions options = {});

    // HEAD falls back to GET for buffered and async routes. The most literal pattern wins.
    RouteMatch match(std::string_view method, std::string_view path) const;
    // In registration order.
    std::vector<RouteInfo> routes() const;

private:
    struct Entry;
    void insert(Route route);

    std::vector<std::unique_ptr<Entry>> m_entries;
};

} // namespace sbx
