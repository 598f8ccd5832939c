#include "widgets/runs/runstab.h"

#include "client/api/bashrun.h"
#include "models/notifications/notificationcenter.h"

#include "models/runs/runlistmodel.h"
#include "models/runs/sessionlistmodel.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/logs/logview.h"
#include "widgets/workspace/tabregistry.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kSessionRefreshMs = 3000;

QString sizeText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

} // namespace

RunsTab::RunsTab(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_runs(new RunListModel(this))
    , m_sessions(new SessionListModel(this))
    , m_command(new QLineEdit(this))
    , m_folder(new QLineEdit(this))
    , m_environment(new QLineEdit(this))
    , m_formError(makeErrorBox(this))
    , m_noBash(makeErrorBox(this))
    , m_runList(makeListView(tr("Runs"), this))
    , m_sessionList(makeListView(tr("Shell sessions"), this))
    , m_sessionsState(new QLabel(this))
    , m_header(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_rerun(new QPushButton(tr("Run again"), this))
    , m_input(new QLineEdit(this))
    , m_send(new QPushButton(tr("Send"), this))
    , m_logs(new QStackedWidget(this))
    , m_empty(new QLabel(tr("Type a command above and press Enter. Its output streams here, "
                            "searchable while it runs."),
                         this))
    , m_sessionTimer(new QTimer(this)) {
    m_sessions->setClient(client);

    m_command->setAccessibleName(tr("Command"));
    m_folder->setAccessibleName(tr("Working folder"));
    m_environment->setAccessibleName(tr("Environment"));
    m_input->setAccessibleName(tr("Input to the run"));
    m_command->setPlaceholderText(tr("Command, e.g. make test (Up/Down: history)"));
    m_command->setClearButtonEnabled(true);
    m_command->installEventFilter(this);
    auto *run = new QPushButton(tr("Run"), this);
    run->setDefault(true);
    m_folder->setPlaceholderText(tr("Working folder (default: the session's)"));
    m_environment->setPlaceholderText(tr("Environment, e.g. DEBUG=1 NAME='two words'"));
    auto *commandRow = new QHBoxLayout;
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(run);
    auto *options = new QHBoxLayout;
    options->addWidget(m_folder, 1);
    options->addWidget(m_environment, 1);

    m_runList->setModel(m_runs);
    m_runList->header()->setStretchLastSection(false);
    m_runList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runList->header()->setSectionResizeMode(RunListModel::CommandColumn, QHeaderView::Stretch);
    m_sessionList->setModel(m_sessions);
    m_sessionList->setToolTip(
        tr("Double-click a bash session to follow what it runs, a shell session to open it"));
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("<b>Runs</b>"), left));
    leftLayout->addWidget(m_runList, 3);
    auto *sessionsTitle = new QHBoxLayout;
    sessionsTitle->addWidget(new QLabel(tr("<b>Sessions</b>"), left));
    sessionsTitle->addStretch();
    sessionsTitle->addWidget(m_sessionsState);
    auto *follow = new QPushButton(tr("Follow"), left);
    follow->setToolTip(tr("Follow the selected bash session's current command"));
    sessionsTitle->addWidget(follow);
    leftLayout->addLayout(sessionsTitle);
    leftLayout->addWidget(m_sessionList, 2);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *headerRow = new QHBoxLayout;
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_stop);
    headerRow->addWidget(m_rerun);
    rightLayout->addLayout(headerRow);
    m_notice->setWordWrap(true);
    m_notice->hide();
    rightLayout->addWidget(m_notice);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_logs->addWidget(m_empty);
    rightLayout->addWidget(m_logs, 1);
    auto *inputRow = new QHBoxLayout;
    m_input->setPlaceholderText(
        tr("Input for the running command (Enter sends it with a newline)"));
    inputRow->addWidget(m_input, 1);
    inputRow->addWidget(m_send);
    rightLayout->addLayout(inputRow);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({300, 600});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(commandRow);
    layout->addLayout(options);
    layout->addWidget(m_formError);
    layout->addWidget(m_noBash);
    layout->addWidget(splitter, 1);

    connect(run, &QPushButton::clicked, this, &RunsTab::runTyped);
    connect(m_command, &QLineEdit::returnPressed, this, &RunsTab::runTyped);
    connect(m_stop, &QPushButton::clicked, this, &RunsTab::stopCurrent);
    connect(m_rerun, &QPushButton::clicked, this, &RunsTab::rerunCurrent);
    connect(m_send, &QPushButton::clicked, this, &RunsTab::sendInput);
    connect(m_input, &QLineEdit::returnPressed, this, &RunsTab::sendInput);
    connect(follow, &QPushButton::clicked, this, &RunsTab::followSelectedSession);
    connect(m_sessionList, &QTreeView::doubleClicked, this, &RunsTab::followSelectedSession);
    connect(m_runList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) { setCurrent(m_runs->run(index.row())); });
    connect(m_runs, &QAbstractItemModel::dataChanged, this, [this] { updateHeader(); });
    connect(m_sessions, &SessionListModel::refreshed, this, [this] {
        m_sessionsState->setText(m_sessions->error().isEmpty()
                                     ? tr("%n session(s)", nullptr, m_sessions->rowCount())
                                     : m_sessions->error());
    });
    m_sessionTimer->setInterval(kSessionRefreshMs);
    connect(m_sessionTimer, &QTimer::timeout, m_sessions, &SessionListModel::refresh);
    addLocalShortcut(this, QKeySequence(u"Ctrl+."_s), tr("Stop the run"),
                     [this] { stopCurrent(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+L"_s), tr("Type a command"), [this] {
        m_command->setFocus();
        m_command->selectAll();
    });
    m_stop->setToolTip(tr("Stop the run (Ctrl+.): SIGINT, then SIGTERM, then SIGKILL"));
    updateHeader();
}

