#include "client/providers/localsandboxes.h"

#include "client/providers/processtree.h"
#include "client/providers/providerkit.h"
#include "client/providers/secretstore.h"
#include "client/transport/jwtkeys.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QRegularExpression>
#include <QSettings>
#include <QTimer>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <csignal>
#include <sys/prctl.h>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// A server's log starts afresh past this size at its next start (the old one kept as .1).
constexpr qint64 kRotateLogBytes = 64 * 1024 * 1024;

QString settingsGroup(const QString &id) {
    return u"local/"_s + id.section(QLatin1Char(':'), 1);
}

} // namespace

struct LocalSandboxes::Child {
    SandboxEntry entry;
    QString workspace;
    bool ownsWorkspace = false;
    SandboxCreateOptions::Auth auth = SandboxCreateOptions::Auth::ApiKey;
    QString initHook;
    QString preServicesHook;
    QString postReadyHook;
    QByteArray privatePem;         // Auth::Jwt, once read from the secret store or generated
    bool keyLookupPending = false; // reading or generating privatePem before a start
    QProcess *process = nullptr;
    QByteArray stdoutBuffer;
    std::unique_ptr<QFile> log; // the server's stderr, appended while it runs
    bool stopRequested = false;
    bool killedAfterTimeout = false;
    bool removeRequested = false;
    QList<qint64> pausedPids; // empty unless paused
};

QString defaultServerBinary() {
    const QString fromEnv = qEnvironmentVariable("SBX_SERVER_BINARY");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QCoreApplication::applicationDirPath() + u"/sandbox-server"_s;
}

LocalSandboxes::LocalSandboxes(QSettings *settings, Options options, QObject *parent)
    : SandboxProvider(parent)
    , m_settings(settings)
    , m_options(std::move(options))
    , m_ownSecrets(m_options.secrets ? nullptr : std::make_unique<MemorySecretStore>())
    , m_secrets(m_options.secrets ? m_options.secrets : m_ownSecrets.get()) {
    m_settings->beginGroup(u"local"_s);
    const QStringList keys = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &key : keys) {
        auto child = std::make_unique<Child>();
        m_settings->beginGroup(u"local/"_s + key);
        child->entry.id = u"local:"_s + key;
        child->entry.name = m_settings->value(u"name"_s).toString();
        child->workspace = m_settings->value(u"workspace"_s).toString();
        child->ownsWorkspace = m_settings->value(u"ownsWorkspace"_s).toBool();
        child->auth = m_settings->value(u"auth"_s).toString() == QLatin1String("jwt")
                          ? SandboxCreateOptions::Auth::Jwt
                          : SandboxCreateOptions::Auth::ApiKey;
        child->initHook = m_settings->value(u"initHook"_s).toString();
        child->preServicesHook = m_settings->value(u"preServicesHook"_s).toString();
        child->postReadyHook = m_settings->value(u"postReadyHook"_s).toString();
        m_settings->endGroup();
        child->entry.providerState = SandboxState::Stopped;
        child->entry.credentials.kind = child->auth == SandboxCreateOptions::Auth::Jwt
                                            ? Credentials::Kind::SignedJwt
                                            : Credentials::Kind::ApiKey;
        if (!child->workspace.isEmpty())
            m_children.push_back(std::move(child));
    }
}

LocalSandboxes::~LocalSandboxes() {
    stopAll();
    // A delete that was waiting for its sandbox to stop still removes its files.
    for (const auto &child : m_children) {
        if (child->removeRequested)
            eraseFiles(*child);
    }
}

QList<SandboxEntry> LocalSandboxes::sandboxes() const {
    QList<SandboxEntry> out;
    for (const auto &child : m_children)
        out.append(child->entry);
    return out;
}

