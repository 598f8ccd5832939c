#include "server/core/router.h"

#include "server/core/jsonparse.h"

#include <algorithm>
#include <stdexcept>

namespace sbx {

namespace {

enum class SegmentKind { Literal, Param, Rest };

struct Segment {
    SegmentKind kind = SegmentKind::Literal;
    std::string text; // the literal, or the parameter's name
};

std::vector<std::string_view> splitPath(std::string_view path) {
    std::vector<std::string_view> parts;
    if (path.empty() || path.front() != '/')
        return parts;
    path.remove_prefix(1);
    for (;;) {
        const std::size_t slash = path.find('/');
        parts.push_back(path.substr(0, slash));
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash + 1);
    }
    return parts;
}

std::vector<Segment> parsePattern(const std::string &pattern) {
    if (pattern.empty() || pattern.front() != '/')
        throw std::invalid_argument("route pattern must start with '/': " + pattern);
    std::vector<Segment> segments;
    const auto parts = splitPath(pattern);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        if (part.size() >= 2 && part.front() == '{' && part.back() == '}') {
            std::string_view name = part.substr(1, part.size() - 2);
            SegmentKind kind = SegmentKind::Param;
            if (name.size() > 3 && name.substr(name.size() - 3) == "...") {
                if (i + 1 != parts.size())
                    throw std::invalid_argument("'{name...}' must be the last segment: " + pattern);
                name.remove_suffix(3);
                kind = SegmentKind::Rest;
            }
            if (name.empty())
                throw std::invalid_argument("empty parameter name in route: " + pattern);
            segments.push_back({kind, std::string(name)});
        } else {
            if (part.find_first_of("{}") != std::string_view::npos)
                throw std::invalid_argument("malformed route segment: " + pattern);
            segments.push_back({SegmentKind::Literal, std::string(part)});
        }
    }
    return segments;
}

// Literal beats parameter beats rest, segment by segment from the left.
int segmentRank(SegmentKind kind) {
    switch (kind) {
    case SegmentKind::Literal:
        return 2;
    case SegmentKind::Param:
        return 1;
    case SegmentKind::Rest:
        return 0;
    }
    return 0;
}

} // namespace

void takeJsonBody(HttpRequest &request) {
    JsonParse parsed = parseJson(request.body);
    if (parsed.ok()) {
        request.json = std::move(parsed.value);
    } else {
        request.jsonError = parsed.error;
        if (parsed.byte > 0)
            *request.jsonError += " (at byte " + std::to_string(parsed.byte) + ")";
    }
    request.jsonParsed = true;
    // The document holds what the handler needs: the text would only double the memory.
    std::string().swap(request.body);
}

struct Router::Entry {
    Route route;
    std::vector<Segment> segments;
    std::vector<int> rank;

    bool matches(const std::vector<std::string_view> &parts,
                 std::vector<std::pair<std::string, std::string>> *params) const {
        std::size_t i = 0;
        for (const Segment &segment : segments) {
            if (segment.kind == SegmentKind::Rest) {
                if (i >= parts.size())
                    return false;
                std::string rest;
                for (std::size_t j = i; j < parts.size(); ++j) {
                    if (j > i)
                        rest.push_back('/');
                    rest.append(parts[j]);
                }
                if (rest.empty())
                    return false;
                if (params) {
                    auto decoded = percentDecode(rest, false);
                    params->emplace_back(segment.text, decoded ? *decoded : rest);
                }
                return true;
            }
            if (i >= parts.size())
                return false;
            const std::string_view part = parts[i++];
            if (segment.kind == SegmentKind::Literal) {
                if (part != segment.text)
                    return false;
            } else {
                if (part.empty())
                    return false;
                if (params) {
                    auto decoded = percentDecode(part, false);
                    params->emplace_back(segment.text, decoded ? *decoded : std::string(part));
                }
            }
        }
        return i == parts.size();
    }
};

bool parsesJson(BodyPolicy policy) {
    return policy == BodyPolicy::OptionalJson || policy == BodyPolicy::RequiredJson ||
           policy == BodyPolicy::Fields;
}

