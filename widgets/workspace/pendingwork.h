#pragma once

#include <QJsonObject>

namespace sbx {

// What an open tab would lose or end if the console quit now.
struct PendingWork {
    int unsavedFiles = 0; // viewers with edits not saved
    int transfers = 0;    // uploads and downloads queued or running
    int shells = 0;       // running shells (they end only where the sandbox stops with the console)

    PendingWork &operator+=(const PendingWork &other) {
        unsavedFiles += other.unsavedFiles;
        transfers += other.transfers;
        shells += other.shells;
        return *this;
    }
};

// The one hook the quit questions use: a tab that holds such work implements it, and the main
// window asks every open workspace, whatever its tabs are.
class PendingWorkSource {
public:
    virtual ~PendingWorkSource() = default;
    virtual PendingWork pendingWork() const = 0;
};

// A tab with state worth restoring after a restart (the Terminal tab's sessions, the Files tab's
// folder): the workspace saves and restores every tab that implements it. No secret in it.
class SessionStateSource {
public:
    virtual ~SessionStateSource() = default;
    virtual QJsonObject sessionState() const = 0;
    virtual void restoreSessionState(const QJsonObject &state) = 0;
    // A state will be restored once the sandbox is online: until then the tab must not fill
    // itself in (the Terminal tab's first visit would open a shell of its own).
    virtual void restoreExpected() {}
};

} // namespace sbx
