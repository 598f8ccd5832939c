#include "server/core/http.h"

#include <algorithm>
#include <cctype>

namespace sbx {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

template <typename Pairs>
std::optional<std::string_view> findValue(const Pairs &pairs, std::string_view name,
                                          bool caseInsensitive) {
    for (const auto &[key, value] : pairs) {
        if (caseInsensitive ? iequals(key, name) : key == name)
            return std::string_view(value);
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
    return findValue(headers, name, true);
}

std::optional<std::string_view> HttpRequest::queryValue(std::string_view name) const {
    return findValue(query, name, false);
}

std::optional<std::string_view> HttpRequest::param(std::string_view name) const {
    return findValue(params, name, false);
}

std::optional<std::string> percentDecode(std::string_view text, bool formEncoding) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size())
                return std::nullopt;
            const int high = hexValue(text[i + 1]);
            const int low = hexValue(text[i + 2]);
            if (high < 0 || low < 0)
                return std::nullopt;
            out.push_back(static_cast<char>(high * 16 + low));
            i += 2;
        } else if (c == '+' && formEncoding) {
            out.push_back(' ');
        } else {
            out.push_back(c);
        }
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> parseQuery(std::string_view query) {
    std::vector<std::pair<std::string, std::string>> result;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (part.empty())
            continue;
        const std::size_t eq = part.find('=');
        const std::string_view rawKey = part.substr(0, eq);
        const std::string_view rawValue =
            eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
        auto key = percentDecode(rawKey, true);
        auto value = percentDecode(rawValue, true);
        result.emplace_back(key ? std::move(*key) : std::string(rawKey),
                            value ? std::move(*value) : std::string(rawValue));
    }
    return result;
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

bool acceptsEventStream(const HttpRequest &request) {
    auto trim = [](std::string_view text) {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    };
    // Every Accept field counts (a client may send several); "q=0" means "not this one".
    for (const auto &[name, value] : request.headers) {
        if (!iequals(name, "Accept"))
            continue;
        std::string_view rest(value);
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            std::string_view range = rest.substr(0, comma);
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            const std::size_t semicolon = range.find(';');
            if (!iequals(trim(range.substr(0, semicolon)), "text/event-stream"))
                continue;
            bool refused = false;
            std::string_view params =
                semicolon == std::string_view::npos ? std::string_view() : range.substr(semicolon);
            while (!params.empty()) {
                params.remove_prefix(1);
                const std::size_t next = params.find(';');
                const std::string_view param = trim(params.substr(0, next));
                if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=')
                    refused = trim(param.substr(2)).find_first_not_of("0.") == std::string::npos;
                params = next == std::string_view::npos ? std::string_view() : params.substr(next);
            }
            if (!refused)
                return true;
        }
    }
    return false;
}

bool splitTarget(std::string_view target, std::string &path, std::string_view &query) {
    if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0) {
        const auto slash = target.find('/', target.find("://") + 3);
        target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
    }
    if (target.empty() || target.front() != '/')
        return false;
    const auto mark = target.find('?');
    path = std::string(target.substr(0, mark));
    query = mark == std::string_view::npos ? std::string_view() : target.substr(mark + 1);
    return true;
}

std::string_view reasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 426:
        return "Upgrade Required";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "";
    }
}

HttpResponse envelopeResponse(int status, bool success, std::string message, nlohmann::json data,
                              nlohmann::json hint) {
    nlohmann::json body = {{"success", success},
                           {"message", std::move(message)},
                           {"data", std::move(data)},
                           {"hint", std::move(hint)}};
    return jsonResponse(status, body);
}

HttpResponse errorResponse(int status, std::string message) {
    return envelopeResponse(status, false, std::move(message));
}

HttpResponse jsonResponse(int status, const nlohmann::json &body) {
    HttpResponse response;
    response.status = status;
    // Replace invalid UTF-8 rather than throw: a path or probe output may hold any bytes.
    response.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return response;
}

HttpResponse textResponse(int status, std::string body, std::string contentType) {
    HttpResponse response;
    response.status = status;
    response.contentType = std::move(contentType);
    response.body = std::move(body);
    return response;
}

} // namespace sbx
