#include "server/core/options.h"

#include <charconv>
#include <filesystem>
#include <system_error>

namespace sbx {

namespace fs = std::filesystem;

ParsedOptions parseCommandLine(const std::vector<std::string> &args) {
    ParsedOptions parsed;
    ServerOptions &options = parsed.options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inlineValue;
        if (arg.rfind("--", 0) == 0) {
            const std::size_t eq = arg.find('=');
            if (eq != std::string::npos) {
                inlineValue = arg.substr(eq + 1);
                arg.resize(eq);
            }
        }
        auto value = [&]() -> std::optional<std::string> {
            if (inlineValue)
                return inlineValue;
            if (i + 1 < args.size())
                return args[++i];
            parsed.error = "option " + arg + " needs a value";
            return std::nullopt;
        };
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--version") {
            options.version = true;
        } else if (arg == "--verbose" || arg == "-v") {
            options.verbose = true;
        } else if (arg == "--no-extensions") {
            options.noExtensions = true;
        } else if (arg == "--host") {
            auto v = value();
            if (!v)
                return parsed;
            if (v->empty()) {
                parsed.error = "--host needs a non-empty address";
                return parsed;
            }
            options.host = *v;
        } else if (arg == "--port") {
            auto v = value();
            if (!v)
                return parsed;
            unsigned port = 0;
            const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), port);
            if (ec != std::errc() || end != v->data() + v->size() || port > 65535) {
                parsed.error = "--port needs a number from 0 to 65535, got '" + *v + "'";
                return parsed;
            }
            options.port = static_cast<std::uint16_t>(port);
        } else if (arg == "--observe-source") {
            auto v = value();
            if (!v)
                return parsed;
            if (*v != "auto" && *v != "cgroup" && *v != "tree") {
                parsed.error = "--observe-source needs auto, cgroup or tree, got '" + *v + "'";
                return parsed;
            }
            options.observeSource = *v;
        } else if (arg == "--without") {
            auto v = value();
            if (!v)
                return parsed;
            std::string_view rest = *v;
            while (!rest.empty()) {
                const std::size_t comma = rest.find(',');
                const std::string name(rest.substr(0, comma));
                if (!name.empty())
                    options.withoutGroups.push_back(name);
                rest =
                    comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            }
        } else if (arg == "--workspace") {
            auto v = value();
            if (!v)
                return parsed;
            options.workspace = *v;
        } else if (arg == "--state-dir") {
            auto v = value();
            if (!v)
                return parsed;
            options.stateDir = *v;
        } else if (arg == "--session-idle-timeout" || arg == "--ws-ping-interval" ||
                   arg == "--bash-retention") {
            auto v = value();
            if (!v)
                return parsed;
            unsigned seconds = 0;
            const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), seconds);
            if (ec != std::errc() || end != v->data() + v->size() || seconds == 0) {
                parsed.error = arg + " needs a number of seconds above 0, got '" + *v + "'";
                return parsed;
            }
            (arg == "--ws-ping-interval" ? options.wsPingInterval
             : arg == "--bash-retention" ? options.bashRetention
                                         : options.sessionIdleTimeout) = seconds;
        } else if (arg == "--max-connections" || arg == "--header-timeout") {
            auto v = value();
            if (!v)
                return parsed;
            unsigned number = 0;
            const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), number);
            if (ec != std::errc() || end != v->data() + v->size() || number == 0) {
                parsed.error = arg + " needs a number above 0, got '" + *v + "'";
                return parsed;
            }
            (arg == "--max-connections" ? options.maxConnections : options.headerTimeout) = number;
        } else {
            parsed.error = "unknown argument '" + arg + "' (see --help)";
            return parsed;
        }
    }
    return parsed;
}

