#pragma once

#include "client/providers/engine/enginecontainers.h"
#include "client/providers/sandboxprovider.h"

#include <QTimer>

#include <functional>
#include <map>
#include <optional>

namespace sbx {

using namespace Qt::StringLiterals;

class EngineApi;
class EngineLogStream;
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
    ~EngineSandboxes() override;

    QString id() const override { return u"engine"_s; }
    QString displayName() const override { return tr("Containers"); }
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
    // One sentence for the UI about the engine: where it is, or why it cannot be used.
    QString status() const override { return m_status; }
    void setPollInterval(int ms);
    // Lists now (the poll also does, every few seconds).
    void refresh();

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
    };

    Item *find(const QString &id);
    const Item *find(const QString &id) const;
    void onList(const EngineResponse &response);
    void setEngineStatus(bool reachable, const QString &status);
    void clearAll();
    void resolveDetails(const QString &id);
    void announce(Item &item);
    SandboxEntry entryFor(const Item &item) const;
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
    QString m_status;
    std::map<QString, Item> m_items;
};

} // namespace sbx
