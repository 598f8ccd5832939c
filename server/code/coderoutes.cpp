// Route group "code": AIO's unified code API (/v1/code/*). Python with stateful=true runs in
// a Jupyter session's kernel (the KernelHub shared with the jupyter group); everything else is
// a fresh process per request, python3 or node reading the program from stdin
// (server/code/coderun.h). AIO's own endpoint family: no extension.
#include "server/code/coderun.h"
#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/process.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"
#include "server/jupyter/executionrecord.h"
#include "server/jupyter/jupyterresponses.h"
#include "server/jupyter/kernelhub.h"
#include "server/jupyter/sharedhub.h"

#include <boost/asio/io_context.hpp>

#include <mutex>
#include <sstream>

namespace sbx {

namespace {

using nlohmann::json;

constexpr std::size_t kCodeBodyLimit = 1024 * 1024;

struct Runtime {
    const char *language;
    const char *program;
    const char *description;
};

constexpr Runtime kRuntimes[] = {
    {"python", "python3",
     "Python: a fresh python3 process per request, or with stateful=true a Jupyter kernel "
     "session"},
    {"javascript", "node", "JavaScript: a fresh Node.js process per request"},
};

const Runtime *runtimeFor(const std::string &language) {
    for (const Runtime &runtime : kRuntimes) {
        if (language == runtime.language)
            return &runtime;
    }
    return nullptr;
}

json streamOutput(const char *name, const std::string &text) {
    return {{"output_type", "stream"}, {"name", name},        {"text", text},
            {"data", nullptr},         {"metadata", nullptr}, {"execution_count", nullptr},
            {"ename", nullptr},        {"evalue", nullptr},   {"traceback", nullptr}};
}

std::vector<std::string> lines(const std::string &text) {
    std::vector<std::string> list;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);)
        list.push_back(line);
    while (!list.empty() && list.back().empty())
        list.pop_back();
    return list;
}

// "NameError: name 'x' is not defined" -> {NameError, name 'x' is not defined}.
std::optional<std::pair<std::string, std::string>> errorLine(const std::string &line) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos || colon == 0)
        return std::nullopt;
    const std::string name = line.substr(0, colon);
    for (const char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
            return std::nullopt;
    }
    return std::pair{name, line.substr(colon + 2)};
}

// What a failed run printed as its error: Python's traceback from its header on, or the lines
// of Node's uncaught-exception report; the error output named after its "Name: message" line.
void describeError(const std::string &language, const std::string &err, json &traceback,
                   json &outputs) {
    std::vector<std::string> report;
    if (language == "python") {
        const auto at = err.rfind("Traceback (most recent call last):");
        if (at == std::string::npos)
            return;
        report = lines(err.substr(at));
    } else {
        report = lines(err);
    }
    if (report.empty())
        return;
    traceback = report;
    std::optional<std::pair<std::string, std::string>> named;
    if (language == "python") {
        named = errorLine(report.back());
    } else {
        for (const std::string &line : report) {
            if ((named = errorLine(line)))
                break;
        }
    }
    if (!named)
        return;
    json output = streamOutput("stderr", "");
    output["output_type"] = "error";
    output["name"] = nullptr;
    output["text"] = nullptr;
    output["ename"] = named->first;
    output["evalue"] = named->second;
    output["traceback"] = traceback;
    outputs.push_back(std::move(output));
}

std::string withDropNote(std::string text, std::size_t dropped, const char *stream) {
    if (dropped > 0)
        text += "\n[sandbox-server: " + std::to_string(dropped) + " more bytes of " + stream +
                " were dropped]\n";
    return text;
}

