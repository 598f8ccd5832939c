#include "client/api/hookjobs.h"

#include "client/api/envelope.h"
#include "client/api/remotecommand.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {

constexpr int kMaxNameLength = 64;
constexpr int kMaxCommandLength = 4096;

SandboxHook hookFromJson(const json &j) {
    SandboxHook hook;
    hook.name = jsonString(j, "name");
    hook.event = jsonString(j, "event", hook.event);
    hook.command = jsonString(j, "command");
    hook.timeoutSeconds = jsonDouble(j, "timeout", hook.timeoutSeconds);
    hook.priority = static_cast<int>(jsonInt(j, "priority", hook.priority));
    hook.source = jsonString(j, "source", hook.source);
    return hook;
}

QByteArray registerBody(const SandboxHook &hook) {
    const json body{{"name", hook.name.toStdString()},
                    {"event", hook.event.toStdString()},
                    {"command", hook.command.toStdString()},
                    {"timeout", hook.timeoutSeconds},
                    {"priority", hook.priority}};
    return QByteArray::fromStdString(body.dump());
}

} // namespace

QString validateHookName(const QString &name) {
    static const QRegularExpression allowed(u"^[A-Za-z0-9_-]+$"_s);
    if (name.isEmpty())
        return QCoreApplication::translate("sbx::SandboxHook", "A name is required");
    if (name.size() > kMaxNameLength)
        return QCoreApplication::translate("sbx::SandboxHook",
                                           "At most %1 characters (this one has %2)")
            .arg(kMaxNameLength)
            .arg(name.size());
    if (!allowed.match(name).hasMatch())
        return QCoreApplication::translate("sbx::SandboxHook",
                                           "Only letters A-Z and a-z, digits, '_' and '-'");
    return {};
}

QString validateHookCommand(const QString &command) {
    if (command.trimmed().isEmpty())
        return u"A command is required"_s;
    if (command.size() > kMaxCommandLength)
        return QCoreApplication::translate("sbx::SandboxHook",
                                           "At most %1 characters (this one has %2)")
            .arg(kMaxCommandLength)
            .arg(command.size());
    return {};
}

QString validateHookTimeout(double seconds) {
    // HookRegistration's timeout is any JSON number: what 0 or less means is the sandbox's to
    // say (an agent may have registered it), so only what JSON cannot carry is refused.
    if (!std::isfinite(seconds))
        return QCoreApplication::translate("sbx::SandboxHook",
                                           "The timeout must be a number of seconds");
    return {};
}

QList<FieldError> validateHook(const SandboxHook &hook) {
    QList<FieldError> errors;
    auto check = [&errors](const char *field, const QString &message) {
        if (!message.isEmpty())
            errors.append({QString::fromLatin1(field), message});
    };
    check("name", validateHookName(hook.name));
    if (hook.event != QLatin1String("shutdown"))
        check("event",
              QCoreApplication::translate("sbx::SandboxHook", "Only shutdown hooks exist"));
    check("command", validateHookCommand(hook.command));
    check("timeout", validateHookTimeout(hook.timeoutSeconds));
    return errors;
}

QString readOnlyHookReason() {
    return QCoreApplication::translate(
        "sbx::SandboxHook",
        "Set by SANDBOX_SHUTDOWN_HOOKS when the sandbox started; cannot be changed here.");
}

bool isNoHooksApi(const Status &status) {
    return status.kind == Status::Kind::NotFound && status.httpStatus == 404;
}

Status parseHookList(const QByteArray &body, QList<SandboxHook> *out) {
    const QString what = u"GET /v1/sandbox/hooks"_s;
    Envelope envelope;
    if (Status s = parseEnvelope(body, what, &envelope); !s.ok())
        return s;
    if (!envelope.data.is_array())
        return Status::error(Status::Kind::BadResponse,
                             u"%1: the reply has no list of hooks"_s.arg(what));
    out->clear();
    for (const json &item : envelope.data) {
        SandboxHook hook = hookFromJson(item);
        if (!hook.name.isEmpty())
            out->append(std::move(hook));
    }
    return Status::success();
}

ListHooksJob::ListHooksJob(SandboxClient *client, const QString &event)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(u"v1/sandbox/hooks"_s);
        r.query.addQueryItem(u"event"_s, event);
        return r;
    }()) {}

