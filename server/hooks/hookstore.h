#pragma once

#include "server/core/bodyfields.h"

#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx {

// AIO leaves timeouts unbounded; ours stop at an hour so that one hook cannot hold a sandbox's
// stop for ever.
inline constexpr double kMaxHookTimeoutSeconds = 3600;
// Hooks of one sandbox, environment and API together: each runs at every stop and is listed
// in full, so a client registering in a loop must not grow them without end.
inline constexpr std::size_t kMaxHooks = 100;
inline constexpr const char *kShutdownHooksVariable = "SANDBOX_SHUTDOWN_HOOKS";

// AIO's SandboxHook.
struct ShutdownHook {
    std::string name;
    std::string event = "shutdown";
    std::string command;
    double timeout = 10;
    long long priority = 100;
    // "env" (SANDBOX_SHUTDOWN_HOOKS) or "api".
    std::string source = "api";
};

nlohmann::json toJson(const ShutdownHook &hook);

// Reads AIO's RegisterHookRequest (name, command, timeout, priority, event) with its
// constraints; the errors are collected in body, FastAPI style. The hook's source is "api".
std::optional<ShutdownHook> readRegisterHookRequest(BodyFields &body);

struct EnvironmentHooks {
    std::vector<ShutdownHook> hooks;
    // One line per problem, each naming the entry; the command text is never quoted.
    std::vector<std::string> errors;
};

// Parses SANDBOX_SHUTDOWN_HOOKS: a JSON array of {name, command, timeout?, priority?}.
EnvironmentHooks parseEnvironmentHooks(std::string_view text);

// The server's shutdown hooks: those of the environment (read-only) and those registered
// through the API, which are kept in a file of the state folder and so survive a restart.
class HookStore final {
public:
    enum class Outcome { Added, Replaced, Removed, NotFound, FromEnvironment, TooMany, SaveFailed };

    HookStore(std::vector<ShutdownHook> environmentHooks, std::string file);

    // Reads the API hooks saved by an earlier run. An error text when the file is unusable.
    std::optional<std::string> load();
    // Sorted by priority, then name.
    std::vector<ShutdownHook> list() const;
    // Adds or replaces an API hook and saves the file before answering. A new name past
    // kMaxHooks is TooMany; replacing one is always allowed.
    Outcome put(const ShutdownHook &hook, std::string &error);
    Outcome remove(const std::string &name, std::string &error);
    const std::string &file() const { return m_file; }

private:
    std::vector<ShutdownHook> snapshot() const;
    // Temporary file and rename: a crash never leaves a half-written list.
    std::optional<std::string> save(const std::vector<ShutdownHook> &hooks) const;

    // Held by put and remove through their save, so changes apply in order; m_mutex guards
    // m_hooks only briefly, so a listing never waits for the disk.
    std::mutex m_changeMutex;
    mutable std::mutex m_mutex;
    std::vector<ShutdownHook> m_hooks;
    const std::string m_file;
};

} // namespace sbx
