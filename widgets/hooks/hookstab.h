#pragma once

#include "client/api/hookjobs.h"
#include "widgets/hooks/hookeditor.h"

#include <QPointer>
#include <QWidget>

#include <functional>

class QAction;
class QGroupBox;
class QLabel;
class QPlainTextEdit;
class QTreeView;

namespace sbx {

class HookModel;
class TabRegistry;

// The Hooks tab of a sandbox workspace: the shutdown hooks in lanes by priority, with add, edit,
// delete and a trial run of one hook in a throwaway shell session.
class UserPrompts;

class HooksTab final : public QWidget {
    Q_OBJECT
public:
    explicit HooksTab(SandboxClient *client, QWidget *parent = nullptr);

    // Where its questions go (delete, run now); null: the dialogs.
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

    void refresh();
    void addHook();
    void editCurrent();
    void deleteCurrent();
    void runCurrent();
    // The hook of the current row, or null on a lane or nothing.
    const SandboxHook *currentHook() const;
    void selectHook(const QString &name);

    HookModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    // The editor open now, if any.
    HookEditorDialog *editor() const { return m_editor; }
    bool hasHooksApi() const { return m_hasApi; }
    bool isRunning() const { return m_run != nullptr; }
    // The last trial run as shown: its one-line summary and its output.
    QString runSummary() const;
    QString runOutput() const;
    // The error shown above the lanes, "" when none.
    QString errorText() const;

Q_SIGNALS:
    void runFinished(const HookRunOutcome &outcome);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void openEditor(const SandboxHook &hook, HookEditorDialog::Mode mode);
    void showError(const QString &message);
    void showNoHooksApi(bool missing);
    void showRunOutcome(const HookRunOutcome &outcome);
    void updateActions();
    void updateNotice();
    bool confirm(const QString &title, const QString &text);

    QPointer<SandboxClient> m_client;
    HookModel *m_model;
    QTreeView *m_view;
    QLabel *m_notice;
    QLabel *m_selection;
    QLabel *m_error;
    QLabel *m_noApi;
    QLabel *m_empty;
    QGroupBox *m_runPanel;
    QLabel *m_runSummary;
    QPlainTextEdit *m_runOutput;
    QAction *m_add;
    QAction *m_edit;
    QAction *m_delete;
    QAction *m_runNow;
    QPointer<HookEditorDialog> m_editor;
    QPointer<DeleteHookJob> m_deleteJob;
    // A run still going when the tab closes is destroyed with it, which removes its session.
    HookTrialRun *m_run = nullptr;
    QString m_selectAfterRefresh;
    UserPrompts *m_prompts = nullptr;
    bool m_hasApi = true;
    bool m_started = false;
};

// Registers the Hooks tab of each sandbox workspace.
void registerHooksTab(TabRegistry &registry);

} // namespace sbx
