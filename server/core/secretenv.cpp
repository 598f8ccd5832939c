#include "server/core/secretenv.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char **environ;

namespace sbx {

std::optional<std::string> takeEnvironmentSecret(const char *name) {
    const std::string prefix = std::string(name) + "=";
    std::optional<std::string> value;
    std::vector<char *> entries;
    for (char **entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        if (!text.starts_with(prefix))
            continue;
        // getenv returns the first; so do we.
        if (!value)
            value = std::string(text.substr(prefix.size()));
        entries.push_back(*entry);
    }
    if (entries.empty())
        return std::nullopt;
    unsetenv(name);
    // The strings themselves stay where the kernel put them (or where setenv did): wipe them.
    for (char *entry : entries)
        explicit_bzero(entry, std::strlen(entry));
    return value;
}

} // namespace sbx