LifecycleActions LocalSandboxes::actions(const SandboxEntry &entry) const {
    LifecycleActions actions =
        LifecycleAction::Create | LifecycleAction::Delete | LifecycleAction::Logs;
    switch (entry.providerState) {
    case SandboxState::Stopped:
    case SandboxState::Unreachable:
        actions |= LifecycleAction::Start;
        break;
    case SandboxState::Stopping:
        break;
    case SandboxState::Paused:
        actions |= LifecycleAction::Resume | LifecycleAction::Stop;
        break;
    case SandboxState::Starting:
    case SandboxState::Online:
    case SandboxState::AuthFailed:
        actions |= LifecycleAction::Pause | LifecycleAction::Stop;
        break;
    }
    return actions;
}

LocalSandboxes::Child *LocalSandboxes::find(const QString &id) const {
    for (const auto &child : m_children) {
        if (child->entry.id == id)
            return child.get();
    }
    return nullptr;
}

bool LocalSandboxes::isRunning(const Child *child) const {
    return child->process && child->process->state() != QProcess::NotRunning;
}

void LocalSandboxes::persist(const Child &child) {
    m_settings->beginGroup(settingsGroup(child.entry.id));
    m_settings->setValue(u"name"_s, child.entry.name);
    m_settings->setValue(u"workspace"_s, child.workspace);
    m_settings->setValue(u"ownsWorkspace"_s, child.ownsWorkspace);
    m_settings->setValue(u"auth"_s,
                         child.auth == SandboxCreateOptions::Auth::Jwt ? u"jwt"_s : u"apiKey"_s);
    m_settings->setValue(u"initHook"_s, child.initHook);
    m_settings->setValue(u"preServicesHook"_s, child.preServicesHook);
    m_settings->setValue(u"postReadyHook"_s, child.postReadyHook);
    m_settings->endGroup();
    m_settings->sync();
}

LocalSandboxes::Child *LocalSandboxes::add(std::unique_ptr<Child> child) {
    child->entry.credentials.kind = child->auth == SandboxCreateOptions::Auth::Jwt
                                        ? Credentials::Kind::SignedJwt
                                        : Credentials::Kind::ApiKey;
    child->entry.providerState = SandboxState::Stopped;
    persist(*child);
    Q_EMIT sandboxAdded(child->entry);
    m_children.push_back(std::move(child));
    return m_children.back().get();
}

QString LocalSandboxes::create(const SandboxCreateOptions &options) {
    auto child = std::make_unique<Child>();
    const QString key = QUuid::createUuid().toString(QUuid::Id128).left(12);
    child->entry.id = u"local:"_s + key;
    child->entry.name = options.name;
    child->ownsWorkspace = options.workspace.isEmpty();
    child->workspace = options.workspace.isEmpty()
                           ? m_options.dataDir + u"/sandboxes/"_s + key + u"/workspace"_s
                           : options.workspace;
    child->auth = options.auth;
    child->initHook = options.initHook;
    child->preServicesHook = options.preServicesHook;
    child->postReadyHook = options.postReadyHook;
    const QString id = add(std::move(child))->entry.id;
    // For Auth::Jwt, start() finds no key in the store and generates the pair.
    start(id);
    return id;
}

QString LocalSandboxes::create(const QString &name, const QString &workspace) {
    SandboxCreateOptions options;
    options.name = name;
    options.workspace = workspace;
    return create(options);
}

QString LocalSandboxes::ensureDefault(bool startNow) {
    const QString id = QString::fromLatin1(kDefaultId);
    if (!find(id)) {
        auto child = std::make_unique<Child>();
        child->entry.id = id;
        child->entry.name = tr("Local");
        child->ownsWorkspace = true;
        child->workspace = m_options.dataDir + u"/sandboxes/default/workspace"_s;
        add(std::move(child));
    }
    if (startNow)
        start(id);
    else if (Child *child = find(id); child && !isRunning(child))
        setState(child, SandboxState::Starting);
    return id;
}

void LocalSandboxes::setState(Child *child, SandboxState state, const QString &detail) {
    child->entry.providerState = state;
    child->entry.detail = detail;
    Q_EMIT sandboxChanged(child->entry);
}

