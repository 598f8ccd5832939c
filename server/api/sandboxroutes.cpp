// Route group "sandbox": the sandbox context and the agents' manual, both served from the
// facts snapshot (rendered when facts refresh, never per request).
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/facts/factsservice.h"

namespace sbx {

namespace {

void install(Router &router, ServerContext &context) {
    FactsService &facts = context.facts;
    router.add("GET", "/v1/sandbox",
               [&facts](HttpRequest &) {
                   HttpResponse response;
                   response.body = facts.snapshot()->sandboxJson;
                   return response;
               },
               {.summary = "sandbox context: system, runtimes, tools, occupied ports (JSON, "
                           "AIO SandboxResponse plus `extensions`)"});
    router.add("GET", "/llms.txt",
               [&facts](HttpRequest &) { return textResponse(200, facts.snapshot()->llmsText); },
               {.summary = "this manual (text/plain)"});
}

const RouteGroupRegistration registration({.name = "sandbox", .order = 10, .install = install});

} // namespace

} // namespace sbx
