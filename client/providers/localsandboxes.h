#pragma once

#include "client/providers/sandboxprovider.h"

#include <QByteArray>
#include <QProcess>

#include <memory>
#include <vector>

class QSettings;

namespace sbx {

using namespace Qt::StringLiterals;

class SecretStore;
class MemorySecretStore;

// Local sandboxes: sandbox-server children of the console, each with its own workspace and
// either a fresh API key per start or a console-held RSA key (JWT_PUBLIC_KEY). The list
// survives restarts; the processes die with the console.
class LocalSandboxes final : public SandboxProvider {
    Q_OBJECT
public:
    struct Options {
        QString serverBinary; // path of sandbox-server
        QString dataDir;      // workspaces the console creates live under dataDir/sandboxes/
        // Where JWT private keys live; null: memory only, for this session.
        SecretStore *secrets = nullptr;
        // How long stop() lets shutdown hooks run before SIGKILL.
        int stopTimeoutMs = 60000;
    };

    static constexpr auto kDefaultId = "local:default";

    LocalSandboxes(QSettings *settings, Options options, QObject *parent = nullptr);
    ~LocalSandboxes() override;

    QString id() const override { return u"local"_s; }
    QString displayName() const override { return tr("Local"); }
    QList<SandboxEntry> sandboxes() const override;
    LifecycleActions actions(const SandboxEntry &entry) const override;
    QString deleteEffect(const SandboxEntry &entry) const override;
    bool stopsWithConsole() const override { return true; }
    bool hasLog(const SandboxEntry &) const override { return true; }
    LogSource *openLog(const QString &id, QObject *parent) override;
    CreateForm createForm() const override;
    QString createProblem(const SandboxCreateOptions &options) const override;

    // Creates and starts a sandbox (an empty workspace: a new folder under
    // dataDir/sandboxes/<id>). Returns its id.
    QString create(const SandboxCreateOptions &options) override;
    QString create(const QString &name, const QString &workspace = {});
    // Starts the default "Local" sandbox, creating it on first use. Returns its id. With
    // startNow false it is only shown as starting: the caller starts it (after the window shows).
    QString ensureDefault(bool startNow = true);
    void start(const QString &id) override;
    // SIGSTOP / SIGCONT to the server and every descendant (its shells included).
    void pause(const QString &id) override;
    void resume(const QString &id) override;
    // SIGTERM so shutdown hooks run; Stopping until the process exits, SIGKILL after the bound.
    void stop(const QString &id) override;
    // Stops the sandbox, then forgets it and removes its workspace only if the console created
    // it; sandboxRemoved follows once the process has exited.
    void remove(const QString &id) override;
    // Stops every child and waits for them (bounded); used when the console quits.
    void stopAll(int timeoutMs = 5000);

    bool hasRunning() const;
    qint64 processId(const QString &id) const;
    QString workspace(const QString &id) const;
    // True when the console made the workspace (delete removes it), false for a picked folder.
    bool createdWorkspace(const QString &id) const;
    // The file the sandbox's server writes its stderr to, startup hook output included; kept
    // across restarts (a new one past 64 MiB), removed with the sandbox.
    QString logPath(const QString &id) const;
    // The server's own state (--state-dir): beside the workspace, never inside it.
    QString stateDir(const QString &id) const;
    // That file's text, read whole (for tests and diagnostics).
    QString log(const QString &id) const;

private:
    struct Child;
    Child *find(const QString &id) const;
    Child *add(std::unique_ptr<Child> child);
    void persist(const Child &child);
    void generateKey(const QString &id);
    void keyReady(const QString &id, const QByteArray &privatePem);
    void launch(Child *child);
    // Opens (rotating when large) the file the server's stderr goes to.
    void openLogFile(Child *child);
    void fail(Child *child, const QString &why);
    void onStdout(Child *child);
    void onStderr(Child *child);
    void onFinished(Child *child, int exitCode, QProcess::ExitStatus status);
    void setState(Child *child, SandboxState state, const QString &detail = {});
    bool isRunning(const Child *child) const;
    void continueProcesses(Child *child);
    void eraseFiles(const Child &child);
    void forget(const QString &id);

    QSettings *m_settings;
    Options m_options;
    std::unique_ptr<MemorySecretStore> m_ownSecrets;
    SecretStore *m_secrets;
    std::vector<std::unique_ptr<Child>> m_children;
};

// Where the console finds sandbox-server: $SBX_SERVER_BINARY, else beside the console binary.
QString defaultServerBinary();

} // namespace sbx
