#include "client/providers/localsandboxes.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSettings>
#include <QUuid>

#include <csignal>
#include <sys/prctl.h>

namespace {

constexpr qsizetype maxLogBytes = 512 * 1024;

QString generateApiKey() {
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString settingsGroup(const QString &id) {
    return QStringLiteral("local/") + id.section(QLatin1Char(':'), 1);
}

} // namespace

struct LocalSandboxes::Child {
    SandboxEntry entry;
    QString workspace;
    bool ownsWorkspace = false;
    QProcess *process = nullptr;
    QByteArray stdoutBuffer;
    QByteArray log;
    bool stopRequested = false;
};

QString defaultServerBinary() {
    const QString fromEnv = qEnvironmentVariable("SBX_SERVER_BINARY");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/sandbox-server");
}

LocalSandboxes::LocalSandboxes(QSettings *settings, Options options, QObject *parent)
    : SandboxProvider(parent)
    , m_settings(settings)
    , m_options(std::move(options)) {
    m_settings->beginGroup(QStringLiteral("local"));
    const QStringList keys = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &key : keys) {
        auto child = std::make_unique<Child>();
        m_settings->beginGroup(QStringLiteral("local/") + key);
        child->entry.id = QStringLiteral("local:") + key;
        child->entry.name = m_settings->value(QStringLiteral("name")).toString();
        child->workspace = m_settings->value(QStringLiteral("workspace")).toString();
        child->ownsWorkspace = m_settings->value(QStringLiteral("ownsWorkspace")).toBool();
        m_settings->endGroup();
        child->entry.providerState = SandboxState::Stopped;
        child->entry.credentials.kind = Credentials::Kind::ApiKey;
        if (!child->workspace.isEmpty())
            m_children.push_back(std::move(child));
    }
}

LocalSandboxes::~LocalSandboxes() {
    stopAll();
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
    default:
        actions |= LifecycleAction::Stop;
        break;
    }
    return actions;
}

void LocalSandboxes::perform(const QString &id, LifecycleAction action) {
    switch (action) {
    case LifecycleAction::Start:
        start(id);
        break;
    case LifecycleAction::Stop:
        stop(id);
        break;
    case LifecycleAction::Delete:
        remove(id);
        break;
    default:
        Q_EMIT actionFailed(id, QStringLiteral("Local sandboxes cannot do that yet"));
        break;
    }
}

LocalSandboxes::Child *LocalSandboxes::find(const QString &id) const {
    for (const auto &child : m_children) {
        if (child->entry.id == id)
            return child.get();
    }
    return nullptr;
}

void LocalSandboxes::persist(const Child &child) {
    m_settings->beginGroup(settingsGroup(child.entry.id));
    m_settings->setValue(QStringLiteral("name"), child.entry.name);
    m_settings->setValue(QStringLiteral("workspace"), child.workspace);
    m_settings->setValue(QStringLiteral("ownsWorkspace"), child.ownsWorkspace);
    m_settings->endGroup();
    m_settings->sync();
}

QString LocalSandboxes::create(const QString &name, const QString &workspace) {
    auto child = std::make_unique<Child>();
    const QString key = QUuid::createUuid().toString(QUuid::Id128).left(12);
    child->entry.id = QStringLiteral("local:") + key;
    child->entry.name = name;
    child->entry.credentials.kind = Credentials::Kind::ApiKey;
    child->entry.providerState = SandboxState::Stopped;
    child->ownsWorkspace = workspace.isEmpty();
    child->workspace = workspace.isEmpty() ? m_options.dataDir + QStringLiteral("/sandboxes/") +
                                                 key + QStringLiteral("/workspace")
                                           : workspace;
    const QString id = child->entry.id;
    persist(*child);
    Q_EMIT sandboxAdded(child->entry);
    m_children.push_back(std::move(child));
    start(id);
    return id;
}

QString LocalSandboxes::ensureDefault() {
    const QString id = QString::fromLatin1(defaultId);
    if (!find(id)) {
        auto child = std::make_unique<Child>();
        child->entry.id = id;
        child->entry.name = QStringLiteral("Local");
        child->entry.credentials.kind = Credentials::Kind::ApiKey;
        child->entry.providerState = SandboxState::Stopped;
        child->ownsWorkspace = true;
        child->workspace = m_options.dataDir + QStringLiteral("/sandboxes/default/workspace");
        persist(*child);
        Q_EMIT sandboxAdded(child->entry);
        m_children.push_back(std::move(child));
    }
    start(id);
    return id;
}

void LocalSandboxes::setState(Child *child, SandboxState state, const QString &detail) {
    child->entry.providerState = state;
    child->entry.detail = detail;
    Q_EMIT sandboxChanged(child->entry);
}

