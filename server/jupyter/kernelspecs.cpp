#include "server/jupyter/kernelspecs.h"

#include "server/core/process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace sbx {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto kProbeTimeout = std::chrono::seconds(10);
constexpr const char *kProbe =
    "import sys, importlib.util; print('%d.%d.%d' % sys.version_info[:3], "
    "importlib.util.find_spec('ipykernel') is not None)";

struct Probe {
    bool ran = false;
    std::string version;
    bool hasIpykernel = false;
    std::string error;
};

Probe probe(const std::string &interpreter) {
    Probe result;
    ProcessSpec spec;
    spec.argv = {interpreter, "-c", kProbe};
    spec.timeout = kProbeTimeout;
    std::string output;
    const ProcessResult run = runCaptured(spec, output, 4096);
    if (!run.started) {
        result.error = run.error;
        return result;
    }
    std::istringstream words(output);
    std::string flag;
    words >> result.version >> flag;
    if (run.exitCode != 0 || result.version.empty() || (flag != "True" && flag != "False")) {
        result.error = interpreter + " did not answer as a Python 3 interpreter" +
                       (run.timedOut ? " (timed out)" : "");
        result.version.clear();
        return result;
    }
    result.ran = true;
    result.hasIpykernel = flag == "True";
    return result;
}

std::optional<std::string> resolved(const std::string &program) {
    if (program.find('/') != std::string::npos) {
        if (::access(program.c_str(), X_OK) == 0)
            return program;
        return std::nullopt;
    }
    return findExecutable(program);
}

std::string minorName(const std::string &version) {
    const auto first = version.find('.');
    const auto second = first == std::string::npos ? first : version.find('.', first + 1);
    return "python" + version.substr(0, second);
}

void replaceAll(std::string &text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// The kernelspec in dir, when it is a Python kernel we can start.
std::optional<KernelSpec> readSpecOrThrow(const fs::path &dir, std::vector<std::string> &skipped) {
    std::ifstream file(dir / "kernel.json");
    if (!file)
        return std::nullopt;
    std::stringstream text;
    text << file.rdbuf();
    const json spec = json::parse(text.str(), nullptr, false);
    const std::string where = (dir / "kernel.json").string();
    if (spec.is_discarded() || !spec.is_object() || !spec.contains("argv") ||
        !spec["argv"].is_array() || spec["argv"].empty()) {
        skipped.push_back(where + ": not a kernelspec");
        return std::nullopt;
    }
    std::string language = spec.value("language", "");
    std::transform(language.begin(), language.end(), language.begin(), ::tolower);
    if (language != "python") {
        skipped.push_back(where + ": language " + language + ", not python");
        return std::nullopt;
    }
    KernelSpec kernel;
    kernel.name = dir.filename().string();
    kernel.displayName = spec.value("display_name", kernel.name);
    kernel.source = where;
    for (const json &arg : spec["argv"]) {
        if (!arg.is_string()) {
            skipped.push_back(where + ": argv holds a non-string");
            return std::nullopt;
        }
        std::string value = arg.get<std::string>();
        replaceAll(value, "{resource_dir}", dir.string());
        kernel.argv.push_back(std::move(value));
    }
    if (const auto env = spec.find("env"); env != spec.end() && env->is_object()) {
        for (const auto &[name, value] : env->items()) {
            if (value.is_string())
                kernel.environment.push_back(name + "=" + value.get<std::string>());
        }
    }
    kernel.interruptByMessage = spec.value("interrupt_mode", "signal") == "message";
    const auto interpreter = resolved(kernel.argv.front());
    if (!interpreter) {
        skipped.push_back(where + ": " + kernel.argv.front() + " not found");
        return std::nullopt;
    }
    kernel.interpreter = *interpreter;
    kernel.argv.front() = *interpreter;
    // "python -m ipykernel_launcher ...": a Python we can ask for its version and modules.
    if (kernel.argv.size() > 2 && kernel.argv[1] == "-m") {
        const Probe answer = probe(kernel.interpreter);
        const bool needsIpykernel = kernel.argv[2].rfind("ipykernel", 0) == 0;
        if (!answer.ran || (needsIpykernel && !answer.hasIpykernel)) {
            skipped.push_back(
                where + ": " +
                (answer.ran ? kernel.interpreter + " has no ipykernel" : answer.error));
            return std::nullopt;
        }
        kernel.pythonVersion = answer.version;
    }
    return kernel;
}

std::optional<KernelSpec> readSpec(const fs::path &dir, std::vector<std::string> &skipped) {
    try {
        return readSpecOrThrow(dir, skipped);
    } catch (const json::exception &) {
        // A field of the wrong type (display_name a number, ...).
        skipped.push_back((dir / "kernel.json").string() + ": not a kernelspec");
        return std::nullopt;
    }
}

KernelSpec interpreterKernel(const std::string &interpreter, const Probe &answer,
                             std::string source) {
    KernelSpec kernel;
    kernel.name = "python3";
    kernel.displayName = "Python " + answer.version + " (ipykernel)";
    kernel.argv = {interpreter, "-m", "ipykernel_launcher", "-f", "{connection_file}"};
    kernel.interpreter = interpreter;
    kernel.pythonVersion = answer.version;
    kernel.source = std::move(source);
    return kernel;
}

std::string joined(const std::vector<std::string> &items, const char *separator) {
    std::string text;
    for (const std::string &item : items)
        text += (text.empty() ? "" : separator) + item;
    return text;
}

} // namespace

