#include "models/code/notebookrunner.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/code/notebookmodel.h"

#include <QRandomGenerator>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kTickMs = 100;

QString newSessionId() {
    const quint64 random = QRandomGenerator::global()->generate64();
    return u"console-"_s + QString::number(random, 16).rightJustified(16, u'0');
}

} // namespace

NotebookRunner::NotebookRunner(SandboxClient *client, NotebookModel *model, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_model(model)
    , m_ticker(new QTimer(this)) {
    m_ticker->setInterval(kTickMs);
    connect(m_ticker, &QTimer::timeout, this, &NotebookRunner::tick);
    // A cell deleted while it waits is skipped by pump(); one deleted while it runs ends
    // unseen, and the next starts.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_queue.clear();
        if (!m_runningId.isEmpty() && m_model->rowOfId(m_runningId) < 0) {
            // The notebook was replaced: what ran belongs to no cell now.
            ++m_generation;
            if (m_job)
                m_job->abort();
            m_runningId.clear();
            m_ticker->stop();
        }
        setBusy();
    });
}

NotebookRunner::~NotebookRunner() {
    ++m_generation;
    if (m_job)
        m_job->abort();
    // The kernel is the sandbox's to end: the job belongs to the client and outlives us.
    const QString session = m_creatingSession ? m_pendingSessionId : m_sessionId;
    if (m_client && !session.isEmpty())
        (new JupyterDeleteSessionJob(m_client, session))->start();
}

void NotebookRunner::loadInfo() {
    if (!m_client)
        return;
    auto *job = new JupyterInfoJob(m_client);
    connect(job, &JupyterInfoJob::succeeded, this, [this](const JupyterInfo &info) {
        m_info = info;
        m_infoLoaded = true;
        m_noJupyter = false;
        m_infoError.clear();
        if (m_kernelName.isEmpty() || !info.availableKernels.contains(m_kernelName))
            m_kernelName = info.defaultKernel;
        Q_EMIT infoChanged();
    });
    connect(job, &JupyterInfoJob::failed, this, [this](const Status &status) {
        m_infoLoaded = true;
        m_noJupyter = isNoCodeApi(status);
        m_infoError = m_noJupyter ? QString() : status.message;
        Q_EMIT infoChanged();
    });
    job->start();
    auto *code = new CodeInfoJob(m_client);
    connect(code, &CodeInfoJob::succeeded, this, [this](const QList<CodeLanguageInfo> &languages) {
        m_javascript =
            std::any_of(languages.begin(), languages.end(),
                        [](const CodeLanguageInfo &l) { return l.language == "javascript"_L1; });
        Q_EMIT infoChanged();
    });
    connect(code, &CodeInfoJob::failed, this, [this](const Status &status) {
        // A passing network fault says nothing about node; a missing API does.
        if (isNoCodeApi(status)) {
            m_javascript = false;
            Q_EMIT infoChanged();
        }
    });
    code->start();
    auto *context = new GetContextJob(m_client);
    connect(context, &GetContextJob::succeeded, this, [this](const SandboxContext &sandbox) {
        m_homeDir = sandbox.homeDir;
        Q_EMIT infoChanged();
    });
    context->start();
}

void NotebookRunner::setKernelName(const QString &name) {
    m_kernelName = name;
}

void NotebookRunner::setTimeoutSeconds(int seconds) {
    m_timeoutSeconds = std::clamp(seconds, 1, 300);
}

void NotebookRunner::run(int row) {
    const NotebookCell *cell = m_model->cell(row);
    if (!cell || cell->kind != CellKind::Code)
        return;
    if (cell->id == m_runningId || m_queue.contains(cell->id))
        return;
    m_queue.append(cell->id);
    m_model->setState(row, CellState::Queued);
    setBusy();
    pump();
}

void NotebookRunner::runAll() {
    for (int row = 0; row < m_model->rowCount(); ++row)
        run(row);
}

bool NotebookRunner::canInterrupt() const {
    return m_client && m_client->hasExtension(QString::fromLatin1(kJupyterInterruptExtension));
}

