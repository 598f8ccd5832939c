#include "client/providers/engine/enginesandboxes.h"

#include "client/api/hookjobs.h"
#include "client/providers/engine/engineapi.h"
#include "client/providers/engine/enginelogs.h"
#include "client/providers/engine/sshlink.h"
#include "client/providers/providerkit.h"
#include "client/providers/secretstore.h"
#include "client/transport/jwtkeys.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSet>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kDefaultPollMs = 3000;
constexpr int kHooksReadBoundMs = 5000;
// An AIO image is large; a slow link may take this long.
constexpr int kPullTimeoutMs = 30 * 60 * 1000;

// The console's record (an API key, or the private key of a JWT sandbox) comes first; else the
// API key the container was configured with. A JWT sandbox whose private key this console does
// not hold cannot be signed for: no credentials, and the probe says auth failed.
Credentials credentialsFor(const EngineContainerDetails &details, const QString &stored) {
    if (stored.startsWith(QLatin1String("-----BEGIN")))
        return {Credentials::Kind::SignedJwt, stored};
    if (!stored.isEmpty() && !details.jwt)
        return {Credentials::Kind::ApiKey, stored};
    if (!details.apiKey.isEmpty())
        return {Credentials::Kind::ApiKey, details.apiKey};
    return {};
}

} // namespace

EngineSandboxes::EngineSandboxes(SecretStore *secrets, const QString &socketPath, QObject *parent)
    : EngineSandboxes(secrets,
                      unixEngineEndpoint(socketPath.isEmpty() ? defaultEngineSocket() : socketPath),
                      parent) {}

EngineSandboxes::EngineSandboxes(SecretStore *secrets, const EngineEndpoint &endpoint,
                                 QObject *parent)
    : SandboxProvider(parent)
    , m_secrets(secrets) {
    EngineEndpoint reached = endpoint;
    if (endpoint.kind == EngineEndpoint::Kind::Ssh) {
        // The Engine API goes through the local end of the link's socket forward.
        m_link = new SshLink(endpoint, this);
        reached.socketPath = m_link->localSocket();
        connect(m_link, &SshLink::stateChanged, this, &EngineSandboxes::onLinkState);
    }
    m_api = new EngineApi(reached, this);
    m_status = tr("Looking for a container engine at %1").arg(endpoint.where());
    m_poll.setInterval(kDefaultPollMs);
    connect(&m_poll, &QTimer::timeout, this, &EngineSandboxes::refresh);
    m_poll.start();
    QTimer::singleShot(0, this, &EngineSandboxes::refresh);
}

EngineSandboxes::~EngineSandboxes() {
    // The API's threads end before the items their answers would touch go away.
    delete m_api;
}

QString EngineSandboxes::socketPath() const {
    return m_api->socketPath();
}

const EngineEndpoint &EngineSandboxes::endpoint() const {
    return m_api->endpoint();
}

QString EngineSandboxes::id() const {
    const QString &name = endpoint().name;
    return name.isEmpty() || name == u"default"_s ? u"engine"_s : u"engine@"_s + name;
}

QString EngineSandboxes::displayName() const {
    const QString &name = endpoint().name;
    return name.isEmpty() || name == u"default"_s ? tr("Containers")
                                                  : tr("Containers on %1").arg(name);
}

EngineSandboxes::EngineState EngineSandboxes::engineState() const {
    if (m_reachable)
        return EngineState::Reachable;
    if (m_link) {
        switch (m_link->state()) {
        case SshLink::State::Idle:
        case SshLink::State::Connecting:
            return EngineState::Connecting;
        case SshLink::State::HostKeyUnknown:
            return EngineState::HostKeyUnknown;
        case SshLink::State::Failed:
            return m_link->failureKind() == SshFailure::Kind::AuthRefused ||
                           m_link->failureKind() == SshFailure::Kind::HostKeyChanged
                       ? EngineState::AuthFailed
                       : EngineState::Unreachable;
        case SshLink::State::Up:
            break;
        }
    }
    if (!m_listed)
        return EngineState::Looking;
    return m_refused ? EngineState::AuthFailed : EngineState::Unreachable;
}