HttpResponse statelessResponse(const std::string &language, const std::string &code,
                               CodeRunResult run) {
    if (!run.started)
        return errorResponse(500, run.error);
    const std::string out = withDropNote(std::move(run.out), run.droppedOut, "stdout");
    const std::string err = withDropNote(std::move(run.err), run.droppedErr, "stderr");
    const std::string status = run.timedOut ? "timeout" : run.exitCode == 0 ? "ok" : "error";
    json outputs = json::array();
    if (!out.empty())
        outputs.push_back(streamOutput("stdout", out));
    if (!err.empty())
        outputs.push_back(streamOutput("stderr", err));
    json traceback = nullptr;
    if (status == "error")
        describeError(language, err, traceback, outputs);
    json data = {{"language", language},
                 {"status", status},
                 {"outputs", std::move(outputs)},
                 {"code", code},
                 {"stdout", out},
                 {"stderr", err},
                 {"exit_code", run.exitCode ? json(*run.exitCode) : json(nullptr)},
                 {"traceback", std::move(traceback)},
                 {"session_id", nullptr}};
    const std::string message =
        run.timedOut ? "Execution timed out; the process group was killed" : "Code executed";
    return envelopeResponse(200, true, message, std::move(data));
}

HttpResponse statefulResponse(JupyterExecuteResult result, const std::string &code) {
    if (result.refusal > 0)
        return errorResponse(result.refusal, result.message);
    json data = {
        {"language", "python"},
        {"status", result.status},
        {"code", code},
        {"stdout", streamText(result.outputs, "stdout")},
        {"stderr", streamText(result.outputs, "stderr")},
        {"exit_code", nullptr},
        {"traceback", firstTraceback(result.outputs)},
        {"session_id", result.sessionId},
        {"execution_count", result.executionCount ? json(*result.executionCount) : json(nullptr)},
        {"kernel_name", result.kernelName},
        {"kernel_restarted", result.kernelRestarted}};
    data["outputs"] = std::move(result.outputs);
    return envelopeResponse(200, result.success, result.message, std::move(data));
}

// "Python 3.11.7" -> "3.11.7", "v20.20.2" -> "20.20.2".
std::string versionOf(const std::string &output) {
    std::string text = output.substr(0, output.find('\n'));
    if (const auto space = text.rfind(' '); space != std::string::npos)
        text = text.substr(space + 1);
    if (!text.empty() && text.front() == 'v')
        text.erase(0, 1);
    return text;
}

// The runtimes' versions, asked once (a process each) and kept, as AIO does.
class RuntimeVersions final {
public:
    // Blocking: on the work pool.
    json languages() {
        std::lock_guard lock(m_mutex);
        if (m_languages.is_null()) {
            m_languages = json::array();
            m_missing = json::array();
            for (const Runtime &runtime : kRuntimes) {
                const auto path = findExecutable(runtime.program);
                std::string output;
                ProcessResult run;
                if (path) {
                    ProcessSpec spec;
                    spec.argv = {*path, "--version"};
                    spec.timeout = std::chrono::seconds(10);
                    run = runCaptured(spec, output, 4096);
                }
                if (!path || run.exitCode != 0) {
                    m_missing.push_back(
                        {{"language", runtime.language},
                         {"reason", path ? *path + " --version failed"
                                         : std::string(runtime.program) + " is not on PATH"}});
                    continue;
                }
                m_languages.push_back({{"language", runtime.language},
                                       {"description", runtime.description},
                                       {"runtime_version", versionOf(output)},
                                       {"default_timeout", kDefaultExecuteTimeout},
                                       {"max_timeout", kMaxExecuteTimeout},
                                       {"details", {{"executable", *path}, {"stateful", false}}}});
            }
        }
        return m_languages;
    }
    json missing() {
        std::lock_guard lock(m_mutex);
        return m_missing;
    }

private:
    std::mutex m_mutex;
    json m_languages;
    json m_missing;
};

