#include "server/jupyter/sharedhub.h"

#include "server/core/options.h"
#include "server/core/servercontext.h"
#include "server/jupyter/kernelhub.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <filesystem>
#include <mutex>

namespace sbx {

namespace fs = std::filesystem;

std::shared_ptr<KernelHub> sharedKernelHub(ServerContext &context) {
    // The groups that use it hold it; it goes with the last of them (the route table).
    static std::mutex mutex;
    static ServerContext *owner = nullptr;
    static std::weak_ptr<KernelHub> shared;
    std::lock_guard lock(mutex);
    if (auto existing = shared.lock(); existing && owner == &context)
        return existing;
    KernelHubConfig config;
    config.search.python = context.options.jupyterPython;
    config.search.specDirs = defaultKernelSpecDirs();
    config.workspace = context.options.workspace;
    config.idleTimeout = std::chrono::seconds(context.options.jupyterIdleTimeout);
    config.maxSessions = context.options.jupyterMaxSessions;
    boost::asio::io_context &io = context.io;
    auto hub = std::make_shared<KernelHub>(
        std::move(config),
        [&io](std::function<void()> completion) { boost::asio::post(io, std::move(completion)); },
        &context.events);
    owner = &context;
    shared = hub;
    context.shutdown.add("jupyter kernels", [kept = hub] { kept->stop(); });
    return hub;
}

std::optional<std::string> workingDirectory(const std::string &workspace, const std::string &cwd,
                                            std::string &error) {
    fs::path path(cwd);
    if (path.is_relative())
        path = fs::path(workspace) / path;
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        error = "cwd is not an existing directory: " + cwd;
        return std::nullopt;
    }
    return path.lexically_normal().string();
}

} // namespace sbx