QString EngineSandboxes::remoteHost() const {
    const EngineEndpoint &engine = endpoint();
    return engine.kind == EngineEndpoint::Kind::Tcp && !engine.onLoopback() ? engine.address
                                                                            : QString();
}

void EngineSandboxes::setPollInterval(int ms) {
    m_poll.setInterval(ms);
}

QList<SandboxEntry> EngineSandboxes::sandboxes() const {
    QList<SandboxEntry> out;
    for (const auto &[id, item] : m_items) {
        if (item.announced)
            out.append(item.entry);
    }
    return out;
}

LifecycleActions EngineSandboxes::actions(const SandboxEntry &entry) const {
    LifecycleActions actions = LifecycleAction::Create | LifecycleAction::Logs;
    const Item *item = find(entry.id);
    if (!item || item->busy)
        return actions;
    switch (entry.providerState) {
    case SandboxState::Stopped:
        actions |= LifecycleAction::Start | LifecycleAction::Delete;
        break;
    case SandboxState::Paused:
        actions |= LifecycleAction::Resume | LifecycleAction::Stop | LifecycleAction::Delete;
        break;
    case SandboxState::Stopping:
        break;
    case SandboxState::Starting:
        actions |= LifecycleAction::Stop | LifecycleAction::Delete;
        break;
    default:
        actions |= LifecycleAction::Pause | LifecycleAction::Stop | LifecycleAction::Delete;
        break;
    }
    return actions;
}

EngineSandboxes::Item *EngineSandboxes::find(const QString &id) {
    const auto it = m_items.find(id);
    return it == m_items.end() ? nullptr : &it->second;
}

const EngineSandboxes::Item *EngineSandboxes::find(const QString &id) const {
    const auto it = m_items.find(id);
    return it == m_items.end() ? nullptr : &it->second;
}

QString EngineSandboxes::containerId(const QString &id) const {
    const Item *item = find(id);
    return item ? item->container.id : QString();
}

void EngineSandboxes::refresh() {
    if (m_listing) {
        m_listAgain = true;
        return;
    }
    if (!linkReady())
        return;
    m_listing = true;
    QElapsedTimer clock;
    clock.start();
    m_api->send(EngineRequest::get(u"/containers/json?all=true"_s, 10000), this,
                [this, clock](const EngineResponse &response) {
                    m_listing = false;
                    if (response.ok())
                        m_latencyMs = int(clock.elapsed());
                    onList(response);
                    if (std::exchange(m_listAgain, false))
                        refresh();
                });
}

void EngineSandboxes::setEngineStatus(bool reachable, const QString &status) {
    m_reachable = reachable;
    if (status == m_status)
        return;
    m_status = status;
    Q_EMIT statusChanged(status);
}

void EngineSandboxes::clearAll() {
    std::map<QString, Item> gone;
    gone.swap(m_items);
    for (auto &[id, item] : gone) {
        dropForward(item);
        if (item.announced)
            Q_EMIT sandboxRemoved(id);
    }
}