Status ListHooksJob::parseReply(const QByteArray &body, QNetworkReply *) {
    return parseHookList(body, &m_hooks);
}

RegisterHookJob::RegisterHookJob(SandboxClient *client, const SandboxHook &hook)
    : ApiJob(client, ApiRequest::postJson(u"v1/sandbox/hooks"_s, registerBody(hook)))
    , m_hook(hook) {}

Status RegisterHookJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    // The server's copy wins (its source, defaults); a bare success keeps what was sent.
    if (envelope.data.is_object() && !jsonString(envelope.data, "name").isEmpty())
        m_hook = hookFromJson(envelope.data);
    return Status::success();
}

DeleteHookJob::DeleteHookJob(SandboxClient *client, const QString &name)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(u"v1/sandbox/hooks/"_s +
                                       QString::fromLatin1(QUrl::toPercentEncoding(name)));
        r.verb = "DELETE";
        // A repeat after a lost answer would report the hook as missing.
        r.idempotent = false;
        return r;
    }()) {}

Status DeleteHookJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    return parseEnvelope(body, what(), &envelope);
}

HookTrialRun::HookTrialRun(SandboxClient *client, const SandboxHook &hook, QObject *parent)
    : Job(parent)
    , m_client(client)
    , m_hook(hook) {
    setDeleteWhenDone(false);
}

HookTrialRun::~HookTrialRun() {
    if (!isRunning() || !m_client)
        return;
    SandboxClient *client = m_client;
    if (auto *create = qobject_cast<CreateShellSessionJob *>(m_job.data())) {
        // The session is not known yet: remove it once it exists.
        create->disconnect(this);
        connect(create, &CreateShellSessionJob::succeeded, client,
                [client](const QString &sessionId) {
                    (new DeleteShellSessionJob(client, sessionId))->start();
                });
        return;
    }
    if (m_job)
        m_job->abort();
    if (!m_sessionId.isEmpty())
        (new DeleteShellSessionJob(client, m_sessionId))->start();
}

void HookTrialRun::start() {
    if (isRunning())
        return;
    reset();
    beginStart();
    m_outcome = {};
    m_sessionId.clear();
    if (!m_client) {
        m_outcome.status = Status::error(Status::Kind::Cancelled, tr("The sandbox was closed"));
        done();
        return;
    }
    auto *job = new CreateShellSessionJob(m_client);
    m_job = job;
    connect(job, &CreateShellSessionJob::succeeded, this, [this](const QString &sessionId) {
        m_sessionId = sessionId;
        exec();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_outcome.status = status;
        m_outcome.status.message =
            tr("Could not open a shell session to run it in: ") + status.message;
        done();
    });
    job->start();
}

void HookTrialRun::exec() {
    if (!m_client) {
        done();
        return;
    }
    ShellExecRequest request;
    // As the shutdown runs it: one `sh -c`, so that several lines give one result and an `exit`
    // ends the hook, not the session's shell.
    request.command = u"sh -c "_s + shellQuote(m_hook.command);
    request.sessionId = m_sessionId;
    request.hardTimeoutSeconds = m_hook.timeoutSeconds;
    // Wait past the hard stop, so the answer is the end of the command and not "running".
    request.timeoutSeconds = m_hook.timeoutSeconds + 5;
    auto *job = new ShellExecJob(m_client, request);
    m_job = job;
    connect(job, &ShellExecJob::succeeded, this, [this](const ShellCommandResult &result) {
        m_outcome.result = result;
        removeSession();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_outcome.status = status;
        m_outcome.status.message = tr("Running the command failed: ") + status.message;
        removeSession();
    });
    job->start();
}

void HookTrialRun::removeSession() {
    if (!m_client) {
        done();
        return;
    }
    auto *job = new DeleteShellSessionJob(m_client, m_sessionId);
    m_job = job;
    connect(job, &DeleteShellSessionJob::succeeded, this, [this] {
        m_sessionId.clear();
        done();
    });
    connect(job, &ApiJob::failed, this, [this](const Status &status) {
        m_outcome.cleanupWarning = tr("The shell session %1 it ran in could not be removed: %2")
                                       .arg(m_sessionId, status.message);
        m_sessionId.clear();
        done();
    });
    job->start();
}

void HookTrialRun::done() {
    m_job = nullptr;
    complete(m_outcome.status);
}

} // namespace sbx
