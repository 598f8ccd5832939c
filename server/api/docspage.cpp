#include "server/api/docspage.h"

#include <algorithm>

namespace sbx {

namespace {

// Summaries mark names with backticks as in Markdown; shown as <code> when they pair up.
std::string summaryHtml(std::string_view summary) {
    const bool paired = std::count(summary.begin(), summary.end(), '`') % 2 == 0;
    if (!paired)
        return escapeHtml(summary);
    std::string html;
    bool inCode = false;
    std::size_t start = 0;
    for (std::size_t tick = summary.find('`'); tick != std::string_view::npos;
         tick = summary.find('`', start)) {
        html += escapeHtml(summary.substr(start, tick - start));
        html += inCode ? "</code>" : "<code>";
        inCode = !inCode;
        start = tick + 1;
    }
    html += escapeHtml(summary.substr(start));
    return html;
}

const char *kindNote(RouteKind kind) {
    switch (kind) {
    case RouteKind::Upgrade:
        return " <span class=\"kind\">WebSocket</span>";
    case RouteKind::Stream:
        return " <span class=\"kind\">stream</span>";
    case RouteKind::Buffered:
    case RouteKind::Async:
        break;
    }
    return "";
}

constexpr std::string_view kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;"
    "line-height:1.45}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{text-align:left;vertical-align:top;padding:.3em .6em;border-bottom:1px solid #8884}"
    "td.method{font-family:monospace;white-space:nowrap}"
    "td.path code{white-space:nowrap}"
    ".kind{font-size:.8em;border:1px solid #8888;border-radius:.3em;padding:0 .3em}"
    "@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}}";

} // namespace

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string renderDocsPage(const DocsPageInput &input) {
    const std::string title = "sandbox-server " + escapeHtml(input.version) + " API";
    std::string html;
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html += "<title>" + title + "</title>\n";
    html += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    html += "<h1>" + title + "</h1>\n";
    html += "<p>This sandbox speaks a subset of the AIO sandbox API over HTTP. Paths are relative "
            "to the address this page was read from. It is a local development sandbox, not an "
            "isolated container.</p>\n";
    html += "<p>Authentication: " + escapeHtml(input.authMechanisms) + ".</p>\n";
    html += "<table>\n<thead><tr><th scope=\"col\">Method</th><th scope=\"col\">Path</th>"
            "<th scope=\"col\">Summary</th></tr></thead>\n<tbody>\n";
    for (const RouteInfo &route : input.routes) {
        html += "<tr><td class=\"method\">" + escapeHtml(route.method) +
                "</td><td class=\"path\"><code>" + escapeHtml(route.pattern) + "</code>" +
                kindNote(route.kind) + "</td><td>" + summaryHtml(route.summary) + "</td></tr>\n";
    }
    html += "</tbody>\n</table>\n";
    html += "<p>A <code>HEAD</code> request is answered like <code>GET</code>, without the body, "
            "on every route that is neither a stream nor a WebSocket. Errors come back in the "
            "envelope <code>{\"success\": false, \"message\": ..., \"data\": null, \"hint\": "
            "null}</code> with a 4xx or 5xx status. Agents read the same list in "
            "<code>GET /llms.txt</code>.</p>\n";
    html += "</body>\n</html>\n";
    return html;
}

} // namespace sbx