void EngineSandboxes::onList(const EngineResponse &response) {
    QString error;
    const QList<EngineContainer> containers =
        response.ok() ? parseSandboxContainers(response.body, &error) : QList<EngineContainer>();
    m_listed = true;
    if (!response.ok() || !error.isEmpty()) {
        const Status::Kind kind = response.status().kind;
        m_refused = !response.ok() && (kind == Status::Kind::Auth || kind == Status::Kind::Tls);
        setEngineStatus(false, response.ok() ? error : response.status().message);
        clearAll();
        return;
    }
    setEngineStatus(true, tr("Container engine at %1").arg(endpoint().where()));
    if (endpoint().kind != EngineEndpoint::Kind::Unix && m_engineMemory < 0) {
        m_engineMemory = 0;
        m_api->send(EngineRequest::get(u"/info"_s), this, [this](const EngineResponse &info) {
            m_engineMemory =
                info.ok()
                    ? QJsonDocument::fromJson(info.body).object().value(u"MemTotal"_s).toInteger(-1)
                    : -1;
        });
    }

    QSet<QString> seen;
    for (const EngineContainer &container : containers) {
        const QString id = engineEntryId(container.id, endpoint().name);
        seen.insert(id);
        Item *item = find(id);
        if (!item) {
            Item fresh;
            fresh.container = container;
            fresh.entry.id = id;
            m_items.emplace(id, std::move(fresh));
            resolveDetails(id);
            continue;
        }
        item->container = container;
        syncForward(*item);
        publishIfChanged(*item);
    }
    for (auto it = m_items.begin(); it != m_items.end();) {
        if (seen.contains(it->first)) {
            ++it;
            continue;
        }
        const QString id = it->first;
        const bool announced = it->second.announced;
        dropForward(it->second);
        it = m_items.erase(it);
        // Gone from an engine that answered: removed outside the console, its key is of no use.
        {
            m_secrets->remove(sandboxSecretKey(id));
            m_secrets->remove(id); // the name consoles before 0.2 used
        }
        if (announced)
            Q_EMIT sandboxRemoved(id);
    }
}

SandboxEntry EngineSandboxes::entryFor(const Item &item) const {
    SandboxEntry entry = item.entry;
    entry.name = item.container.name;
    entry.providerState = item.busy && item.busyState
                              ? *item.busyState
                              : sandboxStateForContainer(item.container.state);
    entry.detail = item.busy ? item.busyDetail : containerStatusDetail(item.container.status);
    if (item.missingJwtKey && !item.busy)
        entry.detail =
            tr("%1 (signed-token auth; this console does not hold its key)").arg(entry.detail);
    const bool answers = containerAnswers(item.container);
    entry.endpoint =
        answers ? containerEndpoint(item.container.hostIp, item.container.hostPort, remoteHost())
                : Endpoint();
    if (m_link) {
        // Over SSH only the forward reaches the sandbox.
        entry.endpoint = answers && item.forwardPort > 0
                             ? containerEndpoint(u"127.0.0.1"_s, item.forwardPort)
                             : Endpoint();
        const QString via =
            item.forwardPort > 0 ? m_link->describeForward(item.forwardPort) : item.forwardProblem;
        if (answers && !via.isEmpty())
            entry.detail = entry.detail.isEmpty() ? via : entry.detail + u" \u00b7 "_s + via;
    }
    return entry;
}

void EngineSandboxes::publishIfChanged(Item &item) {
    const SandboxEntry entry = entryFor(item);
    const bool changed = entry.name != item.entry.name || entry.endpoint != item.entry.endpoint ||
                         entry.credentials != item.entry.credentials ||
                         entry.providerState != item.entry.providerState ||
                         entry.detail != item.entry.detail;
    item.entry = entry;
    if (item.announced && changed)
        Q_EMIT sandboxChanged(item.entry);
}

void EngineSandboxes::resolveDetails(const QString &id) {
    const QString containerId = find(id)->container.id;
    m_api->send(EngineRequest::get(u"/containers/%1/json"_s.arg(containerId)), this,
                [this, id](const EngineResponse &response) {
                    Item *item = find(id);
                    if (!item)
                        return;
                    EngineContainerDetails details;
                    if (response.ok() && parseContainerDetails(response.body, &details, nullptr)) {
                        item->tty = details.tty;
                        if (item->container.hostPort == 0 && details.hostPort > 0) {
                            item->container.hostPort = details.hostPort;
                            item->container.hostIp = details.hostIp;
                        }
                    }
                    // Consoles before 0.2 kept the secret under the bare id.
                    readSandboxSecret(
                        m_secrets, id, this,
                        [this, id, details](bool found, const QString &secret) {
                            Item *current = find(id);
                            if (!current)
                                return;
                            current->entry.credentials =
                                credentialsFor(details, found ? secret : QString());
                            current->missingJwtKey =
                                details.jwt && current->entry.credentials.isEmpty();
                            announce(*current);
                        },
                        id);
                });
}

