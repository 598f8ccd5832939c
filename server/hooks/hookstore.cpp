#include "server/hooks/hookstore.h"

#include "server/core/jsonparse.h"
#include "server/core/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sbx {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxNameLength = 64;
constexpr std::size_t kMaxCommandLength = 4096;

// Pydantic counts characters (code points), not bytes.
std::size_t characters(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

bool validName(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

bool bySchedule(const ShutdownHook &a, const ShutdownHook &b) {
    return a.priority != b.priority ? a.priority < b.priority : a.name < b.name;
}

// "entry 2 (\"backup\")" for messages; a name that is not a valid one is left out.
std::string entryLabel(std::size_t index, const json &entry) {
    std::string label = "entry " + std::to_string(index + 1);
    if (entry.is_object()) {
        const auto name = entry.find("name");
        if (name != entry.end() && name->is_string() && validName(name->get<std::string>()) &&
            name->get<std::string>().size() <= kMaxNameLength)
            label += " (\"" + name->get<std::string>() + "\")";
    }
    return label;
}

// "command: String should have at most 4096 characters; timeout: ..."
std::string describe(const json &errors) {
    std::string text;
    for (const json &error : errors) {
        if (!text.empty())
            text += "; ";
        const json &loc = error["loc"];
        if (loc.is_array() && loc.size() > 1 && loc[1].is_string())
            text += loc[1].get<std::string>() + ": ";
        text += error["msg"].get<std::string>();
    }
    return text;
}

// Validates each entry of a hook list (the variable's, or the saved file's).
std::vector<ShutdownHook> readEntries(const json &entries, const std::string &what,
                                      const std::string &source, std::vector<std::string> &errors) {
    std::vector<ShutdownHook> hooks;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        BodyFields fields(entries[i]);
        std::optional<ShutdownHook> hook = readRegisterHookRequest(fields);
        if (!fields.ok() || !hook) {
            errors.push_back(what + ": " + entryLabel(i, entries[i]) + ": " +
                             describe(fields.errors()));
            continue;
        }
        const auto twin = std::find_if(hooks.begin(), hooks.end(),
                                       [&](const ShutdownHook &h) { return h.name == hook->name; });
        if (twin != hooks.end()) {
            errors.push_back(what + ": " + entryLabel(i, entries[i]) +
                             ": name: another entry already uses this name");
            continue;
        }
        hook->source = source;
        hooks.push_back(std::move(*hook));
    }
    return hooks;
}

} // namespace

json toJson(const ShutdownHook &hook) {
    json object = json::object();
    object["name"] = hook.name;
    object["event"] = hook.event;
    object["command"] = hook.command;
    object["timeout"] = hook.timeout;
    object["priority"] = hook.priority;
    object["source"] = hook.source;
    return object;
}

std::optional<ShutdownHook> readRegisterHookRequest(BodyFields &body) {
    ShutdownHook hook;
    if (const auto name = body.string("name", true)) {
        if (characters(*name) > kMaxNameLength)
            body.fail({"body", "name"}, "string_too_long",
                      "String should have at most 64 characters");
        else if (!validName(*name))
            body.fail({"body", "name"}, "string_pattern_mismatch",
                      "String should match pattern '^[a-zA-Z0-9_-]+$'");
        hook.name = *name;
    }
    if (const auto command = body.string("command", true)) {
        if (command->empty())
            body.fail({"body", "command"}, "string_too_short",
                      "String should have at least 1 character");
        else if (characters(*command) > kMaxCommandLength)
            body.fail({"body", "command"}, "string_too_long",
                      "String should have at most 4096 characters");
        else if (command->find('\0') != std::string::npos)
            body.fail({"body", "command"}, "value_error",
                      "Value error, the command must not contain NUL characters");
        hook.command = *command;
    }
    if (const auto timeout = body.number("timeout")) {
        if (!(*timeout > 0))
            body.fail({"body", "timeout"}, "greater_than", "Input should be greater than 0");
        else if (*timeout > kMaxHookTimeoutSeconds)
            body.fail({"body", "timeout"}, "less_than_equal",
                      "Input should be less than or equal to 3600");
        hook.timeout = *timeout;
    }
    if (const auto priority = body.number("priority", true))
        hook.priority = static_cast<long long>(*priority);
    if (const auto event = body.string("event")) {
        if (*event != "shutdown")
            body.fail({"body", "event"}, "literal_error", "Input should be 'shutdown'");
    }
    if (!body.ok())
        return std::nullopt;
    return hook;
}

EnvironmentHooks parseEnvironmentHooks(std::string_view text) {
    EnvironmentHooks result;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return result;
    const std::string what = kShutdownHooksVariable;
    JsonParse parsed = parseJson(text);
    if (!parsed.ok()) {
        // JsonParse never quotes the text, which may hold secrets.
        result.errors.push_back(what + " is not valid JSON (" + parsed.error + " at byte " +
                                std::to_string(parsed.byte) +
                                "); expected an array of {name, command, timeout?, priority?}");
        return result;
    }
    json entries = std::move(parsed.value);
    if (!entries.is_array()) {
        result.errors.push_back(what +
                                " must be a JSON array of {name, command, timeout?, priority?}");
        return result;
    }
    if (entries.size() > kMaxHooks) {
        result.errors.push_back(what + " holds " + std::to_string(entries.size()) +
                                " hooks; at most " + std::to_string(kMaxHooks) + " are allowed");
        return result;
    }
    result.hooks = readEntries(entries, what, "env", result.errors);
    return result;
}

