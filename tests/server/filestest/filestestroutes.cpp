// Route group "filestest", built only into the test binary sandbox-server-filestest (the real
// server plus this file): it uses the download route's test seam to change a file exactly
// between opening it and sending the headers, which no outside client can time. It also claims
// `file-sudo`, so that console tests can see the "retry with sudo" offer and its request.
#include "server/core/routegroup.h"
#include "server/files/downloadroute.h"

#include <fcntl.h>
#include <unistd.h>

namespace sbx {

namespace {

void install(Router &, ServerContext &) {
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
