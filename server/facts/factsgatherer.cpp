#include "server/facts/factsgatherer.h"

#include "server/core/process.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pwd.h>
#include <set>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace sbx::facts {

namespace fs = std::filesystem;

namespace {

std::string unquote(std::string value) {
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front())
        value = value.substr(1, value.size() - 2);
    return value;
}

std::string firstLine(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

void readOsRelease(SystemFacts &system) {
    std::ifstream in("/etc/os-release");
    if (!in)
        in.open("/usr/lib/os-release");
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            continue;
        const std::string key = line.substr(0, eq);
        const std::string value = unquote(line.substr(eq + 1));
        if (key == "NAME")
            system.os = value;
        else if (key == "VERSION_ID")
            system.osVersion = value;
        else if (key == "PRETTY_NAME")
            system.osPrettyName = value;
    }
}

void collectListeningPorts(const char *path, std::set<unsigned> &ports) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line); // the column titles
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state;
        if (!(fields >> slot >> local >> remote >> state))
            continue;
        if (state != "0A") // TCP_LISTEN
            continue;
        const auto colon = local.rfind(':');
        if (colon == std::string::npos)
            continue;
        const unsigned long port = std::strtoul(local.c_str() + colon + 1, nullptr, 16);
        if (port > 0 && port < 65536)
            ports.insert(static_cast<unsigned>(port));
    }
}

struct Probe {
    std::string label;
    // The first name found on PATH is probed; the others found are its aliases.
    std::vector<std::string> names;
    bool askVersion = true;
};

// Probes are independent: run them on their own threads so the slowest bounds the total.
// Without a timeout, only what is on PATH: no version is asked, no process started.
std::vector<std::optional<LabelledTool>> runProbes(const std::vector<Probe> &probes,
                                                   std::optional<std::chrono::milliseconds> timeout,
                                                   bool *allAnswered) {
    std::vector<std::optional<LabelledTool>> results(probes.size());
    std::atomic<bool> answered{true};
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < probes.size(); ++i) {
        const Probe &probe = probes[i];
        std::optional<std::string> bin;
        std::vector<std::string> aliases;
        for (const std::string &name : probe.names) {
            if (auto path = findExecutable(name)) {
                if (!bin)
                    bin = *path;
                aliases.push_back(name);
            }
        }
        if (!bin)
            continue;
        LabelledTool tool{probe.label, {std::nullopt, bin, aliases}};
        results[i] = tool;
        if (!probe.askVersion || !timeout)
            continue;
        threads.emplace_back([&result = results[i], &answered, timeout = *timeout, path = *bin] {
            std::string output;
            ProcessSpec spec;
            spec.argv = {path, "--version"};
            spec.timeout = timeout;
            const ProcessResult run = runCaptured(spec, output, 4096);
            if (run.timedOut)
                answered = false;
            if (run.exitCode == 0)
                result->spec.ver = versionIn(output);
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    if (allAnswered)
        *allAnswered = answered;
    return results;
}

struct KnownTool {
    const char *category;
    const char *name;
    const char *description;
};

// Well-known command line tools an agent may want to know about, by category.
constexpr KnownTool kKnownTools[] = {
    {"Version control", "git", "distributed version control"},
    {"Version control", "gh", "GitHub command line client"},
    {"Version control", "svn", "Subversion client"},
    {"Text editors", "vim", "modal text editor"},
    {"Text editors", "nvim", "Neovim text editor"},
    {"Text editors", "nano", "simple terminal text editor"},
    {"Text editors", "emacs", "extensible text editor"},
    {"Search and text processing", "rg", "ripgrep: fast recursive search"},
    {"Search and text processing", "grep", "search text with patterns"},
    {"Search and text processing", "sed", "stream editor"},
    {"Search and text processing", "awk", "pattern scanning and processing"},
    {"Search and text processing", "jq", "command line JSON processor"},
    {"Search and text processing", "yq", "command line YAML processor"},
    {"Search and text processing", "fd", "fast file finder"},
    {"Search and text processing", "fzf", "fuzzy finder"},
    {"Search and text processing", "diff", "compare files line by line"},
    {"Search and text processing", "less", "pager"},
    {"Network", "curl", "transfer data from or to URLs"},
    {"Network", "wget", "download files"},
    {"Network", "ssh", "OpenSSH client"},
    {"Network", "rsync", "fast file copying and syncing"},
    {"Network", "nc", "netcat: raw TCP/UDP connections"},
    {"Network", "dig", "DNS lookup"},
    {"Network", "ping", "check that a host answers"},
    {"Build tools and compilers", "make", "GNU make build tool"},
    {"Build tools and compilers", "cmake", "cross-platform build generator"},
    {"Build tools and compilers", "ninja", "small fast build system"},
    {"Build tools and compilers", "gcc", "GNU C compiler"},
    {"Build tools and compilers", "g++", "GNU C++ compiler"},
    {"Build tools and compilers", "clang", "LLVM C/C++ compiler"},
    {"Build tools and compilers", "pkg-config", "compiler flags of installed libraries"},
    {"Build tools and compilers", "cargo", "Rust package manager and build tool"},
    {"Build tools and compilers", "go", "Go toolchain"},
    {"Build tools and compilers", "javac", "Java compiler"},
    {"Archives and compression", "tar", "tape archiver"},
    {"Archives and compression", "gzip", "gzip compression"},
    {"Archives and compression", "zip", "create zip archives"},
    {"Archives and compression", "unzip", "extract zip archives"},
    {"Archives and compression", "xz", "xz compression"},
    {"Archives and compression", "zstd", "Zstandard compression"},
    {"Processes and terminals", "tmux", "terminal multiplexer"},
    {"Processes and terminals", "screen", "terminal multiplexer"},
    {"Processes and terminals", "htop", "interactive process viewer"},
    {"Processes and terminals", "ps", "list processes"},
    {"Processes and terminals", "strace", "trace system calls"},
    {"Processes and terminals", "gdb", "GNU debugger"},
    {"Containers", "docker", "Docker client"},
    {"Containers", "podman", "daemonless container engine"},
    {"Containers", "kubectl", "Kubernetes client"},
    {"Databases", "sqlite3", "SQLite shell"},
    {"Databases", "psql", "PostgreSQL client"},
    {"Databases", "mysql", "MySQL client"},
    {"Databases", "redis-cli", "Redis client"},
    {"Media and documents", "ffmpeg", "audio and video converter"},
    {"Media and documents", "convert", "ImageMagick image converter"},
    {"Media and documents", "pandoc", "document converter"},
};

} // namespace

std::optional<std::string> versionIn(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i])))
            continue;
        // "v18.19.0" is a version, "x86_64" and "libc6" are not.
        if (i > 0) {
            const char before = text[i - 1];
            const bool vPrefix = (before == 'v' || before == 'V') &&
                                 (i < 2 || !std::isalnum(static_cast<unsigned char>(text[i - 2])));
            if (!vPrefix && (std::isalnum(static_cast<unsigned char>(before)) || before == '.'))
                continue;
        }
        std::size_t end = i;
        bool dotted = false;
        while (end < text.size()) {
            const char c = text[end];
            if (std::isdigit(static_cast<unsigned char>(c))) {
                ++end;
            } else if (c == '.' && end + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
                dotted = true;
                ++end;
            } else {
                break;
            }
        }
        if (dotted)
            return std::string(text.substr(i, end - i));
        i = end;
    }
    return std::nullopt;
}

