#pragma once

#include "client/transport/credentials.h"
#include "client/transport/endpoint.h"

#include <QFlags>
#include <QList>
#include <QObject>
#include <QString>

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

// A source of sandboxes: saved endpoints, local sandbox-server children, engine containers.
class SandboxProvider : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual QString id() const = 0;
    virtual QString displayName() const = 0;
    virtual QList<SandboxEntry> sandboxes() const = 0;
    virtual LifecycleActions actions(const SandboxEntry &entry) const = 0;
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
    // A lifecycle action failed; the message is for a person and holds no secret.
    void actionFailed(const QString &id, const QString &message);
};
