#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

namespace sbxtest {

// Starts a real sandbox-server child on a free loopback port for one test.
class TestServer final {
public:
    struct Options {
        // Variables added to the child's environment (SANDBOX_API_KEY, JWT_PUBLIC_KEY, ...).
        QProcessEnvironment env = QProcessEnvironment();
        QStringList extraArgs;
        // Empty: a fresh temporary workspace owned by this object.
        QString workspace;
        // Empty: sandbox-server; else a test build of it (sandbox-server-filestest, ...).
        QString binary;
        // Above 0: the child's RLIMIT_NOFILE (soft and hard), set before it execs.
        int maxOpenFiles = 0;

        // Adds a variable to the child's environment; chains.
        Options &set(const QString &variable, const QString &value) {
            env.insert(variable, value);
            return *this;
        }
    };

    // The options of a server that requires this API key, the most common secured setup.
    static Options withApiKey(const QString &key);
    // The options of a server started with these extra command-line arguments.
    static Options withArgs(const QStringList &args);

    TestServer() = default;
    ~TestServer();
    TestServer(const TestServer &) = delete;
    TestServer &operator=(const TestServer &) = delete;

    // Starts the server and waits (bounded) for its listening line. False with error() set.
    bool start(const Options &options);
    bool start() { return start(Options{}); }
    // SIGTERM without waiting: the caller's event loop keeps running (to answer a close frame).
    void terminate();
    // SIGTERM, then waits for exit (bounded); returns the exit code, -1 on timeout or crash.
    int stop();
    // SIGKILL, as a crash would.
    void kill();

    QUrl url() const { return m_url; }
    // The server's URL with this path and query; ws:// when webSocket.
    QUrl url(const QString &path, const QString &query = {}, bool webSocket = false) const;
    quint16 port() const { return static_cast<quint16>(m_url.port()); }
    QString workspace() const { return m_workspace; }
    QString error() const { return m_error; }
    QProcess &process() { return *m_process; }
    // The server's resident memory (VmRSS) now, -1 when it is not running.
    qint64 residentKiB() const;
    // A bound on that memory: kib, or under ASan (its allocator keeps freed chunks and shadow
    // memory, about 170 MB more) 300 MiB, which still catches a server that buffers a body.
    static qint64 memoryBoundKiB(qint64 kib);
    // Everything the server wrote to stdout / stderr so far.
    QByteArray stdoutText();
    QByteArray stderrText();

private:
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QTemporaryDir> m_tempDir;
    std::unique_ptr<QTemporaryDir> m_homeDir;
    QUrl m_url;
    QString m_workspace;
    QString m_error;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

} // namespace sbxtest
