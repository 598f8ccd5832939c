// Route group "hooks": AIO's runtime hooks API (/v1/sandbox/hooks) over the shutdown hooks of
// SANDBOX_SHUTDOWN_HOOKS and the API, which run when the server stops.
#include "server/core/bodyfields.h"
#include "server/core/log.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/secretenv.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"
#include "server/hooks/hookstore.h"
#include "server/hooks/shutdownrunner.h"

#include <cstdlib>
#include <memory>

namespace sbx {

namespace {

using nlohmann::json;

const std::string kFromEnvironment =
    std::string(" was set by the environment (") + kShutdownHooksVariable + ") and cannot be ";

std::shared_ptr<HookStore> openStore(const ServerOptions &options) {
    // Commands may hold secrets: taken out of the environment (and /proc/<pid>/environ) at
    // once, so shells and hooks started later do not see them.
    const std::optional<std::string> variable = takeEnvironmentSecret(kShutdownHooksVariable);
    EnvironmentHooks environment = parseEnvironmentHooks(variable.value_or(std::string()));
    if (!environment.errors.empty()) {
        for (const std::string &error : environment.errors)
            log::error(error);
        // A sandbox silently missing a shutdown hook loses work on its stop: refuse to start.
        throw ConfigurationError(std::string(kShutdownHooksVariable) +
                                 " is invalid: refusing to start without its shutdown hooks");
    }
    const std::size_t fromEnvironment = environment.hooks.size();
    auto store = std::make_shared<HookStore>(std::move(environment.hooks),
                                             options.stateDir + "/shutdown-hooks.json");
    if (auto error = store->load()) {
        log::error(*error);
        throw ConfigurationError("the saved shutdown hooks cannot be read: refusing to start "
                                 "without them");
    }
    const std::size_t all = store->list().size();
    if (all > 0)
        log::info("shutdown hooks: " + std::to_string(fromEnvironment) + " from " +
                  kShutdownHooksVariable + ", " + std::to_string(all - fromEnvironment) +
                  " registered through the API");
    return store;
}

HttpResponse listHooks(const HookStore &store, const HttpRequest &request) {
    if (const auto event = request.queryValue("event"); event && *event != "shutdown")
        return validationRefusal({"query", "event"}, "literal_error", "Input should be 'shutdown'");
    json list = json::array();
    for (const ShutdownHook &hook : store.list())
        list.push_back(toJson(hook));
    return envelopeResponse(200, true, "Hooks retrieved", std::move(list));
}

HttpResponse registerHook(HookStore &store, const ShutdownHook &hook) {
    std::string error;
    switch (store.put(hook, error)) {
    case HookStore::Outcome::FromEnvironment:
        return errorResponse(409,
                             "Hook " + hook.name + kFromEnvironment +
                                 "replaced through the API; register yours under another name");
    case HookStore::Outcome::TooMany:
        return errorResponse(429, "Too many shutdown hooks (limit " + std::to_string(kMaxHooks) +
                                      "): delete one before registering " + hook.name);
    case HookStore::Outcome::SaveFailed:
        log::error(error);
        return errorResponse(500, "The hook was not registered: " + error);
    case HookStore::Outcome::Replaced:
        log::info("shutdown hook " + hook.name + " replaced through the API");
        return envelopeResponse(200, true, "Hook " + hook.name + " replaced", toJson(hook));
    default:
        log::info("shutdown hook " + hook.name + " registered through the API");
        return envelopeResponse(200, true, "Hook " + hook.name + " registered", toJson(hook));
    }
}

HttpResponse deleteHook(HookStore &store, const std::string &name) {
    std::string error;
    switch (store.remove(name, error)) {
    case HookStore::Outcome::NotFound:
        return errorResponse(404, "Hook " + name + " not found");
    case HookStore::Outcome::FromEnvironment:
        return errorResponse(403, "Hook " + name + kFromEnvironment + "deleted through the API");
    case HookStore::Outcome::SaveFailed:
        log::error(error);
        return errorResponse(500, "The hook was not deleted: " + error);
    default:
        log::info("shutdown hook " + name + " deleted through the API");
        return envelopeResponse(200, true, "Hook " + name + " deleted");
    }
}

void install(Router &router, ServerContext &context) {
    std::shared_ptr<HookStore> store = openStore(context.options);
    ShutdownRunOptions runOptions;
    runOptions.workspace = context.options.workspace;
    context.shutdown.add("shutdown hooks",
                         [store, runOptions] { runShutdownHooks(store->list(), runOptions); });

    router.add("GET", "/v1/sandbox/hooks",
               [store](HttpRequest &request) { return listHooks(*store, request); },
               {.summary = "shutdown hooks, by priority then name (`?event=shutdown`)"});

    // Both save the list to disk: on the pool, never on the I/O thread.
    WorkPool &pool = context.pool;
    router.addAsync(
        "POST", "/v1/sandbox/hooks",
        [store, &pool](HttpRequest request, Responder reply) {
            BodyFields body(request);
            std::optional<ShutdownHook> hook = readRegisterHookRequest(body);
            if (!body.ok() || !hook)
                return reply(body.refusal());
            pool.post([store, hook = std::move(*hook), reply = std::move(reply)] {
                reply(registerHook(*store, hook));
            });
        },
        {.summary = "register a shutdown hook {name, command, timeout?, priority?, event?}; an "
                    "existing name is replaced",
         .body = BodyPolicy::Fields,
         .bodyLimit = 64 * 1024});
    router.addAsync("DELETE", "/v1/sandbox/hooks/{name}",
                    [store, &pool](HttpRequest request, Responder reply) {
                        pool.post([store, name = std::string(*request.param("name")),
                                   reply = std::move(reply)] { reply(deleteHook(*store, name)); });
                    },
                    {.summary = "remove a shutdown hook registered through the API"});
}

const RouteGroupRegistration registration(
    {.name = "hooks", .order = 15, .extensions = {"shutdown-hooks"}, .install = install});

} // namespace

} // namespace sbx
