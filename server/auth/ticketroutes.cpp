// Route group "auth": POST /tickets mints one-time tickets. Not enveloped, as in AIO:
// {"ticket": "...", "expires_in": N}.
#include "server/auth/ticketstore.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"

namespace sbx {

namespace {

void install(Router &router, ServerContext &context) {
    TicketStore &tickets = context.tickets;
    router.add("POST", "/tickets",
               [&tickets](HttpRequest &request) {
                   // A ticket opens one request; letting it mint another would make it last
                   // forever.
                   if (request.auth == AuthMethod::Ticket)
                       return errorResponse(401, "Authentication required: a ticket cannot mint "
                                                 "tickets; use the API key or a JWT");
                   HttpResponse response = jsonResponse(
                       200, {{"ticket", tickets.mint()}, {"expires_in", tickets.ttl().count()}});
                   response.headers.emplace_back("Cache-Control", "no-store");
                   return response;
               },
               {.summary = "mint a one-time ticket for ?ticket= (needs the API key or a JWT; "
                           "{ticket, expires_in})",
                .body = BodyPolicy::OptionalJson});
}

const RouteGroupRegistration registration({.name = "auth", .order = 20, .install = install});

} // namespace

} // namespace sbx