void install(Router &router, ServerContext &context) {
    std::shared_ptr<KernelHub> hub = sharedKernelHub(context);
    auto versions = std::make_shared<RuntimeVersions>();
    const std::string workspace = context.options.workspace;
    boost::asio::io_context &io = context.io;
    WorkPool &pool = context.pool;

    router.addAsync(
        "POST", "/v1/code/execute",
        [hub, workspace, &io](HttpRequest request, Responder reply) {
            BodyFields body(request);
            const auto language = body.string("language", true);
            auto code = body.takeString("code", true);
            const int timeout = boundedTimeout(body, "timeout");
            const auto cwd = body.string("cwd");
            const bool stateful = body.boolean("stateful").value_or(false);
            const std::string sessionId = body.string("session_id").value_or("");
            const Runtime *runtime = language ? runtimeFor(*language) : nullptr;
            if (language && !runtime)
                body.fail({"body", "language"}, "enum", "Input should be 'python' or 'javascript'");
            if (!body.ok())
                return reply(body.refusal());
            if (stateful && *language != "python")
                return reply(errorResponse(
                    400, "stateful execution is for python only (a Jupyter kernel); javascript "
                         "runs in a fresh node process: send stateful false"));
            std::string dir = workspace;
            if (cwd && !cwd->empty()) {
                std::string error;
                const auto resolved = workingDirectory(workspace, *cwd, error);
                if (!resolved)
                    return reply(errorResponse(400, error));
                dir = *resolved;
            }
            std::string echo = *code;
            if (stateful) {
                JupyterExecuteCall call;
                call.sessionId = sessionId;
                call.code = std::move(*code);
                call.timeout = std::chrono::seconds(timeout);
                call.cwd = cwd && !cwd->empty() ? dir : std::string();
                hub->execute(std::move(call), [reply = std::move(reply), echo = std::move(echo)](
                                                  JupyterExecuteResult result) {
                    reply(statefulResponse(std::move(result), echo));
                });
                return;
            }
            const auto program = findExecutable(runtime->program);
            if (!program)
                return reply(errorResponse(
                    503, std::string(runtime->program) +
                             " is not installed here (not on PATH): " + *language + " cannot run"));
            CodeRunSpec spec;
            spec.argv = {*program, "-"};
            spec.input = std::move(*code);
            spec.workingDirectory = dir;
            spec.timeout = std::chrono::seconds(timeout);
            runCode(io, std::move(spec),
                    [reply = std::move(reply), echo = std::move(echo),
                     language = *language](CodeRunResult run) {
                        reply(statelessResponse(language, echo, std::move(run)));
                    });
        },
        {.summary = "run python or javascript ({language, code, timeout: 30, cwd, stateful: "
                    "false, session_id}); stateful python keeps state in a Jupyter session",
         .body = BodyPolicy::Fields,
         .bodyLimit = kCodeBodyLimit});

    router.addAsync(
        "GET", "/v1/code/info",
        [hub, versions, &pool](HttpRequest, Responder reply) {
            pool.post([hub, versions, reply = std::move(reply)]() mutable {
                json languages = versions->languages();
                json missing = versions->missing();
                hub->info([reply = std::move(reply), languages = std::move(languages),
                           missing = std::move(missing)](JupyterHubInfo info) mutable {
                    for (json &language : languages) {
                        if (language["language"] != "python")
                            continue;
                        json &details = language["details"];
                        const bool kernel = !info.catalog.kernels.empty();
                        details["stateful"] = kernel;
                        details["kernel"] = kernel ? json(info.catalog.defaultKernel) : json();
                        if (const KernelSpec *spec =
                                info.catalog.find(info.catalog.defaultKernel)) {
                            details["kernel_interpreter"] = spec->interpreter;
                            details["kernel_python_version"] = spec->pythonVersion;
                        } else {
                            details["kernel_problem"] = info.catalog.problem;
                        }
                    }
                    json data = {{"languages", std::move(languages)}};
                    if (!missing.empty())
                        data["unavailable"] = std::move(missing);
                    reply(envelopeResponse(200, true, "Code runtimes", std::move(data)));
                });
            });
        },
        {.summary = "languages with their runtime versions (a missing runtime is listed under "
                    "unavailable)"});
}

const RouteGroupRegistration registration({.name = "code", .order = 41, .install = install});

} // namespace

} // namespace sbx