std::optional<HttpResponse> applyBodyPolicy(HttpRequest &request, BodyPolicy policy) {
    switch (policy) {
    case BodyPolicy::Ignore:
        request.body.clear();
        return std::nullopt;
    case BodyPolicy::Raw:
        return std::nullopt;
    case BodyPolicy::Fields:
        // An empty body stays empty: BodyFields answers that it is missing.
        if (!request.body.empty())
            takeJsonBody(request);
        return std::nullopt;
    case BodyPolicy::OptionalJson:
    case BodyPolicy::RequiredJson: {
        const bool blank = request.body.find_first_not_of(" \t\r\n") == std::string::npos;
        if (blank && policy == BodyPolicy::OptionalJson)
            return std::nullopt;
        if (blank)
            return errorResponse(400, "Request body required: send a JSON object");
        takeJsonBody(request);
        if (request.jsonError)
            return errorResponse(400, "Invalid JSON body: " + *request.jsonError);
        if (policy == BodyPolicy::RequiredJson && !request.json.is_object())
            return errorResponse(400, "Invalid JSON body: expected an object");
        return std::nullopt;
    }
    }
    return std::nullopt;
}

Router::Router() = default;
Router::~Router() = default;

void Router::insert(Route route) {
    auto entry = std::make_unique<Entry>();
    entry->segments = parsePattern(route.pattern);
    for (const Segment &segment : entry->segments)
        entry->rank.push_back(segmentRank(segment.kind));
    for (const auto &existing : m_entries) {
        if (existing->route.method == route.method && existing->route.pattern == route.pattern)
            throw std::invalid_argument("duplicate route: " + route.method + " " + route.pattern);
    }
    entry->route = std::move(route);
    m_entries.push_back(std::move(entry));
}

void Router::add(std::string method, std::string pattern, BufferedHandler handler,
                 RouteOptions options) {
    Route route;
    route.method = std::move(method);
    route.pattern = std::move(pattern);
    route.kind = RouteKind::Buffered;
    route.options = std::move(options);
    route.buffered = std::move(handler);
    insert(std::move(route));
}

void Router::addAsync(std::string method, std::string pattern, AsyncHandler handler,
                      RouteOptions options) {
    Route route;
    route.method = std::move(method);
    route.pattern = std::move(pattern);
    route.kind = RouteKind::Async;
    route.options = std::move(options);
    route.async = std::move(handler);
    insert(std::move(route));
}

void Router::addStream(std::string method, std::string pattern,
                       std::shared_ptr<StreamHandler> handler, RouteOptions options) {
    Route route;
    route.method = std::move(method);
    route.pattern = std::move(pattern);
    route.kind = RouteKind::Stream;
    route.options = std::move(options);
    route.stream = std::move(handler);
    insert(std::move(route));
}

void Router::addUpgrade(std::string pattern, std::shared_ptr<UpgradeHandler> handler,
                        RouteOptions options) {
    Route route;
    route.method = "GET";
    route.pattern = std::move(pattern);
    route.kind = RouteKind::Upgrade;
    route.options = std::move(options);
    route.upgrade = std::move(handler);
    insert(std::move(route));
}

RouteMatch Router::match(std::string_view method, std::string_view path) const {
    RouteMatch result;
    const auto parts = splitPath(path);
    if (parts.empty())
        return result;

    const Entry *best = nullptr;
    const Entry *bestHeadFallback = nullptr;
    std::vector<std::string> allowed;
    for (const auto &entry : m_entries) {
        if (!entry->matches(parts, nullptr))
            continue;
        const std::string &routeMethod = entry->route.method;
        if (std::find(allowed.begin(), allowed.end(), routeMethod) == allowed.end())
            allowed.push_back(routeMethod);
        const bool headable =
            entry->route.kind == RouteKind::Buffered || entry->route.kind == RouteKind::Async;
        if (routeMethod == method) {
            if (!best || entry->rank > best->rank)
                best = entry.get();
        } else if (method == "HEAD" && routeMethod == "GET" && headable) {
            if (!bestHeadFallback || entry->rank > bestHeadFallback->rank)
                bestHeadFallback = entry.get();
        }
    }
    if (!best)
        best = bestHeadFallback;
    if (best) {
        result.result = RouteMatch::Result::Found;
        result.route = &best->route;
        best->matches(parts, &result.params);
        return result;
    }
    if (!allowed.empty()) {
        if (std::find(allowed.begin(), allowed.end(), "GET") != allowed.end() &&
            std::find(allowed.begin(), allowed.end(), "HEAD") == allowed.end())
            allowed.emplace_back("HEAD");
        result.result = RouteMatch::Result::MethodNotAllowed;
        result.allowed = std::move(allowed);
    }
    return result;
}

std::vector<RouteInfo> Router::routes() const {
    std::vector<RouteInfo> infos;
    infos.reserve(m_entries.size());
    for (const auto &entry : m_entries) {
        const Route &route = entry->route;
        infos.push_back({route.method, route.pattern, route.options.summary, route.kind});
    }
    return infos;
}

} // namespace sbx