void LocalSandboxes::fail(Child *child, const QString &why) {
    setState(child, SandboxState::Unreachable, why);
    Q_EMIT actionFailed(child->entry.id, why);
}

void LocalSandboxes::start(const QString &id) {
    Child *child = find(id);
    if (!child || isRunning(child) || child->keyLookupPending || child->removeRequested)
        return;
    if (child->auth == SandboxCreateOptions::Auth::Jwt && child->privatePem.isEmpty()) {
        // After a restart the key is in the secret store (asynchronous, like a keychain).
        child->keyLookupPending = true;
        setState(child, SandboxState::Starting);
        readSandboxSecret(m_secrets, id, this, [this, id](bool found, const QString &secret) {
            const QByteArray pem = found ? secret.toUtf8() : QByteArray();
            if (!publicPemFromPrivate(pem).isEmpty())
                keyReady(id, pem);
            else // a new sandbox, or a key lost with a session-only store: a new pair is fine
                generateKey(id);
        });
        return;
    }
    launch(child);
}

void LocalSandboxes::generateKey(const QString &id) {
    generateKeyPairLater(this, [this, id](const JwtKeyPair &keys) {
        if (find(id) && !keys.privatePem.isEmpty())
            m_secrets->write(sandboxSecretKey(id), QString::fromLatin1(keys.privatePem));
        keyReady(id, keys.privatePem);
    });
}

void LocalSandboxes::keyReady(const QString &id, const QByteArray &privatePem) {
    Child *child = find(id);
    if (!child || !child->keyLookupPending)
        return; // deleted or stopped meanwhile
    child->keyLookupPending = false;
    if (privatePem.isEmpty()) {
        fail(child, tr("Cannot generate a JWT key pair"));
        return;
    }
    child->privatePem = privatePem;
    launch(child);
}

QString LocalSandboxes::stateDir(const QString &id) const {
    return m_options.dataDir + u"/sandboxes/"_s + id.section(QLatin1Char(':'), 1) + u"/state"_s;
}

void LocalSandboxes::launch(Child *child) {
    if (!QDir().mkpath(child->workspace)) {
        fail(child, tr("Cannot create the workspace folder %1").arg(child->workspace));
        return;
    }
    // The server's own state (kernels, hooks, sessions) lives beside the workspace, not in it,
    // where the agent's tools (MCP filesystem, ls) would see it. Earlier versions kept it in
    // WORKSPACE/.sandbox-server: move it once, so that nothing is lost.
    const QString state = stateDir(child->entry.id);
    const QString oldState = child->workspace + u"/.sandbox-server"_s;
    if (!QFileInfo::exists(state) && QFileInfo(oldState).isDir()) {
        QDir().mkpath(QFileInfo(state).absolutePath());
        if (!QDir().rename(oldState, state))
            qWarning("sandbox-console: cannot move %s to %s", qPrintable(oldState),
                     qPrintable(state));
    }
    if (!QDir().mkpath(state)) {
        fail(child, tr("Cannot create the state folder %1").arg(state));
        return;
    }
    if (!QFileInfo(m_options.serverBinary).isExecutable()) {
        fail(child, tr("sandbox-server not found at %1").arg(m_options.serverBinary));
        return;
    }
    openLogFile(child);
    delete child->process;
    child->process = new QProcess(this);
    child->stdoutBuffer.clear();
    child->stopRequested = false;
    child->killedAfterTimeout = false;
    child->pausedPids.clear();
    child->entry.endpoint = {};

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The child's auth and hooks are the console's choice, never inherited from our environment.
    const QStringList inherited = env.keys();
    for (const QString &key : inherited) {
        if (key.startsWith(QLatin1String("RUN_HOOK_")) || key == QLatin1String("JWT_PUBLIC_KEY") ||
            key == QLatin1String("SANDBOX_API_KEY") ||
            key == QLatin1String("SANDBOX_SHUTDOWN_HOOKS") ||
            key == QLatin1String("TICKET_TTL_SECONDS"))
            env.remove(key);
    }
    if (child->auth == SandboxCreateOptions::Auth::Jwt) {
        child->entry.credentials = {Credentials::Kind::SignedJwt,
                                    QString::fromLatin1(child->privatePem)};
        env.insert(u"JWT_PUBLIC_KEY"_s, QString::fromLatin1(jwtPublicKeyEnvValue(
                                            publicPemFromPrivate(child->privatePem))));
    } else {
        child->entry.credentials = {Credentials::Kind::ApiKey, generateApiKey()};
        env.insert(u"SANDBOX_API_KEY"_s, child->entry.credentials.secret);
    }
    const std::pair<const char *, QString> hooks[] = {
        {"RUN_HOOK_INIT", child->initHook},
        {"RUN_HOOK_PRE_SERVICES", child->preServicesHook},
        {"RUN_HOOK_POST_READY", child->postReadyHook},
    };
    for (const auto &[name, command] : hooks) {
        if (!command.trimmed().isEmpty())
            env.insert(QString::fromLatin1(name), command);
    }
    child->process->setProcessEnvironment(env);
    child->process->setWorkingDirectory(child->workspace);
    // The server dies with the console, even when the console crashes.
    child->process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    connect(child->process, &QProcess::readyReadStandardOutput, this,
            [this, child] { onStdout(child); });
    connect(child->process, &QProcess::readyReadStandardError, this,
            [this, child] { onStderr(child); });
    connect(
        child->process, &QProcess::finished, this,
        [this, child](int code, QProcess::ExitStatus status) { onFinished(child, code, status); });
    connect(child->process, &QProcess::errorOccurred, this,
            [this, child](QProcess::ProcessError error) {
                if (error == QProcess::FailedToStart)
                    fail(child, tr("Cannot start %1").arg(m_options.serverBinary));
            });
    setState(child, SandboxState::Starting);
    child->process->start(m_options.serverBinary,
                          {u"--host"_s, u"127.0.0.1"_s, u"--port"_s, u"0"_s, u"--workspace"_s,
                           child->workspace, u"--state-dir"_s, state});
}

