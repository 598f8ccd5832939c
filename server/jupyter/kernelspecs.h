#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbx {

// A kernel this server can start: a Jupyter kernelspec (kernel.json) or an interpreter with
// ipykernel given on the command line or found on PATH.
struct KernelSpec {
    // "python3", or an alias "python3.11" for the interpreter's version, as AIO names kernels.
    std::string name;
    std::string displayName;
    // May hold "{connection_file}", replaced at launch.
    std::vector<std::string> argv;
    // "NAME=value" from the kernelspec's env.
    std::vector<std::string> environment;
    // The kernelspec's interrupt_mode "message": interrupt_request on the control channel
    // instead of SIGINT.
    bool interruptByMessage = false;
    // argv[0] resolved to a path.
    std::string interpreter;
    // "3.11.2"; empty when argv[0] is not a Python interpreter we could ask.
    std::string pythonVersion;
    // The kernel.json it came from, "--jupyter-python" or "PATH".
    std::string source;
};

struct KernelCatalog {
    std::vector<KernelSpec> kernels;
    std::string defaultKernel;
    // How the kernels were found, for GET /v1/jupyter/info.
    std::string detection;
    // Why there is no kernel, when kernels is empty.
    std::string problem;

    const KernelSpec *find(std::string_view name) const;
    std::vector<std::string> names() const;
};

struct KernelSearch {
    // --jupyter-python: only this interpreter. Empty: kernelspecs, then python3 on PATH.
    std::string python;
    // Folders holding kernelspec folders (each with a kernel.json), in precedence order.
    std::vector<std::string> specDirs;
};

// Jupyter's kernelspec folders for this environment: $JUPYTER_PATH entries, the user's data
// folder ($JUPYTER_DATA_DIR or ~/.local/share/jupyter), /usr/local/share/jupyter and
// /usr/share/jupyter, each with /kernels appended.
std::vector<std::string> defaultKernelSpecDirs();

// Reads the kernelspecs and asks each Python interpreter for its version and whether it has
// ipykernel (a child process each, a few tens of milliseconds): run it off the I/O thread.
KernelCatalog detectKernels(const KernelSearch &search);

} // namespace sbx