void NotebookRunner::interrupt() {
    dropQueue();
    const int row = m_model->rowOfId(m_runningId);
    const NotebookCell *cell = m_model->cell(row);
    if (!cell) {
        setBusy();
        return;
    }
    if (cell->language == "javascript"_L1) {
        // /v1/code has no way to stop a run: stop waiting and say what goes on.
        ++m_generation;
        if (m_job)
            m_job->abort();
        finishCell(m_runningId, u"error"_s, {}, std::nullopt,
                   tr("Stopped waiting: the node process runs on in the sandbox until its "
                      "timeout (%1 s) kills it.")
                       .arg(m_timeoutSeconds));
        return;
    }
    if (!canInterrupt() || m_sessionId.isEmpty() || m_creatingSession) {
        Q_EMIT interruptUnavailable(
            m_creatingSession
                ? tr("The kernel is still starting. Restart to stop it.")
                : tr("This sandbox cannot interrupt a running cell (AIO's Jupyter API has no "
                     "interrupt): the cell stops at its timeout, at most %1 s after it started. "
                     "Restart the kernel to stop it now; its variables are lost.")
                      .arg(m_timeoutSeconds));
        return;
    }
    m_model->setNote(row, tr("Interrupting…"));
    m_interruptedId = m_runningId;
    auto *job = new JupyterInterruptJob(m_client, m_sessionId);
    const int generation = m_generation;
    connect(job, &JupyterInterruptJob::failed, this, [this, generation](const Status &status) {
        if (generation != m_generation)
            return;
        Q_EMIT interruptUnavailable(tr("The interrupt failed: %1. The cell stops at its timeout "
                                       "(%2 s), or restart the kernel to stop it now.")
                                        .arg(status.message)
                                        .arg(m_timeoutSeconds));
    });
    job->start();
}

void NotebookRunner::restart() {
    ++m_generation;
    if (m_job)
        m_job->abort();
    dropQueue();
    if (!m_runningId.isEmpty()) {
        const int row = m_model->rowOfId(m_runningId);
        m_model->setResult(row, CellState::Error, {}, std::nullopt,
                           tr("The kernel was restarted while this cell ran."));
        m_runningId.clear();
        m_ticker->stop();
    }
    // A kernel asked for and not answered yet is ended too, rather than left to expire.
    const QString old = m_creatingSession ? m_pendingSessionId : m_sessionId;
    m_creatingSession = false;
    if (!old.isEmpty() && m_client) {
        auto *job = new JupyterDeleteSessionJob(m_client, old);
        connect(job, &JupyterDeleteSessionJob::failed, this, [this](const Status &status) {
            // A session already gone (expired, deleted by an agent) is what restart wants.
            if (status.kind != Status::Kind::NotFound)
                Q_EMIT notice(tr("The old kernel could not be shut down: %1").arg(status.message));
        });
        job->start();
    }
    m_sessionId.clear();
    Q_EMIT sessionChanged({});
    Q_EMIT notice(tr("Kernel restarted: variables are gone; the next run starts a new kernel."));
    setBusy();
}

void NotebookRunner::pump() {
    if (!m_runningId.isEmpty())
        return;
    while (!m_queue.isEmpty()) {
        const QString id = m_queue.takeFirst();
        const int row = m_model->rowOfId(id);
        if (row < 0)
            continue;
        startCell(row);
        return;
    }
    setBusy();
}

void NotebookRunner::startCell(int row) {
    const NotebookCell *cell = m_model->cell(row);
    m_runningId = cell->id;
    const QString code = cell->source;
    const bool javascript = cell->language == "javascript"_L1;
    m_model->setResult(row, CellState::Running, {}, std::nullopt, {});
    m_model->setElapsed(row, 0);
    m_clock.start();
    m_ticker->start();
    setBusy();
    if (!m_client)
        return failCell(m_runningId,
                        Status::error(Status::Kind::Cancelled, tr("The sandbox was closed.")));
    if (javascript)
        return runJavascript(m_runningId, code);
    if (m_noJupyter)
        return failCell(m_runningId,
                        Status::error(Status::Kind::NotFound,
                                      tr("This sandbox has no Jupyter API (/v1/jupyter): Python "
                                         "cells cannot run here."),
                                      404));
    if (!m_sessionId.isEmpty())
        return runPython(m_runningId, code);

    // The first Python cell starts the kernel; its start does not count against the timeout.
    const QString sessionId = newSessionId();
    m_creatingSession = true;
    m_pendingSessionId = sessionId;
    m_model->setNote(row, tr("Starting the kernel…"));
    auto *job = new JupyterCreateSessionJob(m_client, sessionId, m_kernelName);
    m_job = job;
    const int generation = m_generation;
    const QString cellId = m_runningId;
    connect(job, &JupyterCreateSessionJob::succeeded, this,
            [this, generation, cellId, code](const QString &id, const QString &kernel) {
                if (generation != m_generation)
                    return;
                m_creatingSession = false;
                m_sessionId = id;
                if (!kernel.isEmpty())
                    m_kernelName = kernel;
                Q_EMIT sessionChanged(id);
                m_model->setNote(m_model->rowOfId(cellId), {});
                runPython(cellId, code);
            });
    connect(job, &JupyterCreateSessionJob::failed, this,
            [this, generation, cellId](const Status &status) {
                if (generation != m_generation)
                    return;
                m_creatingSession = false;
                failCell(cellId, status);
            });
    job->start();
}