void LocalSandboxes::onStdout(Child *child) {
    child->stdoutBuffer += child->process->readAllStandardOutput();
    if (child->entry.endpoint.isValid() || !child->stdoutBuffer.contains('\n'))
        return;
    static const QRegularExpression listening(u"^sandbox-server listening on (http://\\S+)$"_s);
    const QString line =
        QString::fromUtf8(child->stdoutBuffer.left(child->stdoutBuffer.indexOf('\n'))).trimmed();
    const auto match = listening.match(line);
    if (!match.hasMatch()) {
        setState(child, SandboxState::Unreachable,
                 tr("sandbox-server printed an unexpected first line"));
        return;
    }
    child->entry.endpoint.baseUrl = QUrl(match.captured(1));
    // Online from the provider's side; the list's probe decides whether it answers. A sandbox
    // paused while starting stays paused: resume() brings it online.
    if (child->pausedPids.isEmpty() && !child->stopRequested)
        setState(child, SandboxState::Online);
}

void LocalSandboxes::onStderr(Child *child) {
    const QByteArray chunk = child->process->readAllStandardError();
    // Flushed at once: the log view follows the file.
    if (child->log && child->log->write(chunk) == chunk.size())
        child->log->flush();
}

void LocalSandboxes::onFinished(Child *child, int exitCode, QProcess::ExitStatus status) {
    // Killed while paused: its shells may outlive it, stopped; let them see their hangup.
    for (const qint64 pid : std::as_const(child->pausedPids))
        ::kill(static_cast<pid_t>(pid), SIGCONT);
    child->pausedPids.clear();
    child->entry.endpoint = {};
    child->entry.credentials.secret.clear();
    if (child->removeRequested) {
        const QString id = child->entry.id;
        // Not from inside the process's own signal: the QProcess is deleted with the entry.
        QTimer::singleShot(0, this, [this, id] { forget(id); });
        return;
    }
    if (child->stopRequested) {
        setState(child, SandboxState::Stopped,
                 child->killedAfterTimeout ? tr("killed: shutdown hooks did not finish within %1 s")
                                                 .arg(m_options.stopTimeoutMs / 1000)
                                           : QString());
        return;
    }
    const QString why = status == QProcess::CrashExit
                            ? tr("sandbox-server was killed or crashed")
                            : tr("sandbox-server exited with code %1").arg(exitCode);
    setState(child, SandboxState::Unreachable, why);
}

