// bench-server-terminals: 100 concurrent WebSocket terminals (/v1/shell/ws) running commands
// against a sandbox-server it starts itself on loopback, while a plain thread measures
// GET /v1/sandbox. Prints the latency's p50/p99 on the idle server (the baseline) and during the
// load, and the server's RSS, threads, descriptors and children before, at the peak of and
// after the load. Bounded: it stops by itself.
//
//   bench-server-terminals [--server PATH] [--terminals N] [--rounds R] [--lines L]

#include "bench/server/benchserver.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace sbxbench;

namespace {

struct Settings {
    QString server = QStringLiteral(SBX_SERVER_BINARY);
    int terminals = 100;
    int rounds = 10;
    int lines = 2000;
};

// One terminal: waits for ready, then types `rounds` commands one after the other; each
// prints `lines` lines and an end marker that only the shell's output can contain.
class Terminal final : public QObject {
public:
    Terminal(int index, const Settings &settings)
        : m_index(index)
        , m_settings(settings) {
        connect(&m_socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
            const QJsonObject frame = QJsonDocument::fromJson(text.toUtf8()).object();
            const QString type = frame.value(QStringLiteral("type")).toString();
            if (type == QStringLiteral("ready")) {
                m_ready = true;
                next();
            } else if (type == QStringLiteral("output")) {
                m_bytes += frame.value(QStringLiteral("data")).toString().size();
                m_output += frame.value(QStringLiteral("data")).toString();
                if (m_output.contains(m_marker)) {
                    m_output.clear();
                    next();
                } else if (m_output.size() > 4096) {
                    m_output = m_output.right(256);
                }
            }
        });
        connect(&m_socket, &QWebSocket::disconnected, this, [this] { m_closed = true; });
    }

    void open(quint16 port) {
        m_socket.open(
            QNetworkRequest(QUrl(QStringLiteral("ws://127.0.0.1:%1/v1/shell/ws").arg(port))));
    }
    void close() { m_socket.close(); }
    bool ready() const { return m_ready; }
    bool done() const { return m_round > m_settings.rounds || m_closed; }
    bool closed() const { return m_closed; }
    qint64 bytes() const { return m_bytes; }

private:
    void next() {
        ++m_round;
        if (m_round > m_settings.rounds)
            return;
        // The marker is computed by the shell, so the echoed command line never matches it.
        const int tag = m_index * 1000 + m_round;
        m_marker = QStringLiteral("end-%1.").arg(tag + 7);
        const QString command = QStringLiteral("seq 1 %1 | sed 's/^/terminal %2 line /'; "
                                               "echo end-$((%3 + 7)).\r")
                                    .arg(m_settings.lines)
                                    .arg(m_index)
                                    .arg(tag);
        m_socket.sendTextMessage(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("input")},
                                      {QStringLiteral("data"), command}})
                .toJson(QJsonDocument::Compact)));
    }

    QWebSocket m_socket;
    const int m_index;
    const Settings &m_settings;
    QString m_output;
    QString m_marker;
    int m_round = 0;
    qint64 m_bytes = 0;
    bool m_ready = false;
    bool m_closed = false;
};

// Samples GET /v1/sandbox from its own thread until stopped.
class LatencyProbe final {
public:
    explicit LatencyProbe(quint16 port)
        : m_port(port) {}
    ~LatencyProbe() { stop(); }
    LatencyProbe(const LatencyProbe &) = delete;
    LatencyProbe &operator=(const LatencyProbe &) = delete;

