#include "widgets/hooks/hookstab.h"

#include "widgets/common/userprompts.h"

#include "client/sandboxclient.h"
#include "models/hookmodel.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/workspace/tabregistry.h"

#include <QAction>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Output is at most AIO's 30 000 characters; the bound keeps a chatty hook from growing the view.
constexpr int kMaxOutputLines = 5000;

QString runSummaryText(const SandboxHook &hook, const HookRunOutcome &outcome) {
    QString text;
    const ShellCommandResult &r = outcome.result;
    if (!outcome.status.ok())
        text = QCoreApplication::translate("sbx::HooksTab", "Could not run %1: %2")
                   .arg(hook.name, outcome.status.message);
    else if (r.completed())
        text = QCoreApplication::translate("sbx::HooksTab", "%1 finished with exit code %2")
                   .arg(hook.name)
                   .arg(r.exitCode);
    else if (r.status == QLatin1String("hard_timeout"))
        text =
            QCoreApplication::translate("sbx::HooksTab", "%1 was stopped after its timeout of %2 s")
                .arg(hook.name)
                .arg(hook.timeoutSeconds);
    else
        text = QCoreApplication::translate("sbx::HooksTab", "%1 ended as %2%3")
                   .arg(hook.name, r.status, r.message.isEmpty() ? QString() : u": "_s + r.message);
    if (!outcome.cleanupWarning.isEmpty())
        text += u"\n"_s + outcome.cleanupWarning;
    return text;
}

} // namespace

HooksTab::HooksTab(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new HookModel(client, this))
    , m_view(new QTreeView(this))
    , m_notice(new QLabel(this))
    , m_selection(new QLabel(this))
    , m_error(makeErrorBox(this))
    , m_noApi(new QLabel(this))
    , m_empty(new QLabel(this))
    , m_runPanel(new QGroupBox(tr("Trial run"), this))
    , m_runSummary(new QLabel(m_runPanel))
    , m_runOutput(new QPlainTextEdit(m_runPanel)) {
    m_view->setModel(m_model);
    m_view->setAccessibleName(tr("Hooks"));
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setSectionResizeMode(HookModel::CommandColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->setColumnWidth(HookModel::NameColumn, 260);

    m_notice->setWordWrap(true);
    m_selection->setWordWrap(true);
    m_selection->hide();
    m_noApi->setObjectName(u"noHooksApi"_s);
    m_noApi->setWordWrap(true);
    m_noApi->setAlignment(Qt::AlignCenter);
    m_noApi->setText(
        tr("This sandbox has no hooks API: it does not answer GET /v1/sandbox/hooks, so its "
           "shutdown hooks cannot be seen or changed from here."));
    m_noApi->hide();
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr("No shutdown hooks yet. Add one (Insert) to run a command when the "
                        "sandbox stops."));
    m_empty->hide();

    m_runSummary->setObjectName(u"runSummary"_s);
    m_runSummary->setWordWrap(true);
    m_runSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runOutput->setObjectName(u"runOutput"_s);
    m_runOutput->setReadOnly(true);
    m_runOutput->setMaximumBlockCount(kMaxOutputLines);
    m_runOutput->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *runLayout = new QVBoxLayout(m_runPanel);
    runLayout->addWidget(m_runSummary);
    runLayout->addWidget(m_runOutput, 1);
    m_runPanel->hide();

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_add = toolbar->addAction(tr("Add…"), this, &HooksTab::addHook);
    m_add->setToolTip(tr("Add a shutdown hook (Insert)"));
    m_edit = toolbar->addAction(tr("Edit…"), this, &HooksTab::editCurrent);
    m_edit->setToolTip(tr("Edit the selected hook (Enter)"));
    m_delete = toolbar->addAction(tr("Delete"), this, &HooksTab::deleteCurrent);
    m_runNow = toolbar->addAction(tr("Run now"), this, &HooksTab::runCurrent);
    m_runNow->setToolTip(
        tr("Run the selected hook's command once now, in a shell session of its own"));
    toolbar->addSeparator();
    toolbar->addAction(tr("Refresh"), this, &HooksTab::refresh)
        ->setToolTip(tr("List the hooks again (F5)"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addWidget(m_notice);
    layout->addWidget(m_error);
    layout->addWidget(m_noApi, 1);
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 3);
    layout->addWidget(m_selection);
    layout->addWidget(m_runPanel, 2);

    addLocalShortcut(this, QKeySequence(Qt::Key_Insert), tr("Add a hook"), [this] { addHook(); });
    addLocalShortcut(this, QKeySequence::Delete, tr("Delete the selected hook"),
                     [this] { deleteCurrent(); });
    addLocalShortcut(this, QKeySequence::Refresh, tr("Reload the hooks"), [this] { refresh(); });
    // Enter and double-click on a hook edit it (or show it, for an env hook).
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (m_model->hookAt(index))
            editCurrent();
    });

    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &under, int first, int last) {
                if (under.isValid())
                    return;
                for (int row = first; row <= last; ++row) {
                    // A lane's title ("Priority 100 · 2 hooks run together") spans the row.
                    m_view->setFirstColumnSpanned(row, {}, true);
                    m_view->expand(m_model->index(row, 0));
                }
            });
    connect(m_model, &HookModel::refreshed, this, [this] {
        m_error->hide();
        showNoHooksApi(false);
        m_empty->setVisible(m_model->rowCount() == 0);
        if (!m_selectAfterRefresh.isEmpty())
            selectHook(std::exchange(m_selectAfterRefresh, QString()));
        updateActions();
    });
    connect(m_model, &HookModel::refreshFailed, this, [this](const Status &status) {
        if (isNoHooksApi(status)) {
            showNoHooksApi(true);
            return;
        }
        showError(tr("Could not list the shutdown hooks: %1").arg(status.message));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &HooksTab::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &HooksTab::updateActions);
    if (client)
        connect(client, &SandboxClient::extensionsChanged, this, &HooksTab::updateNotice);
    updateNotice();
    updateActions();
}

void HooksTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (!m_started) {
        m_started = true;
        refresh();
    }
}

void HooksTab::refresh() {
    m_model->refresh();
}

const SandboxHook *HooksTab::currentHook() const {
    return m_model->hookAt(m_view->currentIndex());
}

void HooksTab::selectHook(const QString &name) {
    const QModelIndex index = m_model->indexOfHook(name);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

void HooksTab::updateNotice() {
    QString text =
        tr("Shutdown hooks run when the sandbox stops: lanes one after another, lowest priority "
           "first; the hooks of one lane at the same time, each stopped after its timeout.");
    // Our sandbox-server keeps them across restarts and says so; AIO's documentation does not.
    if (m_client && !m_client->hasExtension(u"shutdown-hooks"_s))
        text = tr("%1 This sandbox does not say that hooks added here survive its "
                  "restart.")
                   .arg(text);
    m_notice->setText(text);
}

void HooksTab::updateActions() {
    const SandboxHook *hook = currentHook();
    const bool api = m_hasApi && m_client;
    m_add->setEnabled(api);
    m_edit->setEnabled(api && hook);
    m_edit->setText(hook && hook->readOnly() ? tr("View…") : tr("Edit…"));
    m_delete->setEnabled(api && hook && !hook->readOnly() && !m_deleteJob);
    m_delete->setToolTip(hook && hook->readOnly() ? readOnlyHookReason()
                                                  : tr("Delete the selected hook (Delete)"));
    m_runNow->setEnabled(api && hook && !m_run);
    m_selection->setVisible(hook && hook->readOnly());
    if (hook && hook->readOnly())
        m_selection->setText(u"%1: %2"_s.arg(hook->name, readOnlyHookReason()));
}

void HooksTab::showError(const QString &message) {
    m_error->setText(message);
    m_error->show();
}

void HooksTab::showNoHooksApi(bool missing) {
    m_hasApi = !missing;
    m_noApi->setVisible(missing);
    m_view->setVisible(!missing);
    if (missing) {
        m_error->hide();
        m_empty->hide();
    }
    updateActions();
}

bool HooksTab::confirm(const QString &title, const QString &text) {
    return (m_prompts ? m_prompts : dialogPrompts())->confirm(this, title, text, title);
}

void HooksTab::addHook() {
    if (!m_hasApi || !m_client)
        return;
    openEditor(SandboxHook{}, HookEditorDialog::Mode::Add);
}

void HooksTab::editCurrent() {
    const SandboxHook *hook = currentHook();
    if (!hook || !m_hasApi)
        return;
    openEditor(*hook,
               hook->readOnly() ? HookEditorDialog::Mode::View : HookEditorDialog::Mode::Edit);
}

void HooksTab::openEditor(const SandboxHook &hook, HookEditorDialog::Mode mode) {
    if (m_editor) {
        m_editor->raise();
        m_editor->activateWindow();
        return;
    }
    QStringList taken;
    for (const SandboxHook &h : m_model->hooks())
        taken << h.name;
    auto *editor = new HookEditorDialog(m_client, hook, mode, taken, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    m_editor = editor;
    connect(editor, &HookEditorDialog::saved, this, [this](const SandboxHook &saved) {
        m_selectAfterRefresh = saved.name;
        refresh();
    });
    editor->open();
}

void HooksTab::deleteCurrent() {
    const SandboxHook *current = currentHook();
    if (!current || current->readOnly() || m_deleteJob || !m_client)
        return;
    const QString name = current->name;
    if (!confirm(tr("Delete hook"),
                 tr("Delete the shutdown hook %1? It will no longer run when the "
                    "sandbox stops.")
                     .arg(name)))
        return;
    auto *job = new DeleteHookJob(m_client, name);
    m_deleteJob = job;
    connect(job, &ApiJob::failed, this, [this, name](const Status &status) {
        showError(tr("Could not delete hook %1: %2").arg(name, status.message));
    });
    // Refreshed either way: a refusal may mean the list changed under us.
    connect(job, &ApiJob::finished, this, [this] {
        m_deleteJob = nullptr;
        refresh();
    });
    updateActions();
    job->start();
}

void HooksTab::runCurrent() {
    const SandboxHook *current = currentHook();
    if (!current || m_run || !m_client)
        return;
    const SandboxHook hook = *current;
    if (!confirm(tr("Run hook now"),
                 tr("Run %1 now? This is not a rehearsal: its command runs in the "
                    "sandbox for real, with real effects, in a new shell session "
                    "stopped after %2 s.\n\n%3")
                     .arg(hook.name)
                     .arg(hook.timeoutSeconds)
                     .arg(hook.command)))
        return;
    m_run = new HookTrialRun(m_client, hook, this);
    connect(m_run, &HookTrialRun::finished, this, [this] { showRunOutcome(m_run->outcome()); });
    m_runPanel->setTitle(tr("Trial run of %1").arg(hook.name));
    m_runSummary->setText(tr("Running %1…").arg(hook.name));
    m_runOutput->clear();
    m_runPanel->show();
    updateActions();
    m_run->start();
}

void HooksTab::showRunOutcome(const HookRunOutcome &outcome) {
    HookTrialRun *run = std::exchange(m_run, nullptr);
    m_runSummary->setText(runSummaryText(run->hook(), outcome));
    m_runOutput->setPlainText(outcome.result.output);
    run->deleteLater();
    updateActions();
    Q_EMIT runFinished(outcome);
}

QString HooksTab::runSummary() const {
    return m_runSummary->text();
}

QString HooksTab::runOutput() const {
    return m_runOutput->toPlainText();
}

QString HooksTab::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

void registerHooksTab(TabRegistry &registry) {
    registry.add(clientTab<HooksTab>(
        u"hooks"_s, QCoreApplication::translate("sbx::HooksTab", "Hooks"), 50, u"hooks"_s));
}

} // namespace sbx