void EngineSandboxes::announce(Item &item) {
    syncForward(item);
    item.entry = entryFor(item);
    if (item.announced) {
        Q_EMIT sandboxChanged(item.entry);
        return;
    }
    item.announced = true;
    Q_EMIT sandboxAdded(item.entry);
}

QString EngineSandboxes::create(const SandboxCreateOptions &asked) {
    SandboxCreateOptions options = asked;
    if (options.publishAddress.isEmpty())
        options.publishAddress = createForm().defaultPublishAddress;
    if (options.image.trimmed().isEmpty()) {
        Q_EMIT actionFailed({}, tr("Choose an image for the sandbox"));
        return {};
    }
    if (!options.name.isEmpty() && !isValidContainerName(options.name)) {
        Q_EMIT actionFailed({}, tr("'%1' cannot be a container name: use letters, digits, '_', "
                                   "'.' and '-', starting with a letter or digit")
                                    .arg(options.name));
        return {};
    }
    if (options.auth == SandboxCreateOptions::Auth::ApiKey) {
        const QString key = generateApiKey();
        createContainer(options, {Credentials::Kind::ApiKey, key}, key);
        return {};
    }
    generateKeyPairLater(this, [this, options](const JwtKeyPair &keys) {
        if (keys.isNull()) {
            Q_EMIT actionFailed({}, tr("Cannot make a key pair for the sandbox"));
            return;
        }
        createContainer(options,
                        {Credentials::Kind::SignedJwt, QString::fromLatin1(keys.privatePem)},
                        QString::fromLatin1(jwtPublicKeyEnvValue(keys.publicPem)));
    });
    return {};
}

QString EngineSandboxes::deleteEffect(const SandboxEntry &) const {
    return tr("the container and its anonymous volumes are removed");
}

CreateForm EngineSandboxes::createForm() const {
    CreateForm form;
    const QString &name = endpoint().name;
    form.label = name.isEmpty() || name == u"default"_s
                     ? tr("&Container: a Docker or podman engine")
                     : tr("Container on %1 (%2)").arg(name, endpoint().where());
    form.unavailable = m_reachable ? QString() : m_status;
    form.asksImage = true;
    form.defaultImage = QString::fromLatin1(kDefaultSandboxImage);
    form.showsKeyOnce = true;
    if (!remoteHost().isEmpty()) {
        // From here only an address of the engine host reaches the sandbox: its loopback
        // does not. The generated key keeps it closed to others who can reach that address.
        form.asksPublishAddress = true;
        const QHostAddress ip(remoteHost());
        form.defaultPublishAddress = ip.isNull() ? u"0.0.0.0"_s : ip.toString();
    }
    return form;
}

QString EngineSandboxes::createProblem(const SandboxCreateOptions &options) const {
    if (QString problem = SandboxProvider::createProblem(options); !problem.isEmpty())
        return problem;
    if (options.image.trimmed().isEmpty())
        return tr("Name the image to start.");
    if (!options.publishAddress.isEmpty() && QHostAddress(options.publishAddress).isNull())
        return tr("Publish on an IP address of the engine host, or 0.0.0.0 for all of them.");
    if (!isValidContainerName(options.name))
        return tr("A container name starts with a letter or digit and holds only letters, "
                  "digits, '_', '.' and '-'.");
    return {};
}

LogSource *EngineSandboxes::openLog(const QString &id, QObject *parent) {
    return openLogs(id, 500, parent);
}

