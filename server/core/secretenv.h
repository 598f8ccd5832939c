#pragma once

#include <optional>
#include <string>

namespace sbx {

// Takes a secret out of the process environment: returns its value, removes the variable so
// that no child inherits it, and overwrites the original bytes, which /proc/<pid>/environ
// still shows after unsetenv alone. Nullopt when the variable is not set.
std::optional<std::string> takeEnvironmentSecret(const char *name);

} // namespace sbx