HookStore::HookStore(std::vector<ShutdownHook> environmentHooks, std::string file)
    : m_hooks(std::move(environmentHooks))
    , m_file(std::move(file)) {}

std::optional<std::string> HookStore::load() {
    namespace fs = std::filesystem;
    const fs::path path(m_file);
    std::error_code ec;
    // Left by a server killed while saving; the file itself is whole either way.
    for (const auto &entry : fs::directory_iterator(path.parent_path(), ec)) {
        if (entry.path().filename().string().rfind(path.filename().string() + ".tmp-", 0) == 0)
            fs::remove(entry.path(), ec);
    }
    if (!fs::exists(path, ec))
        return std::nullopt;
    std::ifstream in(m_file, std::ios::binary);
    if (!in)
        return "cannot read " + m_file + "; fix its permissions or remove it";
    std::stringstream text;
    text << in.rdbuf();
    JsonParse parsed = parseJson(text.str());
    const json &saved = parsed.value;
    const std::string remedy = "; fix or remove it";
    if (!parsed.ok() || !saved.is_object() || !saved.contains("hooks") ||
        !saved["hooks"].is_array())
        return m_file + " is not a saved hook list" + remedy;
    std::vector<std::string> errors;
    std::vector<ShutdownHook> hooks = readEntries(saved["hooks"], m_file, "api", errors);
    if (!errors.empty())
        return errors.front() + remedy;
    std::lock_guard lock(m_mutex);
    for (ShutdownHook &hook : hooks) {
        const auto twin = std::find_if(m_hooks.begin(), m_hooks.end(),
                                       [&](const ShutdownHook &h) { return h.name == hook.name; });
        if (twin != m_hooks.end()) {
            log::warning("shutdown hook " + hook.name + " of the API is dropped: " +
                         kShutdownHooksVariable + " has one of that name");
            continue;
        }
        m_hooks.push_back(std::move(hook));
    }
    return std::nullopt;
}

std::vector<ShutdownHook> HookStore::list() const {
    std::vector<ShutdownHook> hooks = snapshot();
    std::sort(hooks.begin(), hooks.end(), bySchedule);
    return hooks;
}

HookStore::Outcome HookStore::put(const ShutdownHook &hook, std::string &error) {
    std::lock_guard change(m_changeMutex);
    std::vector<ShutdownHook> next = snapshot();
    const auto it = std::find_if(next.begin(), next.end(),
                                 [&](const ShutdownHook &h) { return h.name == hook.name; });
    if (it != next.end() && it->source == "env")
        return Outcome::FromEnvironment;
    const bool replaced = it != next.end();
    if (!replaced && next.size() >= kMaxHooks)
        return Outcome::TooMany;
    if (replaced)
        *it = hook;
    else
        next.push_back(hook);
    if (auto failure = save(next)) {
        error = *failure;
        return Outcome::SaveFailed;
    }
    std::lock_guard lock(m_mutex);
    m_hooks = std::move(next);
    return replaced ? Outcome::Replaced : Outcome::Added;
}

HookStore::Outcome HookStore::remove(const std::string &name, std::string &error) {
    std::lock_guard change(m_changeMutex);
    std::vector<ShutdownHook> next = snapshot();
    const auto it = std::find_if(next.begin(), next.end(),
                                 [&](const ShutdownHook &h) { return h.name == name; });
    if (it == next.end())
        return Outcome::NotFound;
    if (it->source == "env")
        return Outcome::FromEnvironment;
    next.erase(it);
    if (auto failure = save(next)) {
        error = *failure;
        return Outcome::SaveFailed;
    }
    std::lock_guard lock(m_mutex);
    m_hooks = std::move(next);
    return Outcome::Removed;
}

std::vector<ShutdownHook> HookStore::snapshot() const {
    std::lock_guard lock(m_mutex);
    return m_hooks;
}

std::optional<std::string> HookStore::save(const std::vector<ShutdownHook> &hooks) const {
    json list = json::array();
    for (const ShutdownHook &hook : hooks) {
        if (hook.source != "api")
            continue;
        json entry = toJson(hook);
        entry.erase("source");
        list.push_back(std::move(entry));
    }
    json document = json::object();
    document["hooks"] = std::move(list);
    const std::string text = document.dump(2) + "\n";

    // mkstemp creates the file 0600: commands may hold secrets.
    std::string temporary = m_file + ".tmp-XXXXXX";
    const int fd = mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0)
        return "cannot save the hooks in " + m_file + ": " + std::strerror(errno);
    std::size_t written = 0;
    int failure = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            failure = errno;
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    if (!failure && fsync(fd) != 0)
        failure = errno;
    if (::close(fd) != 0 && !failure)
        failure = errno;
    if (!failure && std::rename(temporary.c_str(), m_file.c_str()) != 0)
        failure = errno;
    if (failure) {
        ::unlink(temporary.c_str());
        return "cannot save the hooks in " + m_file + ": " + std::strerror(failure);
    }
    return std::nullopt;
}

} // namespace sbx
