#pragma once

#include "client/providers/engine/enginecontainers.h"
#include "client/providers/engine/enginecontexts.h"
#include "client/providers/sandboxprovider.h"

#include <QTimer>

#include <functional>
#include <map>
#include <optional>

namespace sbx {

using namespace Qt::StringLiterals;

class EngineApi;
class EngineLogStream;
class SshLink;
class SecretStore;
struct EngineResponse;

// Containers of a Docker-compatible engine (Docker, podman) that are AIO sandboxes: listed by
// polling the Engine API, created with a generated key, steered through start, pause, stop and
// delete. Every engine call runs off the GUI thread; an engine that is absent lists nothing.
class EngineSandboxes final : public SandboxProvider {
    Q_OBJECT
public:
    // An empty socketPath means defaultEngineSocket(). secrets outlives the provider.
    explicit EngineSandboxes(SecretStore *secrets, const QString &socketPath = {},
                             QObject *parent = nullptr);
    // The engine at endpoint (a Unix socket or tcp://); its name tells its sandboxes apart from
    // another engine's.
    EngineSandboxes(SecretStore *secrets, const EngineEndpoint &endpoint,
                    QObject *parent = nullptr);
    ~EngineSandboxes() override;

    // "engine" for the default engine, "engine@<name>" for another.
    QString id() const override;
    QString displayName() const override;
    const EngineEndpoint &endpoint() const;
    // How long the last listing took, the engine's round trip as the console sees it; -1 before
    // the first answer.
    int latencyMs() const { return m_latencyMs; }
    QList<SandboxEntry> sandboxes() const override;
    LifecycleActions actions(const SandboxEntry &entry) const override;
    QString deleteEffect(const SandboxEntry &entry) const override;
    bool hasLog(const SandboxEntry &) const override { return true; }
    // The last 500 lines, then followed.
    LogSource *openLog(const QString &id, QObject *parent) override;
    CreateForm createForm() const override;
    // A running container's CPU, memory and processes from GET /containers/{id}/stats
    // (enginestats.cpp); CPU from the change since the last reading.
    bool hasResourceFigures(const SandboxEntry &entry) const override;
    void readResourceFigures(const QString &id, QObject *context,
                             ResourceFiguresDone done) override;
    QString createProblem(const SandboxCreateOptions &options) const override;

    QString socketPath() const;
    bool isEngineReachable() const { return m_reachable; }
    // The engine's state in a word, for the list of engines.
    enum class EngineState {
        Looking,
        Connecting,
        Reachable,
        HostKeyUnknown,
        AuthFailed,
        Unreachable
    };
    EngineState engineState() const;
    // One sentence for the UI about the engine: where it is, or why it cannot be used.
    QString status() const override { return m_status; }
    // The SSH connection of an ssh:// engine (its host key question, its forwards); else null.
    SshLink *sshLink() const { return m_link; }
    void setPollInterval(int ms);
    // Lists now (the poll also does, every few seconds).
    void refresh();
    // Tries again now, an SSH link too after a refused key or a host key trusted elsewhere.
    void reconnect();

    // Creates and starts a container; created() names it, then sandboxAdded shows it.
    QString create(const SandboxCreateOptions &options) override;
    void start(const QString &id) override;
    void pause(const QString &id) override;
    void resume(const QString &id) override;
    // Stops with a grace period long enough for the sandbox's shutdown hooks.
    void stop(const QString &id) override;
    // Stops if needed, then removes the container, its anonymous volumes and its stored key.
    void remove(const QString &id) override;
    // Follows a container's logs (not started yet); nullptr for an unknown id.
    EngineLogStream *openLogs(const QString &id, int tail = 200, QObject *parent = nullptr);
    QString containerId(const QString &id) const;

private:
    struct Item {
        EngineContainer container;
        SandboxEntry entry;
        bool tty = false;
        bool announced = false;
        bool missingJwtKey = false;
        // While an action runs, the state it shows (Starting, Stopping) wins over the list's.
        int busy = 0;
        std::optional<SandboxState> busyState; // none: the list's state
        QString busyDetail;
        std::optional<ContainerCpuSample> lastCpu; // of the last stats reading
        // Over SSH: the local port forwarded to the published one (0: none yet), the published
        // port it leads to, and why it could not be made.
        int forwardPort = 0;
        int forwardedHostPort = 0;
        bool forwarding = false;
        QString forwardProblem;
    };

    Item *find(const QString &id);
    const Item *find(const QString &id) const;
    void onList(const EngineResponse &response);
    void setEngineStatus(bool reachable, const QString &status);
    void clearAll();
    void resolveDetails(const QString &id);
    void announce(Item &item);
    SandboxEntry entryFor(const Item &item) const;
    // The engine host's address when it is another machine reached directly, else empty.
    QString remoteHost() const;
    // Over SSH (enginesshforwards.cpp): the link's state shown as the engine's, refresh() waits
    // for it; a running sandbox gets a local port forward, dropped when it stops or goes.
    bool linkReady();
    void onLinkState();
    void syncForward(Item &item);
    void dropForward(Item &item);
    void publishIfChanged(Item &item);
    // POST /containers/{id}/<verb>, shown as busyState meanwhile; then() runs on success.
    void createContainer(const SandboxCreateOptions &options, const Credentials &credentials,
                         const QString &authValue, bool pulled = false);
    void pullThenCreate(const SandboxCreateOptions &options, const Credentials &credentials,
                        const QString &authValue);
    void containerAction(const QString &id, const QString &verb,
                         std::optional<SandboxState> busyState, const QString &failureText,
                         std::function<void()> then = {}, int timeoutMs = 15000);
    // The stop grace from the sandbox's shutdown hooks (GET /v1/sandbox/hooks), or the default.
    void readStopGrace(const QString &id, std::function<void(int grace, const QString &why)> done);
    void stopThen(const QString &id, std::function<void()> then);
    void deleteContainer(const QString &id);

    SecretStore *m_secrets;
    EngineApi *m_api;
    QTimer m_poll;
    bool m_listing = false;
    bool m_listAgain = false;
    bool m_reachable = false;
    bool m_listed = false;  // an answer (or a failure) came back from the engine once
    bool m_refused = false; // the last answer refused the console's credentials (HTTP or TLS)
    QString m_status;
    int m_latencyMs = -1;
    // An engine on another machine: its host's memory (GET /info), which a container without a
    // limit reports as its limit; -1 until read, 0 when asked.
    qint64 m_engineMemory = -1;
    SshLink *m_link = nullptr; // an ssh:// engine's connection; else none
    std::map<QString, Item> m_items;
};

} // namespace sbx