RunsTab::~RunsTab() = default;

BashRun *RunsTab::currentRun() const {
    return m_current;
}

void RunsTab::runTyped() {
    const QString command = m_command->text().trimmed();
    if (command.isEmpty())
        return;
    runCommand(command);
}

void RunsTab::runCommand(const QString &command) {
    QString error;
    const auto environment = parseEnvironmentLine(m_environment->text(), &error);
    const QString folder = m_folder->text().trimmed();
    if (!environment)
        return m_formError->setText(tr("Environment: %1").arg(error)), m_formError->show();
    if (!folder.isEmpty() && !folder.startsWith(u'/'))
        return m_formError->setText(tr("The working folder must be an absolute path.")),
               m_formError->show();
    m_formError->hide();
    if (m_history.isEmpty() || m_history.constLast() != command)
        m_history.append(command);
    m_historyPos = static_cast<int>(m_history.size());
    m_command->clear();

    BashExecRequest request;
    request.command = command;
    request.execDir = folder;
    request.environment = *environment;
    addRun(new BashRun(m_client, request));
}

void RunsTab::addRun(BashRun *bashRun) {
    m_runs->add(bashRun);
    auto *view = new LogView(m_logs);
    view->setPrompts(m_prompts);
    m_logs->addWidget(view);
    view->attach(bashRun);
    m_views.insert(bashRun, view);
    connect(bashRun, &BashRun::notice, this, [this, bashRun](const QString &text) {
        m_notices.insert(bashRun, text);
        if (bashRun == m_current)
            showNotice(text);
    });
    connect(bashRun, &BashRun::ended, this, [this, bashRun] {
        if (m_notifications)
            m_notifications->runFinished(
                m_sandboxId,
                bashRun->request().command.isEmpty() ? bashRun->state().command
                                                     : bashRun->request().command,
                bashRun->state().exitCode.value_or(-1), bashRun->phase() == BashRun::Phase::Failed);
        if (bashRun->noBashApi()) {
            m_noBash->setText(bashRun->error() +
                              tr(" The Terminal tab runs commands in a shell session."));
            m_noBash->show();
        }
        updateHeader();
    });
    bashRun->start();
    m_runList->setCurrentIndex(m_runs->index(m_runs->rowOf(bashRun), 0));
    setCurrent(bashRun);
}