void EngineSandboxes::createContainer(const SandboxCreateOptions &options,
                                      const Credentials &credentials, const QString &authValue,
                                      bool pulled) {
    QString path = u"/containers/create"_s;
    if (!options.name.isEmpty())
        path += u"?name="_s + options.name;
    const QString label = options.name.isEmpty() ? options.image : options.name;
    m_api->send(
        EngineRequest::post(path, containerCreateBody(options, authValue), 60000), this,
        [this, options, credentials, authValue, pulled, label](const EngineResponse &response) {
            // 404 on create: the image is not here yet. Pulled once, then created again.
            if (response.httpStatus == 404 && !pulled) {
                pullThenCreate(options, credentials, authValue);
                return;
            }
            const QString containerId =
                QJsonDocument::fromJson(response.body).object().value(u"Id").toString();
            if (!response.ok() || containerId.isEmpty()) {
                Q_EMIT actionFailed(
                    {},
                    tr("Cannot create the sandbox %1: %2").arg(label, response.status().message));
                return;
            }
            const QString id = engineEntryId(containerId, endpoint().name);
            m_secrets->write(sandboxSecretKey(id), credentials.secret);
            Q_EMIT created(id);
            m_api->send(EngineRequest::post(u"/containers/%1/start"_s.arg(containerId), {}, 60000),
                        this, [this, id, label](const EngineResponse &started) {
                            if (!started.ok())
                                Q_EMIT actionFailed(id, tr("The sandbox %1 was created but "
                                                           "did not start: %2")
                                                            .arg(label, started.status().message));
                            refresh();
                        });
        });
}

void EngineSandboxes::pullThenCreate(const SandboxCreateOptions &options,
                                     const Credentials &credentials, const QString &authValue) {
    Q_EMIT actionNote({}, tr("Pulling %1").arg(options.image));
    const QString path = u"/images/create?fromImage="_s +
                         QString::fromLatin1(QUrl::toPercentEncoding(options.image));
    m_api->send(EngineRequest::post(path, {}, kPullTimeoutMs), this,
                [this, options, credentials, authValue](const EngineResponse &response) {
                    // A pull reports its failures inside a 200 progress stream too.
                    QString error =
                        response.ok() ? pullStreamError(response.body) : response.status().message;
                    if (!error.isEmpty()) {
                        Q_EMIT actionFailed({}, tr("Cannot pull %1: %2").arg(options.image, error));
                        return;
                    }
                    createContainer(options, credentials, authValue, /*pulled=*/true);
                });
}

void EngineSandboxes::containerAction(const QString &id, const QString &verb,
                                      std::optional<SandboxState> busyState,
                                      const QString &failureText, std::function<void()> then,
                                      int timeoutMs) {
    Item *item = find(id);
    if (!item) {
        Q_EMIT actionFailed(id, tr("No such container sandbox"));
        return;
    }
    ++item->busy;
    item->busyState = busyState;
    publishIfChanged(*item);
    m_api->send(
        EngineRequest::post(u"/containers/%1/%2"_s.arg(item->container.id, verb), {}, timeoutMs),
        this, [this, id, failureText, then = std::move(then)](const EngineResponse &response) {
            if (Item *current = find(id); current && --current->busy == 0)
                current->busyDetail.clear();
            // 304: already in the asked state.
            if (response.ok() || response.httpStatus == 304) {
                if (then) {
                    then();
                    return;
                }
            } else {
                Q_EMIT actionFailed(id, failureText + u": "_s + response.status().message);
            }
            refresh();
        });
}

void EngineSandboxes::start(const QString &id) {
    containerAction(id, u"start"_s, SandboxState::Starting, tr("Cannot start the sandbox"));
}

void EngineSandboxes::pause(const QString &id) {
    containerAction(id, u"pause"_s, std::nullopt, tr("Cannot pause the sandbox"));
}

void EngineSandboxes::resume(const QString &id) {
    containerAction(id, u"unpause"_s, SandboxState::Starting, tr("Cannot resume the sandbox"));
}

void EngineSandboxes::stop(const QString &id) {
    stopThen(id, {});
}

void EngineSandboxes::stopThen(const QString &id, std::function<void()> then) {
    Item *item = find(id);
    if (!item) {
        Q_EMIT actionFailed(id, tr("No such container sandbox"));
        return;
    }
    const QString state = item->container.state;
    if (state == QLatin1String("exited") || state == QLatin1String("created") ||
        state == QLatin1String("dead") || state == QLatin1String("stopped")) {
        if (then)
            then();
        return;
    }
    if (state == QLatin1String("paused")) {
        // A paused sandbox cannot run its shutdown hooks: resume it first.
        containerAction(id, u"unpause"_s, SandboxState::Stopping,
                        tr("Cannot resume the sandbox to stop it"), [this, id, then] {
                            if (Item *current = find(id))
                                current->container.state = u"running"_s;
                            stopThen(id, then);
                        });
        return;
    }
    readStopGrace(id, [this, id, then](int grace, const QString &why) {
        Item *current = find(id);
        if (!current)
            return;
        const QString note = tr("Stopping: up to %1 s (%2)").arg(grace).arg(why);
        current->busyDetail = note;
        Q_EMIT actionNote(id, note);
        containerAction(id, u"stop?t=%1"_s.arg(grace), SandboxState::Stopping,
                        tr("Cannot stop the sandbox"), then, (grace + 30) * 1000);
    });
}