void LocalSandboxes::start(const QString &id) {
    Child *child = find(id);
    if (!child || (child->process && child->process->state() != QProcess::NotRunning))
        return;
    if (!QDir().mkpath(child->workspace)) {
        setState(child, SandboxState::Unreachable,
                 QStringLiteral("Cannot create the workspace folder %1").arg(child->workspace));
        Q_EMIT actionFailed(id, child->entry.detail);
        return;
    }
    if (!QFileInfo(m_options.serverBinary).isExecutable()) {
        setState(child, SandboxState::Unreachable,
                 QStringLiteral("sandbox-server not found at %1").arg(m_options.serverBinary));
        Q_EMIT actionFailed(id, child->entry.detail);
        return;
    }
    delete child->process;
    child->process = new QProcess(this);
    child->stdoutBuffer.clear();
    child->stopRequested = false;
    child->entry.endpoint = {};
    child->entry.credentials.secret = generateApiKey();

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The child's auth and hooks are the console's choice, never inherited from our environment.
    const QStringList inherited = env.keys();
    for (const QString &key : inherited) {
        if (key.startsWith(QLatin1String("RUN_HOOK_")) || key == QLatin1String("JWT_PUBLIC_KEY") ||
            key == QLatin1String("SANDBOX_SHUTDOWN_HOOKS") ||
            key == QLatin1String("TICKET_TTL_SECONDS"))
            env.remove(key);
    }
    env.insert(QStringLiteral("SANDBOX_API_KEY"), child->entry.credentials.secret);
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
                if (error != QProcess::FailedToStart)
                    return;
                setState(child, SandboxState::Unreachable,
                         QStringLiteral("Cannot start %1").arg(m_options.serverBinary));
                Q_EMIT actionFailed(child->entry.id, child->entry.detail);
            });
    setState(child, SandboxState::Starting);
    child->process->start(m_options.serverBinary,
                          {QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                           QStringLiteral("--port"), QStringLiteral("0"),
                           QStringLiteral("--workspace"), child->workspace});
}

void LocalSandboxes::onStdout(Child *child) {
    child->stdoutBuffer += child->process->readAllStandardOutput();
    if (child->entry.endpoint.isValid() || !child->stdoutBuffer.contains('\n'))
        return;
    static const QRegularExpression listening(
        QStringLiteral("^sandbox-server listening on (http://\\S+)$"));
    const QString line =
        QString::fromUtf8(child->stdoutBuffer.left(child->stdoutBuffer.indexOf('\n'))).trimmed();
    const auto match = listening.match(line);
    if (!match.hasMatch()) {
        setState(child, SandboxState::Unreachable,
                 QStringLiteral("sandbox-server printed an unexpected first line"));
        return;
    }
    child->entry.endpoint.baseUrl = QUrl(match.captured(1));
    // Online from the provider's side; the list's probe decides whether it answers.
    setState(child, SandboxState::Online);
}

void LocalSandboxes::onStderr(Child *child) {
    const QByteArray chunk = child->process->readAllStandardError();
    child->log += chunk;
    if (child->log.size() > maxLogBytes)
        child->log.remove(0, child->log.size() - maxLogBytes);
    Q_EMIT logAppended(child->entry.id, QString::fromUtf8(chunk));
}

void LocalSandboxes::onFinished(Child *child, int exitCode, QProcess::ExitStatus status) {
    child->entry.endpoint = {};
    child->entry.credentials.secret.clear();
    if (child->stopRequested) {
        setState(child, SandboxState::Stopped);
        return;
    }
    const QString why = status == QProcess::CrashExit
                            ? QStringLiteral("sandbox-server was killed or crashed")
                            : QStringLiteral("sandbox-server exited with code %1").arg(exitCode);
    setState(child, SandboxState::Unreachable, why);
}

void LocalSandboxes::stop(const QString &id) {
    Child *child = find(id);
    if (!child || !child->process || child->process->state() == QProcess::NotRunning)
        return;
    child->stopRequested = true;
    setState(child, SandboxState::Stopping);
    child->process->terminate();
}

void LocalSandboxes::remove(const QString &id) {
    Child *child = find(id);
    if (!child)
        return;
    if (child->process && child->process->state() != QProcess::NotRunning) {
        child->stopRequested = true;
        child->process->disconnect(this);
        child->process->terminate();
        if (!child->process->waitForFinished(5000))
            child->process->kill();
    }
    if (child->ownsWorkspace) {
        // The console made this folder (…/sandboxes/<key>/workspace): remove the whole key folder.
        QDir(QFileInfo(child->workspace).absolutePath()).removeRecursively();
    }
    m_settings->remove(settingsGroup(id));
    m_settings->sync();
    for (auto it = m_children.begin(); it != m_children.end(); ++it) {
        if (it->get() == child) {
            m_children.erase(it);
            break;
        }
    }
    Q_EMIT sandboxRemoved(id);
}

void LocalSandboxes::stopAll(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    for (const auto &child : m_children) {
        if (child->process && child->process->state() != QProcess::NotRunning) {
            child->stopRequested = true;
            child->process->terminate();
        }
    }
    for (const auto &child : m_children) {
        if (!child->process || child->process->state() == QProcess::NotRunning)
            continue;
        if (!child->process->waitForFinished(
                static_cast<int>(qMax<qint64>(1, deadline.remainingTime()))))
            child->process->kill();
    }
}

bool LocalSandboxes::hasRunning() const {
    for (const auto &child : m_children) {
        if (child->process && child->process->state() != QProcess::NotRunning)
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

QString LocalSandboxes::log(const QString &id) const {
    const Child *child = find(id);
    return child ? QString::fromUtf8(child->log) : QString();
}