    void start() {
        m_running = true;
        m_thread = std::thread([this] {
            BlockingHttp http(m_port);
            while (m_running) {
                QElapsedTimer timer;
                timer.start();
                const int status = http.get("/v1/sandbox");
                const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
                std::lock_guard lock(m_mutex);
                if (status == 200)
                    m_samples.push_back(ms);
                else
                    ++m_failures;
                // A client polling now and then, not a flood: 50 requests/s at most.
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
    }
    void stop() {
        m_running = false;
        if (m_thread.joinable())
            m_thread.join();
    }
    // The samples so far; clears them.
    std::vector<double> take(int *failures) {
        std::lock_guard lock(m_mutex);
        *failures = m_failures;
        m_failures = 0;
        return std::exchange(m_samples, {});
    }

private:
    quint16 m_port;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    std::mutex m_mutex;
    std::vector<double> m_samples;
    int m_failures = 0;
};

bool waitUntil(const std::function<bool()> &condition, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return true;
}

void printLatency(const char *phase, const std::vector<double> &samples, int failures) {
    std::printf("  GET /v1/sandbox %-26s %5zu samples: p50 %.2f ms, p99 %.2f ms, max %.2f ms%s\n",
                phase, samples.size(), percentile(samples, 50), percentile(samples, 99),
                percentile(samples, 100), failures ? " (some requests failed)" : "");
    if (failures)
        std::printf("    %d request(s) failed\n", failures);
}

Settings parseArgs(const QStringList &args) {
    Settings settings;
    for (int i = 1; i < args.size(); ++i) {
        const QString arg = args.at(i);
        const QString value = i + 1 < args.size() ? args.at(i + 1) : QString();
        if (arg == QStringLiteral("--server"))
            settings.server = value;
        else if (arg == QStringLiteral("--terminals"))
            settings.terminals = qBound(1, value.toInt(), 100);
        else if (arg == QStringLiteral("--rounds"))
            settings.rounds = qBound(1, value.toInt(), 1000);
        else if (arg == QStringLiteral("--lines"))
            settings.lines = qBound(1, value.toInt(), 100000);
        else {
            std::fprintf(stderr, "unknown argument %s\n", qPrintable(arg));
            std::exit(2);
        }
        ++i;
    }
    return settings;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const Settings settings = parseArgs(app.arguments());
    BenchServer server;
    if (!server.start(settings.server)) {
        std::fprintf(stderr, "bench-server-terminals: %s\n", qPrintable(server.error()));
        return 1;
    }
    std::printf("sandbox-server on 127.0.0.1:%u; %d terminals, %d commands each (%d lines per "
                "command)\n",
                server.port(), settings.terminals, settings.rounds, settings.lines);
    std::printf("  before:  %s\n", qPrintable(describe(figuresOf(server.pid()))));

    LatencyProbe probe(server.port());
    probe.start();
    QElapsedTimer idle;
    idle.start();
    waitUntil([&] { return idle.elapsed() >= 2000; }, 5000);
    int failures = 0;
    const std::vector<double> baseline = probe.take(&failures);
    printLatency("idle server (baseline):", baseline, failures);

    std::vector<std::unique_ptr<Terminal>> terminals;
    ProcessFigures peak;
    auto notePeak = [&] {
        const ProcessFigures now = figuresOf(server.pid());
        if (now.rssKb > peak.rssKb)
            peak = now;
    };
    QTimer sampler;
    QObject::connect(&sampler, &QTimer::timeout, &app, notePeak);
    sampler.start(200);
    const double cpuBefore = cpuSeconds(server.pid());
    QElapsedTimer load;
    load.start();
    for (int i = 0; i < settings.terminals; ++i) {
        terminals.push_back(std::make_unique<Terminal>(i, settings));
        terminals.back()->open(server.port());
    }
    const bool allReady = waitUntil(
        [&] {
            return std::all_of(terminals.begin(), terminals.end(),
                               [](const auto &t) { return t->ready() || t->closed(); });
        },
        60000);
    const bool allDone = waitUntil(
        [&] {
            return std::all_of(terminals.begin(), terminals.end(),
                               [](const auto &t) { return t->done(); });
        },
        180000);
    const double seconds = static_cast<double>(load.elapsed()) / 1000.0;
    const double cpu = cpuSeconds(server.pid()) - cpuBefore;
    notePeak();
    const std::vector<double> during = probe.take(&failures);
    qint64 bytes = 0;
    int ready = 0;
    for (const auto &terminal : terminals) {
        bytes += terminal->bytes();
        ready += terminal->ready() ? 1 : 0;
    }
    std::printf("  load: %d/%d terminals ready, %s in %.1f s, %.1f MiB of output received\n", ready,
                settings.terminals,
                allDone ? "all commands done" : (allReady ? "NOT all done (bound)" : "NOT ready"),
                seconds, static_cast<double>(bytes) / 1048576.0);
    printLatency("during the load:", during, failures);
    std::printf("  server CPU during the load: %.1f s in %.1f s (%.0f%% of one core; the shells "
                "and this client share the same cores)\n",
                cpu, seconds, 100.0 * cpu / seconds);
    std::printf("  peak:    %s\n", qPrintable(describe(peak)));

    for (const auto &terminal : terminals)
        terminal->close();
    waitUntil(
        [&] {
            return std::all_of(terminals.begin(), terminals.end(),
                               [](const auto &t) { return t->closed(); });
        },
        10000);
    terminals.clear();
    probe.stop();
    std::printf("  after the sockets closed (sessions outlive them): %s\n",
                qPrintable(describe(figuresOf(server.pid()))));
    // End the sessions as a client would, then wait (bounded) for the shells to be reaped.
    const int deleted = BlockingHttp(server.port()).send("DELETE", "/v1/shell/sessions");
    waitUntil([&] { return figuresOf(server.pid()).children == 0; }, 15000);
    std::printf("  after DELETE /v1/shell/sessions (%d): %s\n", deleted,
                qPrintable(describe(figuresOf(server.pid()))));
    std::printf("  server stop: exit code %d\n", server.stop());
    std::fflush(stdout);
    return allDone ? 0 : 1;
}
