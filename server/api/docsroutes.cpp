// Route group "docs": GET /v1/docs, the route table as an HTML page (AIO serves its Swagger UI
// there). Rendered once, at the first request: by then every group has installed its routes.
#include "server/api/docspage.h"
#include "server/auth/authenticator.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"

#include <memory>
#include <mutex>

namespace sbx {

namespace {

struct RenderedPage {
    std::once_flag once;
    std::string html;
};

void install(Router &router, ServerContext &context) {
    auto page = std::make_shared<RenderedPage>();
    const Router &routes = router;
    const std::string &version = context.version;
    const Authenticator &auth = context.auth;
    router.add("GET", "/v1/docs",
               [page, &routes, &version, &auth](HttpRequest &) {
                   std::call_once(page->once, [&] {
                       page->html = renderDocsPage({version, auth.mechanisms(), routes.routes()});
                   });
                   HttpResponse response =
                       textResponse(200, page->html, "text/html; charset=utf-8");
                   // No script, style only inline; a page opened with ?ticket= keeps it out of
                   // any Referer.
                   response.headers.emplace_back("Content-Security-Policy",
                                                 "default-src 'none'; style-src 'unsafe-inline'");
                   response.headers.emplace_back("Referrer-Policy", "no-referrer");
                   response.headers.emplace_back("X-Content-Type-Options", "nosniff");
                   return response;
               },
               {.summary = "this list of endpoints as an HTML page (AIO: Swagger UI)"});
}

const RouteGroupRegistration registration({.name = "docs", .order = 11, .install = install});

} // namespace

} // namespace sbx