std::string helpText() {
    return R"(Usage: sandbox-server [--host ADDR] [--port N] [--workspace DIR] [--state-dir DIR]
                      [--session-idle-timeout SECONDS] [--ws-ping-interval SECONDS]
                      [--bash-retention SECONDS]
                      [--max-connections N] [--header-timeout SECONDS]
                      [--observe-source auto|cgroup|tree]
                      [--without GROUP,...] [--no-extensions] [--verbose] [--help] [--version]

sandbox-server is a local sandbox runtime speaking a subset of the AIO sandbox HTTP API
(GET /v1/sandbox, GET /llms.txt, POST /tickets, ...). Sandbox Console starts it as its
default local sandbox; the test suites use it as their peer.

It is a development sandbox, like a local process runner: it does NOT isolate untrusted
code. Commands and hooks run as the user who started it, with that user's rights. Do not
expose it to people or programs you would not give a shell on this machine.

Options:
  --host ADDR        address to listen on (default 127.0.0.1)
  --port N           port to listen on; 0 picks a free port (default 0)
  --workspace DIR    working directory for hooks and commands (default: current directory)
  --state-dir DIR    the server's own state (default: WORKSPACE/.sandbox-server)
  --session-idle-timeout SECONDS
                     end shell sessions that have no terminal attached and nothing but
                     the shell running after this long (default 86400, 24 hours)
  --ws-ping-interval SECONDS
                     ping a terminal WebSocket client silent for this long (default 30)
  --bash-retention SECONDS
                     keep a finished /v1/bash command's output readable this long
                     (default 3600)
  --max-connections N
                     open connections at most (default: derived from the descriptor limit,
                     RLIMIT_NOFILE, less a reserve for terminals and files); at the cap the
                     connection idle the longest waiting for a request is closed
  --header-timeout SECONDS
                     a new connection must send its first request header within this
                     time (default 15); later requests on it may wait 120 s
  --observe-source auto|cgroup|tree
                     where /v1/sandbox/observe takes its figures: cgroup v2 files, or sums
                     over the server's descendant processes (tree). auto (the default) uses
                     the cgroup only when it is the sandbox's own (the server at the root of a
                     cgroup namespace of its own, as in a container), never a desktop
                     session's cgroup
  --without GROUP,...
                     leave these route groups out (bash, watch, observe, shell, hooks, mcp,
                     ...),
                     to stand in for an older AIO server that lacks them
  --no-extensions    answer as AIO's documented contract only: announce no extension
                     and ignore Range on downloads
  --verbose          log every request (method, path, status; never credentials)
  --help             show this text
  --version          show the version

Once it accepts connections it prints exactly one line on stdout:
  sandbox-server listening on http://HOST:PORT
Logs and hook output go to stderr.

Environment:
  SANDBOX_API_KEY        require this key (X-AIO-API-Key, Authorization: Bearer, ?api_key=)
  JWT_PUBLIC_KEY         base64 of a PEM RSA public key: accept RS256 JWTs (Bearer)
  TICKET_TTL_SECONDS     lifetime of one-time tickets from POST /tickets (default 30)
  RUN_HOOK_INIT          shell command run first, before the listener opens
  RUN_HOOK_PRE_SERVICES  shell command run next, before the listener opens
  RUN_HOOK_POST_READY    shell command run in the background once the server listens
  SANDBOX_SHUTDOWN_HOOKS JSON array of {name, command, timeout?, priority?}: shutdown hooks
                         that the API cannot remove (invalid: the server refuses to start)
  SANDBOX_MCP_SERVERS    {"mcpServers": {NAME: {command, args, env}}} or the path of a file
                         holding it: the MCP servers of /v1/mcp/*, besides
                         STATE/mcp-servers.json (with neither and Node.js present: the
                         filesystem MCP server on the workspace, installed with npm)
With neither SANDBOX_API_KEY nor JWT_PUBLIC_KEY set, there is no authentication.
)";
}

std::optional<std::string> resolveDirectories(ServerOptions &options) {
    std::error_code ec;
    fs::path workspace =
        options.workspace.empty() ? fs::current_path(ec) : fs::path(options.workspace);
    if (ec)
        return "cannot read the current directory: " + ec.message();
    workspace = fs::absolute(workspace, ec);
    if (ec)
        return "invalid workspace '" + options.workspace + "': " + ec.message();
    fs::create_directories(workspace, ec);
    if (ec)
        return "cannot create workspace '" + workspace.string() + "': " + ec.message();
    if (!fs::is_directory(workspace, ec))
        return "workspace '" + workspace.string() + "' is not a directory";
    workspace = fs::canonical(workspace, ec);
    if (ec)
        return "cannot resolve workspace '" + options.workspace + "': " + ec.message();

    fs::path stateDir =
        options.stateDir.empty() ? workspace / ".sandbox-server" : fs::path(options.stateDir);
    stateDir = fs::absolute(stateDir, ec);
    if (!ec)
        fs::create_directories(stateDir, ec);
    if (ec)
        return "cannot create state dir '" + stateDir.string() + "': " + ec.message();

    options.workspace = workspace.string();
    options.stateDir = stateDir.string();
    return std::nullopt;
}

} // namespace sbx