std::string timezone() {
    if (const char *tz = std::getenv("TZ"); tz && *tz)
        return tz[0] == ':' ? std::string(tz + 1) : std::string(tz);
    if (std::string zone = firstLine("/etc/timezone"); !zone.empty())
        return zone;
    std::error_code ec;
    const fs::path target = fs::read_symlink("/etc/localtime", ec);
    if (!ec) {
        const std::string text = target.string();
        const auto at = text.find("zoneinfo/");
        if (at != std::string::npos)
            return text.substr(at + 9);
    }
    return "UTC";
}

std::vector<std::string> occupiedPorts() {
    std::set<unsigned> ports;
    collectListeningPorts("/proc/net/tcp", ports);
    collectListeningPorts("/proc/net/tcp6", ports);
    std::vector<std::string> result;
    result.reserve(ports.size());
    for (unsigned port : ports)
        result.push_back(std::to_string(port));
    return result;
}

SystemFacts gatherSystem(const std::string &workspace) {
    SystemFacts system;
    readOsRelease(system);
    utsname names{};
    if (uname(&names) == 0) {
        system.arch = names.machine;
        system.kernel = names.release;
        system.hostname = names.nodename;
        if (system.os.empty())
            system.os = names.sysname;
        if (system.osVersion.empty())
            system.osVersion = names.release;
    }
    if (system.osPrettyName.empty())
        system.osPrettyName = system.os + " " + system.osVersion;
    system.uid = geteuid();
    passwd entry{};
    passwd *found = nullptr;
    std::vector<char> buffer(16384);
    if (getpwuid_r(system.uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) {
        system.user = found->pw_name;
        system.homeDir = found->pw_dir;
    }
    if (const char *home = std::getenv("HOME"); home && *home)
        system.homeDir = home;
    if (system.user.empty()) {
        const char *user = std::getenv("USER");
        system.user = user ? user : std::to_string(system.uid);
    }
    system.workspace = workspace;
    system.timezone = timezone();
    system.occupiedPorts = occupiedPorts();
    return system;
}

namespace {

RuntimeFacts runtimes(std::optional<std::chrono::milliseconds> probeTimeout, bool *allAnswered) {
    const std::vector<Probe> probes = {
        {"Python", {"python3", "python"}},
        {"pip", {"pip3", "pip"}},
        {"uv", {"uv"}},
        {"Jupyter", {"jupyter"}, false},
        {"Node.js", {"node", "nodejs"}},
        {"npm", {"npm"}},
        {"pnpm", {"pnpm"}},
        {"Yarn", {"yarn"}},
        {"Git", {"git"}},
        {"GitHub CLI", {"gh"}},
    };
    constexpr std::size_t kFirstNode = 4;
    constexpr std::size_t kFirstOther = 8;
    auto results = runProbes(probes, probeTimeout, allAnswered);
    RuntimeFacts runtime;
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (!results[i])
            continue;
        auto &target = i < kFirstNode    ? runtime.python
                       : i < kFirstOther ? runtime.nodejs
                                         : runtime.other;
        target.push_back(std::move(*results[i]));
    }
    return runtime;
}

} // namespace

RuntimeFacts gatherRuntimes(std::chrono::milliseconds probeTimeout, bool *allAnswered) {
    return runtimes(probeTimeout, allAnswered);
}

RuntimeFacts locateRuntimes() {
    return runtimes(std::nullopt, nullptr);
}

std::vector<ToolCategory> gatherTools() {
    std::vector<ToolCategory> categories;
    for (const KnownTool &known : kKnownTools) {
        if (!findExecutable(known.name))
            continue;
        if (categories.empty() || categories.back().category != known.category)
            categories.push_back({known.category, {}});
        categories.back().tools.push_back({known.name, known.description});
    }
    return categories;
}

} // namespace sbx::facts
