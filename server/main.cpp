// sandbox-server: the local sandbox runtime speaking the AIO API subset (see --help).
#include "server/core/log.h"
#include "server/core/options.h"
#include "server/core/serverapp.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    sbx::ParsedOptions parsed = sbx::parseCommandLine(args);
    if (parsed.error) {
        std::fprintf(stderr, "sandbox-server: %s\n", parsed.error->c_str());
        return 2;
    }
    sbx::ServerOptions &options = parsed.options;
    if (options.help) {
        std::fputs(sbx::helpText().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("sandbox-server %s\n", SBX_VERSION);
        return 0;
    }
    sbx::log::setVerbose(options.verbose);
    if (auto error = sbx::resolveDirectories(options)) {
        sbx::log::error(*error);
        return 2;
    }
    try {
        return sbx::ServerApp(std::move(options)).run();
    } catch (const std::exception &e) {
        sbx::log::error(std::string("fatal: ") + e.what());
        return 1;
    }
}