void NotebookRunner::runPython(const QString &cellId, const QString &code) {
    JupyterExecuteRequest request;
    request.code = code;
    request.sessionId = m_sessionId;
    request.timeoutSeconds = m_timeoutSeconds;
    auto *job = new JupyterExecuteJob(m_client, request);
    m_job = job;
    const int generation = m_generation;
    connect(job, &JupyterExecuteJob::succeeded, this,
            [this, generation, cellId](const JupyterExecution &execution) {
                if (generation != m_generation)
                    return;
                QString note;
                if (execution.status == "timeout"_L1)
                    note = tr("Stopped at its timeout (%1 s); the kernel was interrupted and "
                              "keeps its state.")
                               .arg(m_timeoutSeconds);
                else if (!execution.problem.isEmpty())
                    note = execution.problem;
                if (cellId == m_interruptedId && execution.status == "error"_L1 && note.isEmpty())
                    note = tr("Interrupted; the kernel keeps its state.");
                if (execution.kernelRestarted)
                    note = tr("The kernel had died and was started again before this cell: "
                              "variables from before are lost. %1")
                               .arg(note)
                               .trimmed();
                finishCell(cellId, execution.status, execution.outputs, execution.executionCount,
                           note);
            });
    connect(job, &JupyterExecuteJob::failed, this, [this, generation, cellId](const Status &s) {
        if (generation == m_generation)
            failCell(cellId, s);
    });
    job->start();
}

void NotebookRunner::runJavascript(const QString &cellId, const QString &code) {
    CodeExecuteRequest request;
    request.language = u"javascript"_s;
    request.code = code;
    request.timeoutSeconds = m_timeoutSeconds;
    auto *job = new CodeExecuteJob(m_client, request);
    m_job = job;
    const int generation = m_generation;
    connect(job, &CodeExecuteJob::succeeded, this,
            [this, generation, cellId](const CodeExecution &execution) {
                if (generation != m_generation)
                    return;
                QList<CodeOutput> outputs = execution.outputs;
                // Node's error report is both stderr and the error's traceback: shown once.
                const bool hasError =
                    std::any_of(outputs.begin(), outputs.end(), [](const CodeOutput &o) {
                        return o.kind == CodeOutput::Kind::Error;
                    });
                if (hasError)
                    outputs.removeIf([](const CodeOutput &o) {
                        return o.kind == CodeOutput::Kind::Stream && o.streamName == "stderr"_L1;
                    });
                QString note;
                if (execution.status == "timeout"_L1)
                    note = tr("Stopped at its timeout (%1 s); the node process was killed.")
                               .arg(m_timeoutSeconds);
                else if (execution.status != "ok"_L1 && execution.exitCode && !hasError)
                    note = tr("node exited with code %1.").arg(*execution.exitCode);
                finishCell(cellId, execution.status, outputs, std::nullopt, note);
            });
    connect(job, &CodeExecuteJob::failed, this, [this, generation, cellId](const Status &s) {
        if (generation != m_generation)
            return;
        if (isNoCodeApi(s)) {
            m_javascript = false;
            Q_EMIT infoChanged();
        }
        failCell(cellId, s);
    });
    job->start();
}

void NotebookRunner::finishCell(const QString &cellId, const QString &status,
                                const QList<CodeOutput> &outputs, std::optional<int> count,
                                QString note) {
    const int row = m_model->rowOfId(cellId);
    const bool ok = status == "ok"_L1;
    if (row >= 0) {
        m_model->setElapsed(row, m_clock.elapsed());
        m_model->setResult(row, ok ? CellState::Done : CellState::Error, outputs, count, note);
    }
    if (cellId == m_interruptedId)
        m_interruptedId.clear();
    if (cellId == m_runningId) {
        m_runningId.clear();
        m_ticker->stop();
    }
    // As Jupyter's Run All: what was queued after a failing cell waits for the person.
    if (!ok)
        dropQueue();
    Q_EMIT cellFinished(cellId);
    pump();
    setBusy();
}

void NotebookRunner::failCell(const QString &cellId, const Status &status) {
    QString message = status.message;
    const int row = m_model->rowOfId(cellId);
    const NotebookCell *cell = m_model->cell(row);
    if (isNoCodeApi(status) && cell) {
        if (cell->language == "javascript"_L1) {
            message = tr("This sandbox has no /v1/code API: JavaScript cells cannot run here.");
        } else {
            m_noJupyter = true;
            Q_EMIT infoChanged();
            message = tr("This sandbox has no Jupyter API (/v1/jupyter): Python cells cannot run "
                         "here.");
        }
    }
    finishCell(cellId, u"error"_s, {}, std::nullopt, message);
}

void NotebookRunner::dropQueue() {
    for (const QString &id : std::as_const(m_queue)) {
        const int row = m_model->rowOfId(id);
        if (row >= 0)
            m_model->setState(row, CellState::Idle);
    }
    m_queue.clear();
}

void NotebookRunner::tick() {
    const int row = m_model->rowOfId(m_runningId);
    if (row >= 0)
        m_model->setElapsed(row, m_clock.elapsed());
}

void NotebookRunner::setBusy() {
    const bool now = busy();
    if (now == m_wasBusy)
        return;
    m_wasBusy = now;
    Q_EMIT busyChanged(now);
}

} // namespace sbx
