#include "server/core/jsontext.h"

namespace sbx {

namespace {

constexpr char kHex[] = "0123456789abcdef";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0 when it is not one.
std::size_t utf8Length(const unsigned char *p, const unsigned char *end) {
    const unsigned char c = p[0];
    std::size_t n = 0;
    unsigned min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (static_cast<std::size_t>(end - p) < n)
        return 0;
    unsigned cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (std::size_t i = 1; i < n; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

} // namespace

void appendJsonString(std::string &out, std::string_view text) {
    out.reserve(out.size() + text.size() + text.size() / 16 + 16);
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const auto *end = p + text.size();
    while (p < end) {
        const unsigned char *run = p;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            ++p;
        out.append(reinterpret_cast<const char *>(run), static_cast<std::size_t>(p - run));
        if (p >= end)
            break;
        const unsigned char c = *p;
        if (c >= 0x80) {
            if (const std::size_t n = utf8Length(p, end)) {
                out.append(reinterpret_cast<const char *>(p), n);
                p += n;
            } else {
                out += kReplacement;
                ++p;
            }
            continue;
        }
        ++p;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
}

HttpResponse
envelopeWithText(int status, bool success, std::string message, nlohmann::json data,
                 const std::vector<std::pair<std::string_view, std::string_view>> &text) {
    HttpResponse response = envelopeResponse(status, success, std::move(message), std::move(data));
    // Keys are sorted: "data" is the envelope's first, so the first match is that key.
    static constexpr std::string_view kDataKey = "\"data\":{";
    const std::size_t at = response.body.find(kDataKey);
    if (at == std::string::npos || text.empty())
        return response;
    const std::size_t insert = at + kDataKey.size();
    std::size_t size = response.body.size();
    for (const auto &[key, value] : text)
        size += key.size() + value.size() + value.size() / 16 + 8;
    std::string body;
    body.reserve(size);
    body.append(response.body, 0, insert);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i > 0)
            body += ',';
        body += '"';
        body += text[i].first;
        body += "\":\"";
        appendJsonString(body, text[i].second);
        body += '"';
    }
    if (response.body[insert] != '}')
        body += ',';
    body.append(response.body, insert, std::string::npos);
    response.body = std::move(body);
    return response;
}

} // namespace sbx