void RunsTab::showNotice(const QString &text) {
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

LogView *RunsTab::logViewOf(BashRun *run) const {
    return m_views.value(run);
}

void RunsTab::setCurrent(BashRun *run) {
    m_current = run;
    if (LogView *view = run ? logViewOf(run) : nullptr)
        m_logs->setCurrentWidget(view);
    else
        m_logs->setCurrentWidget(m_empty);
    showNotice(m_notices.value(run));
    updateHeader();
}

void RunsTab::stopCurrent() {
    if (m_current && m_current->active())
        m_current->stop();
    updateHeader();
}

void RunsTab::rerunCurrent() {
    if (!m_current)
        return;
    m_folder->setText(m_current->request().execDir);
    QStringList env;
    const auto &e = m_current->request().environment;
    for (auto it = e.begin(); it != e.end(); ++it)
        env << it.key() + u'=' + it.value();
    m_environment->setText(env.join(u' '));
    runCommand(m_current->state().command);
}

void RunsTab::sendInput() {
    if (!m_current || !m_current->active())
        return;
    m_current->write(m_input->text() + u'\n');
    m_input->clear();
}

void RunsTab::followSelectedSession() {
    const QModelIndex index = m_sessionList->currentIndex();
    const SessionListModel::Row *row = m_sessions->row(index.row());
    if (!row)
        return;
    if (row->kind != "bash"_L1) {
        if (!m_shells || !m_shells->openShellSession(row->id))
            showNotice(tr("Shell sessions are interactive: open them from the Terminal tab."));
        return;
    }
    BashCommandState state;
    state.sessionId = row->id;
    state.commandId = row->commandId;
    state.command = row->command.isEmpty() ? tr("session %1").arg(row->id.left(8)) : row->command;
    state.status = u"running"_s;
    addRun(new BashRun(m_client, state));
}

QString RunsTab::headerText() const {
    return m_header->text();
}

QString RunsTab::noticeText() const {
    return m_notice->text();
}

bool RunsTab::showsNoBashApi() const {
    return !m_noBash->isHidden();
}

void RunsTab::updateHeader() {
    BashRun *r = m_current;
    m_stop->setEnabled(r && r->active());
    m_rerun->setEnabled(r && !r->attached());
    m_input->setEnabled(r && r->active());
    m_send->setEnabled(r && r->active());
    if (!r) {
        m_header->setText(tr("No run selected"));
        m_stop->setText(tr("Stop"));
        return;
    }
    m_stop->setText(r->nextStopSignal() == "SIGKILL"_L1 ? tr("Kill (SIGKILL)")
                                                        : tr("Stop (%1)").arg(r->nextStopSignal()));
    QString text = tr("%1 · %2").arg(r->stateText(), RunListModel::formatDuration(r->durationMs()));
    text +=
        tr(" · stdout %1, stderr %2").arg(sizeText(r->stdoutBytes()), sizeText(r->stderrBytes()));
    if (!r->error().isEmpty())
        text += u" · "_s + r->error();
    m_header->setText(text);
}

void RunsTab::historyStep(int direction) {
    if (m_history.isEmpty())
        return;
    m_historyPos = std::clamp(m_historyPos + direction, 0, int(m_history.size()));
    m_command->setText(m_historyPos < m_history.size() ? m_history.at(m_historyPos) : QString());
}

bool RunsTab::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_command && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Up || key == Qt::Key_Down) {
            historyStep(key == Qt::Key_Up ? -1 : 1);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void RunsTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    m_sessions->refresh();
    m_sessionTimer->start();
}

void RunsTab::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    m_sessionTimer->stop();
}

void registerRunsTab(TabRegistry &registry) {
    registry.add(clientTab<RunsTab>(u"runs"_s, QCoreApplication::translate("sbx::RunsTab", "Runs"),
                                    35, u"runs"_s));
}

} // namespace sbx