void LocalSandboxes::pause(const QString &id) {
    Child *child = find(id);
    if (!child || !isRunning(child) || child->stopRequested || !child->pausedPids.isEmpty())
        return;
    child->pausedPids = signalProcessTree(child->process->processId(), SIGSTOP);
    if (child->pausedPids.isEmpty()) {
        Q_EMIT actionFailed(id, tr("Cannot pause the sandbox's processes"));
        return;
    }
    setState(child, SandboxState::Paused);
}

void LocalSandboxes::continueProcesses(Child *child) {
    signalProcessTree(child->process->processId(), SIGCONT);
    // Anything that left the tree while stopped (reparented) is continued too.
    for (const qint64 pid : std::as_const(child->pausedPids))
        ::kill(static_cast<pid_t>(pid), SIGCONT);
    child->pausedPids.clear();
}

void LocalSandboxes::resume(const QString &id) {
    Child *child = find(id);
    if (!child || !isRunning(child) || child->pausedPids.isEmpty())
        return;
    continueProcesses(child);
    setState(child,
             child->entry.endpoint.isValid() ? SandboxState::Online : SandboxState::Starting);
}

void LocalSandboxes::stop(const QString &id) {
    Child *child = find(id);
    if (!child)
        return;
    if (child->keyLookupPending) {
        child->keyLookupPending = false;
        setState(child, SandboxState::Stopped);
        return;
    }
    if (!isRunning(child) || child->stopRequested)
        return;
    child->stopRequested = true;
    // A stopped process would keep SIGTERM pending: its shutdown hooks need it running.
    if (!child->pausedPids.isEmpty())
        continueProcesses(child);
    setState(child, SandboxState::Stopping);
    child->process->terminate();
    QProcess *process = child->process;
    QTimer::singleShot(m_options.stopTimeoutMs, process, [child, process] {
        if (process->state() == QProcess::NotRunning)
            return;
        child->killedAfterTimeout = true;
        process->kill();
    });
}

void LocalSandboxes::remove(const QString &id) {
    Child *child = find(id);
    if (!child || child->removeRequested)
        return;
    child->keyLookupPending = false;
    if (isRunning(child)) {
        child->removeRequested = true;
        stop(id);
        return;
    }
    forget(id);
}

void LocalSandboxes::eraseFiles(const Child &child) {
    if (child.ownsWorkspace) {
        // The console made this folder (…/sandboxes/<key>/workspace): remove the key folder,
        // and never anything outside the data directory.
        const QString keyDir = QFileInfo(child.workspace).absolutePath();
        const QString root = QDir(m_options.dataDir + u"/sandboxes"_s).absolutePath();
        if (keyDir.startsWith(root + QLatin1Char('/')))
            QDir(keyDir).removeRecursively();
    }
    // A folder the user chose stays; the server's state beside it goes.
    QDir(stateDir(child.entry.id)).removeRecursively();
    QFile::remove(logPath(child.entry.id));
    QFile::remove(logPath(child.entry.id) + u".1"_s);
    m_settings->remove(settingsGroup(child.entry.id));
    m_settings->sync();
    m_secrets->remove(sandboxSecretKey(child.entry.id));
}

void LocalSandboxes::forget(const QString &id) {
    for (auto it = m_children.begin(); it != m_children.end(); ++it) {
        Child *child = it->get();
        if (child->entry.id != id)
            continue;
        if (child->process) {
            child->process->disconnect(this);
            child->process->deleteLater();
        }
        eraseFiles(*child);
        m_children.erase(it);
        Q_EMIT sandboxRemoved(id);
        return;
    }
}

