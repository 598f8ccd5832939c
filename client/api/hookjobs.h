#pragma once

#include "client/api/apijob.h"
#include "client/api/shelljobs.h"

#include <QList>
#include <QMetaType>
#include <QPointer>

namespace sbx {

using namespace Qt::StringLiterals;

// One shutdown hook as GET /v1/sandbox/hooks lists it. Env hooks (SANDBOX_SHUTDOWN_HOOKS) are
// fixed for the sandbox's life.
struct SandboxHook {
    QString name;
    QString event = u"shutdown"_s;
    QString command;
    double timeoutSeconds = 10;
    int priority = 100;
    QString source = u"api"_s;
    bool readOnly() const { return source == QLatin1String("env"); }
    bool operator==(const SandboxHook &) const = default;
};

// The server's rules for a hook, checked before sending. Each returns "" when the value is fine.
QString validateHookName(const QString &name);
QString validateHookCommand(const QString &command);
QString validateHookTimeout(double seconds);
// Every broken rule, named by the request field (name, event, command, timeout, priority).
QList<FieldError> validateHook(const SandboxHook &hook);

// Why an env hook cannot be edited or removed, as the console shows it.
QString readOnlyHookReason();
// Whether a failed ListHooksJob means the sandbox has no hooks API at all (a 404 on the route).
bool isNoHooksApi(const Status &status);

// GET /v1/sandbox/hooks?event=...
class ListHooksJob final : public ApiJob {
    Q_OBJECT
public:
    explicit ListHooksJob(SandboxClient *client, const QString &event = u"shutdown"_s);
    const QList<SandboxHook> &hooks() const { return m_hooks; }
Q_SIGNALS:
    void succeeded(const QList<SandboxHook> &hooks);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_hooks); }

private:
    QList<SandboxHook> m_hooks;
};

// POST /v1/sandbox/hooks: registers a hook, or replaces the API hook of the same name.
class RegisterHookJob final : public ApiJob {
    Q_OBJECT
public:
    RegisterHookJob(SandboxClient *client, const SandboxHook &hook);
    const SandboxHook &hook() const { return m_hook; }
Q_SIGNALS:
    void succeeded(const SandboxHook &hook);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_hook); }

private:
    SandboxHook m_hook;
};

// DELETE /v1/sandbox/hooks/{name}. Env hooks are refused (as a 4xx or a 200 success:false).
class DeleteHookJob final : public ApiJob {
    Q_OBJECT
public:
    DeleteHookJob(SandboxClient *client, const QString &name);
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(); }
};

// What running a hook's command by hand gave. status is not ok when a step failed; the
// throwaway session's removal failing is only a warning.
struct HookRunOutcome {
    ShellCommandResult result;
    Status status;
    QString cleanupWarning;
};

// Runs a hook's command once, now, through `sh -c` in a throwaway shell session, stopped after the
// hook's timeout (as shutdown would), and removes the session afterwards whatever happened.
// A Job its owner keeps (it may run again): succeeded once the command ran, whatever its exit
// code; failed when it could not be run. outcome() holds the whole story either way.
class HookTrialRun final : public Job {
    Q_OBJECT
public:
    HookTrialRun(SandboxClient *client, const SandboxHook &hook, QObject *parent = nullptr);
    // Stops waiting; a session already made is still removed.
    ~HookTrialRun() override;
    // Runs it (again, once a previous run has finished).
    void start() override;
    const SandboxHook &hook() const { return m_hook; }
    const HookRunOutcome &outcome() const { return m_outcome; }

Q_SIGNALS:
    void succeeded(const HookRunOutcome &outcome);

protected:
    void emitSucceeded() override { Q_EMIT succeeded(m_outcome); }

private:
    void exec();
    void removeSession();
    void done();

    QPointer<SandboxClient> m_client;
    SandboxHook m_hook;
    QString m_sessionId;
    QPointer<ApiJob> m_job;
    HookRunOutcome m_outcome;
};

// Parses a GET /v1/sandbox/hooks body; exposed for fixture tests.
Status parseHookList(const QByteArray &body, QList<SandboxHook> *out);

} // namespace sbx

Q_DECLARE_METATYPE(sbx::SandboxHook)
Q_DECLARE_METATYPE(sbx::HookRunOutcome)