void EngineSandboxes::readStopGrace(const QString &id,
                                    std::function<void(int grace, const QString &why)> done) {
    Item *item = find(id);
    if (!item->entry.endpoint.isValid()) {
        done(kDefaultStopGraceSeconds,
             tr("the default: the sandbox has no published port to ask for its "
                "shutdown hooks"));
        return;
    }
    ++item->busy;
    item->busyState = SandboxState::Stopping;
    item->busyDetail = tr("Reading shutdown hooks");
    publishIfChanged(*item);
    auto *client = new SandboxClient(item->entry.endpoint, item->entry.credentials, this);
    auto *job = new ListHooksJob(client);
    // Each path below answers once; the client (and the job) go when it has.
    auto answered = std::make_shared<bool>(false);
    auto answer = [this, id, client, answered, done = std::move(done)](int grace,
                                                                       const QString &why) {
        if (std::exchange(*answered, true))
            return;
        client->deleteLater();
        if (Item *current = find(id); current && --current->busy == 0)
            current->busyDetail.clear();
        done(grace, why);
    };
    connect(job, &ListHooksJob::succeeded, client, [answer](const QList<SandboxHook> &hooks) {
        QList<QPair<int, double>> lanes;
        for (const SandboxHook &hook : hooks)
            lanes.append({hook.priority, hook.timeoutSeconds});
        const QString what =
            hooks.size() == 1 ? tr("1 shutdown hook") : tr("%1 shutdown hooks").arg(hooks.size());
        answer(stopGraceSeconds(lanes), tr("%1 and a margin").arg(what));
    });
    connect(job, &ApiJob::failed, client, [answer](const Status &status) {
        answer(kDefaultStopGraceSeconds,
               tr("the default: the shutdown hooks could not be read: %1").arg(status.message));
    });
    // A sandbox that does not answer soon is not waited for: the stop itself matters more.
    QTimer::singleShot(kHooksReadBoundMs, client, [job = QPointer<ListHooksJob>(job), answer] {
        if (job)
            job->abort();
        answer(kDefaultStopGraceSeconds,
               tr("the default: the sandbox did not list its shutdown hooks in time"));
    });
    job->start();
}

void EngineSandboxes::remove(const QString &id) {
    stopThen(id, [this, id] { deleteContainer(id); });
}

void EngineSandboxes::deleteContainer(const QString &id) {
    Item *item = find(id);
    if (!item)
        return;
    ++item->busy;
    item->busyState = SandboxState::Stopping;
    publishIfChanged(*item);
    EngineRequest request;
    request.method = "DELETE";
    request.path = u"/containers/%1?force=false&v=true"_s.arg(item->container.id);
    request.timeoutMs = 60000;
    m_api->send(request, this, [this, id](const EngineResponse &response) {
        if (Item *current = find(id); current && --current->busy == 0)
            current->busyDetail.clear();
        if (response.ok() || response.httpStatus == 404) {
            m_secrets->remove(sandboxSecretKey(id));
            m_secrets->remove(id); // the name consoles before 0.2 used
        } else
            Q_EMIT actionFailed(id,
                                tr("Cannot delete the sandbox: %1").arg(response.status().message));
        refresh();
    });
}

EngineLogStream *EngineSandboxes::openLogs(const QString &id, int tail, QObject *parent) {
    const Item *item = find(id);
    if (!item)
        return nullptr;
    return new EngineLogStream(m_api->endpoint(), item->container.id, item->tty, tail, parent);
}

} // namespace sbx
