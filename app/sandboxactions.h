#pragma once

#include "client/providers/sandboxprovider.h"

#include <QObject>

#include <functional>

class QAction;
class QWidget;

namespace sbx {

class ConsoleContext;
class SandboxListView;
struct NewSandboxRequest;

// The sandbox list's lifecycle actions (new, start, pause, resume, stop, delete, logs): enabled
// for what the selected sandboxes' providers allow in their state, several at once with one
// confirmation that lists them.
class SandboxActions final : public QObject {
    Q_OBJECT
public:
    SandboxActions(ConsoleContext *context, SandboxListView *list, QWidget *window);

    QAction *newAction() const { return m_new; }
    QAction *action(LifecycleAction action) const;
    // Start, pause, resume, stop, delete and logs, in toolbar order.
    QList<QAction *> lifecycleActions() const;

    // Enables the actions for the current selection.
    void update();
    // Runs an action on every selected sandbox that allows it, asking first where it destroys
    // or interrupts something.
    void perform(LifecycleAction action);
    // The question asked before stopping or deleting these sandboxes.
    QString confirmation(LifecycleAction action, const QStringList &ids) const;
    // Shows the "New sandbox" dialog, then creates what it asks for.
    void newSandbox();
    // Creates a sandbox without the dialog; the id arrives with created().
    void create(const NewSandboxRequest &request);

Q_SIGNALS:
    void created(const QString &id);
    void logsRequested(const QString &id);

private:
    LifecycleActions allowed(const QString &id) const;
    void showNewKey(const QString &id);
    void announcePending();

    ConsoleContext *m_context;
    SandboxListView *m_list;
    QWidget *m_window;
    QAction *m_new;
    QList<QPair<LifecycleAction, QAction *>> m_actions;
    QString m_pending;      // named by its provider, not yet in the list
    bool m_showKey = false; // its generated key is shown once it appears
};

} // namespace sbx
