#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <string>

// Shared by the server load and fault benchmarks: a sandbox-server child on a free loopback
// port, and what /proc says about it.
namespace sbxbench {

struct ProcessFigures {
    long rssKb = -1;
    int descriptors = -1;
    int threads = -1;
    // Direct children of any of its threads (shells, hooks).
    int children = -1;
};

ProcessFigures figuresOf(qint64 pid);
// User plus system CPU time of the process so far, in seconds (-1 when unknown).
double cpuSeconds(qint64 pid);
QString describe(const ProcessFigures &figures);

class BenchServer final {
public:
    BenchServer() = default;
    ~BenchServer();
    BenchServer(const BenchServer &) = delete;
    BenchServer &operator=(const BenchServer &) = delete;

    // Starts binary on 127.0.0.1 in a throw-away workspace, without credentials; maxOpenFiles
    // above 0 sets its RLIMIT_NOFILE. Waits (bounded) for the listening line.
    bool start(const QString &binary, const QStringList &extraArgs = {}, int maxOpenFiles = 0);
    // SIGTERM, bounded wait; the exit code, -1 on a timeout or a crash.
    int stop();
    quint16 port() const { return m_port; }
    qint64 pid() const { return m_process ? m_process->processId() : 0; }
    bool running() const { return m_process && m_process->state() == QProcess::Running; }
    QString error() const { return m_error; }

private:
    std::unique_ptr<QProcess> m_process;
    QTemporaryDir m_workspace;
    quint16 m_port = 0;
    QString m_error;
};

// One blocking keep-alive HTTP/1.1 connection for latency samples from a plain thread.
class BlockingHttp final {
public:
    explicit BlockingHttp(quint16 port);
    ~BlockingHttp();
    BlockingHttp(const BlockingHttp &) = delete;
    BlockingHttp &operator=(const BlockingHttp &) = delete;

    // The status of GET target (0 on a failure); reconnects once if the server closed.
    int get(const std::string &target) { return send("GET", target); }
    int send(const std::string &method, const std::string &target);

private:
    bool connectSocket();
    int exchange(const std::string &method, const std::string &target);

    quint16 m_port;
    int m_fd = -1;
};

// A blocking TCP connection to 127.0.0.1:port (TCP_NODELAY, reads and writes bounded by
// timeoutSeconds); the descriptor, -1 on a failure.
int connectLoopback(quint16 port, int timeoutSeconds);

double percentile(std::vector<double> samples, double p);

} // namespace sbxbench
