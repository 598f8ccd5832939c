// bench-delay-proxy PORT ONE_WAY_MS: the tests' fault proxy as a delay line in front of a server
// on loopback PORT, for benchmarks of a far sandbox (curl and the console through the same
// path). Prints "listening on http://127.0.0.1:N", then runs until killed.
#include "tests/support/faultproxy.h"

#include <QCoreApplication>

#include <csignal>
#include <cstdio>

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench-delay-proxy PORT ONE_WAY_MS\n");
        return 2;
    }
    sbxtest::FaultProxy proxy(quint16(QByteArray(argv[1]).toUInt()));
    proxy.setLatency(QByteArray(argv[2]).toInt());
    if (!proxy.listen())
        return 1;
    std::signal(SIGTERM, [](int) { QCoreApplication::quit(); });
    std::printf("listening on %s\n", qPrintable(proxy.url().toString()));
    std::fflush(stdout);
    return app.exec();
}
