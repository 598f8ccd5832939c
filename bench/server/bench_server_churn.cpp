// bench-server-churn: opens and drops 1000 connections against a sandbox-server it starts
// itself on loopback, and prints the server's descriptors, threads and children (and RSS)
// before and after, so that a leak per connection shows as a difference. Two runs: at the
// server's own descriptor limit and at 256 descriptors, where the 1000 connections held at
// once are more than the server can keep. Bounded: it stops by itself.
//
//   bench-server-churn [--server PATH] [--connections N]

#include "bench/server/benchserver.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>

#include <arpa/inet.h>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sbxbench;

namespace {

int connectTo(quint16 port) {
    return connectLoopback(port, 2);
}

void sendText(int fd, const char *text) {
    (void)::send(fd, text, std::strlen(text), MSG_NOSIGNAL);
}

// Drops with a reset instead of a FIN, as a killed client would.
void abortive(int fd) {
    const linger hard{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    ::close(fd);
}

struct Tally {
    int opened = 0;
    int failed = 0;
};

// The kinds of drops a server meets; each kind gets a quarter of count, all held at once
// before they are dropped.
Tally churn(quint16 port, int count) {
    Tally tally;
    std::vector<std::pair<int, int>> held; // fd, kind
    for (int i = 0; i < count; ++i) {
        const int fd = connectTo(port);
        if (fd < 0) {
            ++tally.failed;
            continue;
        }
        ++tally.opened;
        const int kind = i % 4;
        if (kind == 1)
            sendText(fd, "GET /v1/sandbox HTTP/1.1\r\nHost: x\r\nX-Half: ");
        else if (kind == 2)
            sendText(fd, "POST /tickets HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a");
        else if (kind == 3)
            sendText(fd, "GET /v1/sandbox HTTP/1.1\r\nHost: x\r\n\r\n");
        held.emplace_back(fd, kind);
    }
    for (auto [fd, kind] : held) {
        if (kind == 0 || kind == 2)
            ::close(fd);
        else
            abortive(fd);
    }
    return tally;
}

// Waits (bounded) for the descriptors to come back to the baseline.
qint64 settle(qint64 pid, int baseline, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    QDeadlineTimer deadline(timeoutMs);
    while (figuresOf(pid).descriptors > baseline && !deadline.hasExpired())
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // polling /proc, bounded
    return figuresOf(pid).descriptors > baseline ? -1 : timer.elapsed();
}

bool run(const QString &binary, int connections, int maxOpenFiles) {
    BenchServer server;
    if (!server.start(binary, {}, maxOpenFiles)) {
        std::fprintf(stderr, "bench-server-churn: %s\n", qPrintable(server.error()));
        return false;
    }
    BlockingHttp warm(server.port());
    warm.get("/v1/sandbox"); // the lazily created pieces exist before the baseline
    const ProcessFigures before = figuresOf(server.pid());
    std::printf("sandbox-server on 127.0.0.1:%u, descriptor limit %s\n", server.port(),
                maxOpenFiles > 0 ? qPrintable(QString::number(maxOpenFiles)) : "inherited");
    std::printf("  before:  %s\n", qPrintable(describe(before)));
    QElapsedTimer timer;
    timer.start();
    const Tally tally = churn(server.port(), connections);
    std::printf("  opened %d connections (%d failed to connect), held at once, dropped (FIN "
                "and RST, idle, half a header, half a body, unread answer) in %lld ms\n",
                tally.opened, tally.failed, static_cast<long long>(timer.elapsed()));
    // The keep-alive connection of the warm-up is one of the baseline's descriptors.
    const qint64 settled = settle(server.pid(), before.descriptors, 15000);
    const ProcessFigures after = figuresOf(server.pid());
    std::printf("  after:   %s (%s)\n", qPrintable(describe(after)),
                settled < 0
                    ? "descriptors NOT back to the baseline within 15 s"
                    : qPrintable(QStringLiteral("back to the baseline after %1 ms").arg(settled)));
    QElapsedTimer answer;
    answer.start();
    BlockingHttp honest(server.port());
    const int status = honest.get("/v1/sandbox");
    std::printf("  then GET /v1/sandbox: %d in %.2f ms; server stop: exit code %d\n", status,
                static_cast<double>(answer.nsecsElapsed()) / 1e6, server.stop());
    return settled >= 0 && status == 200;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QString binary = QStringLiteral(SBX_SERVER_BINARY);
    int connections = 1000;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args.at(i) == QStringLiteral("--server"))
            binary = args.at(i + 1);
        else if (args.at(i) == QStringLiteral("--connections"))
            connections = qBound(1, args.at(i + 1).toInt(), 20000);
    }
    // Our own side holds them all at once: the soft limit up to the hard one.
    rlimit limit{};
    ::getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
    const bool inherited = run(binary, connections, 0);
    const bool lowered = run(binary, connections, 256);
    std::fflush(stdout);
    return inherited && lowered ? 0 : 1;
}