const KernelSpec *KernelCatalog::find(std::string_view name) const {
    for (const KernelSpec &kernel : kernels) {
        if (kernel.name == name)
            return &kernel;
    }
    return nullptr;
}

std::vector<std::string> KernelCatalog::names() const {
    std::vector<std::string> list;
    for (const KernelSpec &kernel : kernels)
        list.push_back(kernel.name);
    return list;
}

std::vector<std::string> defaultKernelSpecDirs() {
    std::vector<std::string> dirs;
    if (const char *path = std::getenv("JUPYTER_PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::string entry(rest.substr(0, colon));
            if (!entry.empty())
                dirs.push_back(entry + "/kernels");
            rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        }
    }
    if (const char *data = std::getenv("JUPYTER_DATA_DIR"); data && *data)
        dirs.push_back(std::string(data) + "/kernels");
    else if (const char *home = std::getenv("HOME"); home && *home)
        dirs.push_back(std::string(home) + "/.local/share/jupyter/kernels");
    dirs.push_back("/usr/local/share/jupyter/kernels");
    dirs.push_back("/usr/share/jupyter/kernels");
    return dirs;
}

KernelCatalog detectKernels(const KernelSearch &search) {
    KernelCatalog catalog;
    if (!search.python.empty()) {
        catalog.detection = "--jupyter-python " + search.python;
        const auto interpreter = resolved(search.python);
        const Probe answer = interpreter ? probe(*interpreter) : Probe{};
        if (!interpreter)
            catalog.problem = search.python + " (--jupyter-python) was not found";
        else if (!answer.ran)
            catalog.problem = answer.error;
        else if (!answer.hasIpykernel)
            catalog.problem = *interpreter + " has no ipykernel module (Debian: apt install "
                                             "python3-ipykernel)";
        else
            catalog.kernels.push_back(interpreterKernel(*interpreter, answer, "--jupyter-python"));
    } else {
        std::vector<std::string> skipped;
        std::set<std::string> seen;
        for (const std::string &dir : search.specDirs) {
            std::error_code ec;
            std::vector<fs::path> entries;
            for (const auto &entry : fs::directory_iterator(dir, ec))
                entries.push_back(entry.path());
            std::sort(entries.begin(), entries.end());
            for (const fs::path &entry : entries) {
                // The first folder holding a name wins, as in Jupyter.
                if (!seen.insert(entry.filename().string()).second)
                    continue;
                if (auto kernel = readSpec(entry, skipped))
                    catalog.kernels.push_back(std::move(*kernel));
            }
        }
        catalog.detection = "kernelspecs in " + joined(search.specDirs, ", ");
        if (catalog.kernels.empty()) {
            // No kernelspec: an interpreter on PATH with ipykernel still serves.
            const auto interpreter = findExecutable("python3");
            const Probe answer = interpreter ? probe(*interpreter) : Probe{};
            catalog.detection += ", then python3 on PATH";
            if (interpreter && answer.ran && answer.hasIpykernel) {
                catalog.kernels.push_back(interpreterKernel(*interpreter, answer, "PATH"));
            } else {
                catalog.problem =
                    "no Python kernelspec with ipykernel was found" +
                    (skipped.empty() ? std::string() : " (" + joined(skipped, "; ") + ")") +
                    (interpreter ? ", and " + *interpreter + " has no ipykernel"
                                 : ", and there is no python3 on PATH") +
                    " (Debian: apt install python3-ipykernel)";
            }
        }
    }
    // AIO's names: python3.11 for a kernel on Python 3.11, beside the kernelspec's own name.
    const std::size_t found = catalog.kernels.size();
    for (std::size_t i = 0; i < found; ++i) {
        if (catalog.kernels[i].pythonVersion.empty())
            continue;
        const std::string alias = minorName(catalog.kernels[i].pythonVersion);
        if (!catalog.find(alias)) {
            KernelSpec copy = catalog.kernels[i];
            copy.name = alias;
            catalog.kernels.push_back(std::move(copy));
        }
    }
    if (!catalog.kernels.empty())
        catalog.defaultKernel = catalog.find("python3") ? "python3" : catalog.kernels.front().name;
    return catalog;
}

} // namespace sbx
