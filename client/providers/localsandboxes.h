#pragma once

#include "client/providers/sandboxprovider.h"

#include <QByteArray>
#include <QProcess>

#include <memory>
#include <vector>

class QSettings;

// Local sandboxes: sandbox-server children of the console, each with its own workspace and a
// fresh API key per start. The list survives restarts; the processes die with the console.
class LocalSandboxes final : public SandboxProvider {
    Q_OBJECT
public:
    struct Options {
        QString serverBinary; // path of sandbox-server
        QString dataDir;      // workspaces the console creates live under dataDir/sandboxes/
    };

    static constexpr auto defaultId = "local:default";

    LocalSandboxes(QSettings *settings, Options options, QObject *parent = nullptr);
    ~LocalSandboxes() override;

    QString id() const override { return QStringLiteral("local"); }
    QString displayName() const override { return QStringLiteral("Local"); }
    QList<SandboxEntry> sandboxes() const override;
    LifecycleActions actions(const SandboxEntry &entry) const override;
    void perform(const QString &id, LifecycleAction action) override;

    // Creates and starts a sandbox; an empty workspace means one made under the data directory.
    QString create(const QString &name, const QString &workspace = {});
    // Starts the default "Local" sandbox, creating it on first use. Returns its id.
    QString ensureDefault();
    void start(const QString &id);
    void stop(const QString &id);
    // Stops the sandbox and forgets it; removes its workspace only if the console created it.
    void remove(const QString &id);
    // Stops every child and waits for them (bounded); used when the console quits.
    void stopAll(int timeoutMs = 5000);

    bool hasRunning() const;
    qint64 processId(const QString &id) const;
    QString workspace(const QString &id) const;
    // The recent stderr of the sandbox's server (bounded).
    QString log(const QString &id) const;

Q_SIGNALS:
    void logAppended(const QString &id, const QString &text);

private:
    struct Child;
    Child *find(const QString &id) const;
    void persist(const Child &child);
    void onStdout(Child *child);
    void onStderr(Child *child);
    void onFinished(Child *child, int exitCode, QProcess::ExitStatus status);
    void setState(Child *child, SandboxState state, const QString &detail = {});

    QSettings *m_settings;
    Options m_options;
    std::vector<std::unique_ptr<Child>> m_children;
};

// Where the console finds sandbox-server: $SBX_SERVER_BINARY, else beside the console binary.
QString defaultServerBinary();
