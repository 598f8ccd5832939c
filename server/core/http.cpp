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
    case 503:
        return "Service Unavailable";
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
