#pragma once

#include "client/transport/credentials.h"
#include "client/transport/endpoint.h"
#include "client/transport/status.h"

#include <QDateTime>
#include <QFlags>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace sbx {

// The one set of sandbox states, used by every provider and view.
enum class SandboxState { Starting, Online, AuthFailed, Unreachable, Paused, Stopping, Stopped };
QString sandboxStateName(SandboxState state);

// Lifecycle actions a provider may support for a sandbox; menus enable only these.
enum class LifecycleAction : unsigned {
    None = 0,
    Create = 1u << 0,
    Start = 1u << 1,
    Pause = 1u << 2,
    Resume = 1u << 3,
    Stop = 1u << 4,
    Delete = 1u << 5,
    Logs = 1u << 6,
    Edit = 1u << 7,
};
Q_DECLARE_FLAGS(LifecycleActions, LifecycleAction)
Q_DECLARE_OPERATORS_FOR_FLAGS(LifecycleActions)

// One sandbox as its provider knows it.
struct SandboxEntry {
    QString id; // unique across providers: "<provider>:<key>"
    QString name;
    Endpoint endpoint; // invalid while a local sandbox is starting
    Credentials credentials;
    // What the provider knows without asking the sandbox. Online means "running: ask it".
    SandboxState providerState = SandboxState::Online;
    QString detail; // why it is in that state, e.g. "exited with code 1"
};

// What a new sandbox is made of; a provider reads the fields its CreateForm asks for.
struct SandboxCreateOptions {
    enum class Auth { ApiKey, Jwt };

    QString name;
    QString image;     // asked when CreateForm::asksImage
    QString workspace; // asked when CreateForm::asksWorkspace; empty: a new folder (deleted too)
    Auth auth = Auth::ApiKey;
    QString initHook;        // RUN_HOOK_INIT
    QString preServicesHook; // RUN_HOOK_PRE_SERVICES
    QString postReadyHook;   // RUN_HOOK_POST_READY
    // Asked when CreateForm::asksPublishAddress: the engine host's address the sandbox's port is
    // published on; empty: its loopback.
    QString publishAddress;
};

// How a provider appears in "New sandbox"; an empty label means it cannot create sandboxes.
struct CreateForm {
    QString label;       // e.g. "Local: sandbox-server on this machine", with a mnemonic
    QString unavailable; // why it cannot create right now (shown, the choice disabled)
    bool asksImage = false;
    bool asksWorkspace = false;
    QString defaultImage;
    // The generated API key lives on in the sandbox: show it to the user once.
    bool showsKeyOnce = false;
    // The engine is on another machine reached directly: where to publish the sandbox's port.
    bool asksPublishAddress = false;
    QString defaultPublishAddress;
};

// A sandbox's CPU and memory as its provider sees them from outside (an engine's container
// stats): what the console shows for a sandbox whose server has no observe endpoints.
struct ResourceFigures {
    QDateTime at;
    std::optional<double> cpuPct; // % of one core; none on a first reading
    qint64 memBytes = 0;
    std::optional<qint64> memLimitBytes; // none: no limit known
    std::optional<qint64> processCount;
    QString source; // for a person, e.g. "the engine's container stats"
};
using ResourceFiguresDone = std::function<void(const ResourceFigures &, const Status &)>;

// A sandbox's log as it grows. Either a local file the reader opens in place and follows
// (localFile() is not empty), or bytes: what it holds when started, then each new piece, and
// restarted() when the source starts again from nothing. ended says why it stopped following;
// the provider's openLog() may be asked again for a fresh one.
class LogSource : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void start() = 0;
    // A file on this machine holding the whole log, appended to as it grows; empty for a stream.
    virtual QString localFile() const { return {}; }

Q_SIGNALS:
    void bytes(const QByteArray &bytes);
    void restarted(const QString &why);
    void ended(const QString &why);
};

// A source of sandboxes: saved endpoints, local sandbox-server children, engine containers.
// Each answers for itself what its sandboxes can do and mean; nothing outside client/providers
// parses a sandbox id or names a concrete provider.
class SandboxProvider : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual QString id() const = 0;
    virtual QString displayName() const = 0;
    virtual QList<SandboxEntry> sandboxes() const = 0;
    virtual LifecycleActions actions(const SandboxEntry &entry) const = 0;

    // What deleting this sandbox does, for the confirmation ("forgotten here; ...").
    virtual QString deleteEffect(const SandboxEntry &entry) const;
    // True when its sandboxes end with the console (quitting asks about their terminals).
    virtual bool stopsWithConsole() const { return false; }
    // True while the entry's secret is still being read: a probe now would be a false failure.
    virtual bool credentialsPending(const SandboxEntry &entry) const;
    // Whether the sandbox has a log here, and one follower of it (not started), or null.
    virtual bool hasLog(const SandboxEntry &entry) const;
    virtual LogSource *openLog(const QString &id, QObject *parent);

    // Whether readResourceFigures() can answer for the sandbox.
    virtual bool hasResourceFigures(const SandboxEntry &) const { return false; }
    // Reads the figures once; done runs on context's thread, not at all once context is gone.
    virtual void readResourceFigures(const QString &id, QObject *context, ResourceFiguresDone done);

    // The "New sandbox" choice this provider offers, asked each time the dialog opens.
    virtual CreateForm createForm() const { return {}; }
    // Why these options cannot be used, empty when they can.
    virtual QString createProblem(const SandboxCreateOptions &options) const;
    // Creates and starts a sandbox; returns its id when known now, else created() names it.
    virtual QString create(const SandboxCreateOptions &options);
    // One sentence about the provider itself when it matters (an engine that is not there).
    virtual QString status() const { return {}; }
    // Runs a lifecycle action through the calls below; progress and results arrive as
    // sandboxChanged/Removed.
    void perform(const QString &id, LifecycleAction action);

    // What a provider does not override it cannot do: actionFailed says so.
    virtual void start(const QString &id);
    virtual void pause(const QString &id);
    virtual void resume(const QString &id);
    virtual void stop(const QString &id);
    // Deletes the sandbox, or forgets it where the console does not own it.
    virtual void remove(const QString &id);

Q_SIGNALS:
    void sandboxAdded(const SandboxEntry &entry);
    void sandboxChanged(const SandboxEntry &entry);
    void sandboxRemoved(const QString &id);
    // A create() finished naming its sandbox (sandboxAdded may come before or after).
    void created(const QString &id);
    void statusChanged(const QString &status);
    // A note about an action a person may want to read, e.g. a stop grace and why.
    void actionNote(const QString &id, const QString &message);
    // A lifecycle action failed; the message is for a person and holds no secret.
    void actionFailed(const QString &id, const QString &message);
};

} // namespace sbx
