#pragma once

#include "client/api/codejobs.h"
#include "client/api/jupyterjobs.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

class QTimer;

namespace sbx {

class NotebookModel;
class SandboxClient;

// Runs a notebook's cells in order, one at a time: Python through one Jupyter kernel session
// of its own (/v1/jupyter, made at the first run, deleted at restart and when the runner
// goes), JavaScript through /v1/code in a fresh node process each. A cell's state goes queued,
// running (with its elapsed time ticking), then done or error; an error stops the cells queued
// after it, as Jupyter's Run All does. Interrupt uses sandbox-server's jupyter-interrupt
// extension; without it a cell stops only at its timeout, and the runner says so.
class NotebookRunner final : public QObject {
    Q_OBJECT
public:
    NotebookRunner(SandboxClient *client, NotebookModel *model, QObject *parent = nullptr);
    ~NotebookRunner() override;

    // GET /v1/jupyter/info and /v1/code/info: the kernels to choose from, or that there is no
    // Jupyter API; GET /v1/sandbox too, for the extensions (interrupt) and the home folder.
    // infoChanged() as they answer.
    void loadInfo();
    bool infoLoaded() const { return m_infoLoaded; }
    const JupyterInfo &info() const { return m_info; }
    // The sandbox answered 404 on /v1/jupyter: Python cells cannot run.
    bool noJupyterApi() const { return m_noJupyter; }
    // The sandbox has no node (or no /v1/code): JavaScript cells cannot run.
    bool javascriptAvailable() const { return m_javascript; }
    QString infoError() const { return m_infoError; }
    // The sandbox's home folder (GET /v1/sandbox, asked by loadInfo()), for suggested paths.
    QString homeDir() const { return m_homeDir; }

    // The kernel for the next session; the current session keeps its own until restart().
    void setKernelName(const QString &name);
    QString kernelName() const { return m_kernelName; }
    QString sessionId() const { return m_sessionId; }
    void setTimeoutSeconds(int seconds);
    int timeoutSeconds() const { return m_timeoutSeconds; }

    // Queues the cell (a markdown cell is only marked done: it renders).
    void run(int row);
    void runAll();
    // Whether interrupt() can stop running Python now (the sandbox has the extension).
    bool canInterrupt() const;
    // Stops what runs: Python by the extension (the cell ends with KeyboardInterrupt), else
    // interruptUnavailable() says when it stops; queued cells go back to idle.
    void interrupt();
    // A new kernel: the session is deleted (what runs ends with it), variables are lost, the
    // next run makes a new one.
    void restart();

    bool busy() const { return !m_runningId.isEmpty() || !m_queue.isEmpty(); }
    QString runningCellId() const { return m_runningId; }
    QStringList queuedCellIds() const { return m_queue; }

Q_SIGNALS:
    void infoChanged();
    void busyChanged(bool busy);
    // Something for the person to read about the kernel (restarted, a request failed).
    void notice(const QString &text);
    // interrupt() could not stop the running cell; text says when it will stop.
    void interruptUnavailable(const QString &text);
    // A cell's run ended (done or error).
    void cellFinished(const QString &cellId);
    void sessionChanged(const QString &sessionId);

private:
    void pump();
    void startCell(int row);
    void runPython(const QString &cellId, const QString &code);
    void runJavascript(const QString &cellId, const QString &code);
    void finishCell(const QString &cellId, const QString &status, const QList<CodeOutput> &outputs,
                    std::optional<int> count, QString note);
    void failCell(const QString &cellId, const Status &status);
    void dropQueue();
    void tick();
    void setBusy();

    QPointer<SandboxClient> m_client;
    NotebookModel *m_model;
    JupyterInfo m_info;
    bool m_infoLoaded = false;
    bool m_noJupyter = false;
    bool m_javascript = true;
    QString m_infoError;
    QString m_homeDir;
    QString m_kernelName;
    QString m_sessionId;
    bool m_creatingSession = false;
    QString m_pendingSessionId;
    int m_timeoutSeconds = 300;
    // Cell ids, not rows: cells move and are deleted while they wait.
    QStringList m_queue;
    QString m_runningId;
    // The running cell interrupt() was asked for: its KeyboardInterrupt is no failure to report.
    QString m_interruptedId;
    QPointer<ApiJob> m_job;
    QElapsedTimer m_clock;
    QTimer *m_ticker;
    bool m_wasBusy = false;
    // Bumped by restart(): answers of an older session's requests are ignored.
    int m_generation = 0;
};

} // namespace sbx
