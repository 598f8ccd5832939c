#include "server/core/routegroup.h"

#include <algorithm>

namespace sbx {

namespace {

// A function-local static, so registrations from other files' static initialisers
// never run before the list exists.
std::vector<RouteGroup> &registry() {
    static std::vector<RouteGroup> groups;
    return groups;
}

} // namespace

RouteGroupRegistration::RouteGroupRegistration(RouteGroup group) {
    registry().push_back(std::move(group));
}

std::vector<RouteGroup> registeredRouteGroups() {
    std::vector<RouteGroup> groups = registry();
    std::sort(groups.begin(), groups.end(), [](const RouteGroup &a, const RouteGroup &b) {
        return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
    return groups;
}

} // namespace sbx
