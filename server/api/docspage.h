#pragma once

#include "server/core/router.h"

#include <string>
#include <string_view>
#include <vector>

// The HTML page of GET /v1/docs, generated from the route table as /llms.txt is from facts:
// AIO serves its Swagger UI there, so a console's "API docs" entry finds a page on both.
namespace sbx {

struct DocsPageInput {
    std::string version;
    std::string authMechanisms;
    std::vector<RouteInfo> routes;
};

// Escapes text for an HTML element or a quoted attribute value.
std::string escapeHtml(std::string_view text);
// A whole UTF-8 HTML document: every route's method, path and one-line summary, in table order.
std::string renderDocsPage(const DocsPageInput &input);

} // namespace sbx
