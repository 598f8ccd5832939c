#include "bench/server/benchserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QRegularExpression>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <vector>

namespace sbxbench {

namespace {

long statusField(const QByteArray &status, const QByteArray &name) {
    for (const QByteArray &line : status.split('\n')) {
        if (line.startsWith(QByteArray(name + ':')))
            return line.mid(name.size() + 1).trimmed().split(' ').value(0).toLong();
    }
    return -1;
}

} // namespace

ProcessFigures figuresOf(qint64 pid) {
    ProcessFigures figures;
    const QString base = QStringLiteral("/proc/%1").arg(pid);
    QFile status(base + QStringLiteral("/status"));
    if (!status.open(QIODevice::ReadOnly))
        return figures;
    const QByteArray text = status.readAll();
    figures.rssKb = statusField(text, "VmRSS");
    figures.threads = static_cast<int>(statusField(text, "Threads"));
    figures.descriptors =
        static_cast<int>(QDir(base + QStringLiteral("/fd"))
                             .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                             .size());
    int children = 0;
    const QStringList tasks =
        QDir(base + QStringLiteral("/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        QFile file(base + QStringLiteral("/task/") + task + QStringLiteral("/children"));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QByteArray list = file.readAll().simplified();
        if (!list.isEmpty())
            children += static_cast<int>(list.count(' ')) + 1;
    }
    figures.children = children;
    return figures;
}

double cpuSeconds(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    // Fields after the command name (which may hold spaces): state is field 3, utime 14.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return -1;
    const long ticks = ::sysconf(_SC_CLK_TCK);
    return static_cast<double>(fields.at(11).toLongLong() + fields.at(12).toLongLong()) /
           static_cast<double>(ticks > 0 ? ticks : 100);
}

QString describe(const ProcessFigures &figures) {
    return QStringLiteral("RSS %1 MiB, %2 descriptors, %3 threads, %4 children")
        .arg(static_cast<double>(figures.rssKb) / 1024.0, 0, 'f', 1)
        .arg(figures.descriptors)
        .arg(figures.threads)
        .arg(figures.children);
}

BenchServer::~BenchServer() {
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

bool BenchServer::start(const QString &binary, const QStringList &extraArgs, int maxOpenFiles) {
    m_process = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : {QStringLiteral("SANDBOX_API_KEY"), QStringLiteral("JWT_PUBLIC_KEY")})
        env.remove(key);
    // The shells must not run this machine's ~/.bashrc (slow, and not what is measured).
    env.insert(QStringLiteral("HOME"), m_workspace.path());
    m_process->setProcessEnvironment(env);
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->setChildProcessModifier([maxOpenFiles] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (maxOpenFiles > 0) {
            const rlimit limit{static_cast<rlim_t>(maxOpenFiles),
                               static_cast<rlim_t>(maxOpenFiles)};
            ::setrlimit(RLIMIT_NOFILE, &limit);
        }
    });
    QStringList args{QStringLiteral("--host"),      QStringLiteral("127.0.0.1"),
                     QStringLiteral("--port"),      QStringLiteral("0"),
                     QStringLiteral("--workspace"), m_workspace.path()};
    args += extraArgs;
    m_process->start(binary, args);
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("cannot start ") + binary;
        return false;
    }
    static const QRegularExpression listening(
        QStringLiteral("^sandbox-server listening on http://[^:]+:(\\d+)$"));
    QByteArray out;
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && !out.contains('\n')) {
        if (m_process->state() == QProcess::NotRunning)
            break;
        m_process->waitForReadyRead(static_cast<int>(qMax<qint64>(1, deadline.remainingTime())));
        out += m_process->readAllStandardOutput();
    }
    const auto match = listening.match(QString::fromUtf8(out).trimmed());
    if (!match.hasMatch()) {
        m_error = QStringLiteral("no listening line: ") + QString::fromUtf8(out);
        return false;
    }
    m_port = static_cast<quint16>(match.captured(1).toUInt());
    return true;
}

int BenchServer::stop() {
    if (!running())
        return -1;
    ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
    if (!m_process->waitForFinished(30000))
        return -1;
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}

BlockingHttp::BlockingHttp(quint16 port)
    : m_port(port) {}

BlockingHttp::~BlockingHttp() {
    if (m_fd >= 0)
        ::close(m_fd);
}

int connectLoopback(quint16 port, int timeoutSeconds) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const timeval bound{timeoutSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool BlockingHttp::connectSocket() {
    if (m_fd >= 0)
        ::close(m_fd);
    // A hang must not hold the benchmark: 10 s per read or write at most.
    m_fd = connectLoopback(m_port, 10);
    return m_fd >= 0;
}

int BlockingHttp::send(const std::string &method, const std::string &target) {
    if (m_fd < 0 && !connectSocket())
        return 0;
    const int status = exchange(method, target);
    if (status != 0)
        return status;
    return connectSocket() ? exchange(method, target) : 0;
}

int BlockingHttp::exchange(const std::string &method, const std::string &target) {
    const std::string request =
        method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
    if (::send(m_fd, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size()))
        return 0;
    std::string received;
    char chunk[16384];
    std::size_t headerEnd = std::string::npos;
    std::size_t total = 0;
    while (true) {
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return 0;
        received.append(chunk, static_cast<std::size_t>(n));
        if (headerEnd == std::string::npos) {
            headerEnd = received.find("\r\n\r\n");
            if (headerEnd == std::string::npos)
                continue;
            std::string lower = received.substr(0, headerEnd);
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            const std::size_t field = lower.find("\r\ncontent-length:");
            const std::size_t length =
                field == std::string::npos ? 0 : std::stoul(lower.substr(field + 17));
            total = headerEnd + 4 + length;
        }
        if (received.size() >= total)
            break;
    }
    return received.size() > 12 ? std::atoi(received.c_str() + 9) : 0;
}

double percentile(std::vector<double> samples, double p) {
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    const std::size_t index =
        std::min(samples.size() - 1, static_cast<std::size_t>(p / 100.0 * samples.size()));
    return samples[index];
}

} // namespace sbxbench