void LocalSandboxes::stopAll(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    for (const auto &child : m_children) {
        child->keyLookupPending = false;
        if (!isRunning(child.get()))
            continue;
        child->stopRequested = true;
        if (!child->pausedPids.isEmpty())
            continueProcesses(child.get());
        child->process->terminate();
    }
    for (const auto &child : m_children) {
        if (!isRunning(child.get()))
            continue;
        if (!child->process->waitForFinished(
                static_cast<int>(qMax<qint64>(1, deadline.remainingTime())))) {
            child->process->kill();
            child->process->waitForFinished(1000);
        }
    }
}

bool LocalSandboxes::hasRunning() const {
    for (const auto &child : m_children) {
        if (isRunning(child.get()))
            return true;
    }
    return false;
}

qint64 LocalSandboxes::processId(const QString &id) const {
    const Child *child = find(id);
    return child && child->process ? child->process->processId() : 0;
}

QString LocalSandboxes::workspace(const QString &id) const {
    const Child *child = find(id);
    return child ? child->workspace : QString();
}

bool LocalSandboxes::createdWorkspace(const QString &id) const {
    const Child *child = find(id);
    return child && child->ownsWorkspace;
}

QString LocalSandboxes::logPath(const QString &id) const {
    return m_options.dataDir + u"/logs/"_s + id.section(QLatin1Char(':'), 1) + u".log"_s;
}

QString LocalSandboxes::log(const QString &id) const {
    QFile file(logPath(id));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void LocalSandboxes::openLogFile(Child *child) {
    const QString path = logPath(child->entry.id);
    QDir().mkpath(QFileInfo(path).absolutePath());
    child->log.reset();
    if (QFileInfo(path).size() > kRotateLogBytes) {
        QFile::remove(path + u".1"_s);
        QFile::rename(path, path + u".1"_s);
    }
    child->log = std::make_unique<QFile>(path);
    if (!child->log->open(QIODevice::WriteOnly | QIODevice::Append))
        child->log.reset(); // the sandbox runs without a log rather than not at all
}

namespace {

// The server's stderr, in the file the provider appends it to.
class LocalLogSource final : public LogSource {
    Q_OBJECT

public:
    LocalLogSource(LocalSandboxes *provider, QString id, QObject *parent)
        : LogSource(parent)
        , m_provider(provider)
        , m_id(std::move(id)) {}

    void start() override {
        if (!m_provider)
            return;
        connect(m_provider, &SandboxProvider::sandboxRemoved, this, [this](const QString &gone) {
            if (gone == m_id)
                Q_EMIT ended(tr("The sandbox was deleted"));
        });
    }
    QString localFile() const override {
        return m_provider ? m_provider->logPath(m_id) : QString();
    }

private:
    QPointer<LocalSandboxes> m_provider;
    QString m_id;
};

} // namespace

LogSource *LocalSandboxes::openLog(const QString &id, QObject *parent) {
    return find(id) ? new LocalLogSource(this, id, parent) : nullptr;
}

QString LocalSandboxes::deleteEffect(const SandboxEntry &entry) const {
    const Child *child = find(entry.id);
    if (!child)
        return SandboxProvider::deleteEffect(entry);
    return child->ownsWorkspace ? tr("its workspace folder is deleted: %1").arg(child->workspace)
                                : tr("its folder is kept: %1").arg(child->workspace);
}

CreateForm LocalSandboxes::createForm() const {
    CreateForm form;
    form.label = tr("&Local: sandbox-server on this machine");
    form.asksWorkspace = true;
    return form;
}

QString LocalSandboxes::createProblem(const SandboxCreateOptions &options) const {
    if (QString problem = SandboxProvider::createProblem(options); !problem.isEmpty())
        return problem;
    if (!options.workspace.isEmpty() && !QFileInfo(options.workspace).isDir())
        return tr("Choose an existing folder, or let the console create one.");
    return {};
}

} // namespace sbx

#include "localsandboxes.moc"
