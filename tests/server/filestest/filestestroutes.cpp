// Route group "filestest", built only into the test binary sandbox-server-filestest (the real
// server plus this file): it uses the download route's test seam to change a file exactly
// between opening it and sending the headers, which no outside client can time. It also claims
// `file-sudo`, so that console tests can see the "retry with sudo" offer and its request, and
// refuses to list or download anything under a folder named `root-only` (EACCES), as AIO refuses
// its user root's files: the tests run as root, for whom no file is unreadable, and their stand-in
// `sudo` (root already) then reaches what the file routes refused.
#include "server/core/routegroup.h"
#include "server/files/downloadroute.h"
#include "server/files/fileops.h"

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace sbx {

namespace {

bool underRootOnly(const std::string &path) {
    return path.ends_with("/root-only") || path.find("/root-only/") != std::string::npos;
}

void install(Router &, ServerContext &) {
    setFileAccessProbe([](const std::string &path) { return underRootOnly(path) ? EACCES : 0; });
    setDownloadBeforeHeadersProbe([](const std::string &path) {
        if (!path.ends_with(".change-before-headers"))
            return;
        const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0)
            return;
        [[maybe_unused]] const ssize_t n = ::write(fd, "+", 1);
        ::close(fd);
    });
}

const RouteGroupRegistration registration(
    {.name = "filestest", .order = 900, .extensions = {"file-sudo"}, .install = install});

} // namespace

} // namespace sbx
