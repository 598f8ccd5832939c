// The engine provider against a real podman service the suite starts itself: a sandbox created,
// reached, paused, resumed, logged, stopped and removed the way a person would see it.
#include "client/api/filejobs.h"
#include "client/api/hookjobs.h"
#include "client/api/sandboxjobs.h"
#include "client/providers/engine/enginelogs.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/secretstore.h"
#include "models/monitor/monitorfigures.h"
#include "models/monitor/monitorpoller.h"
#include "tests/engine/enginetestkit.h"
#include "tests/engine/podmanservice.h"

#include <QDeadlineTimer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <optional>

using namespace sbx;
using namespace sbxtest;

using namespace Qt::StringLiterals;

namespace {

constexpr auto imageName = "localhost/sbx-engine-test:latest";
// The same server without its observe endpoints, as an older AIO image.
constexpr auto noObserveImage = "localhost/sbx-engine-test-no-observe:latest";
constexpr int startBoundMs = kStartBoundMs;

} // namespace

class TestEngine final : public QObject {
    Q_OBJECT

    std::unique_ptr<PodmanService> m_podman;
    MemorySecretStore m_secrets;
    std::unique_ptr<EngineSandboxes> m_provider;
    QString m_id;
    QString m_name;

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void createStartsAnOnlineSandbox();
    void contextReadThroughTheEntry();
    void statsGiveTheContainersFigures();
    void monitorFallsBackToEngineStats();
    void pauseAndResume();
    void logsShowHookOutputAndStartup();
    void keyRecoveredFromTheContainer();
    void stopRunsShutdownHooksThenStartAgain();
    void stopWithUnreadableHooksUsesTheDefaultGrace();
    void missingImageIsPulledOrExplained();
    void jwtSandboxSignedByTheConsole();
    void removedOutsideTheConsole();
    void removeDeletesTheContainer();
};

void TestEngine::initTestCase() {
    m_podman = std::make_unique<PodmanService>();
    if (!m_podman->start())
        QSKIP(qPrintable(u"no container engine: "_s + m_podman->unavailableReason()));
    QVERIFY2(m_podman->importSandboxImage(QStringLiteral(SBX_SERVER_BINARY),
                                          QString::fromLatin1(imageName)),
             qPrintable(m_podman->unavailableReason()));
    QVERIFY2(m_podman->importSandboxImage(QStringLiteral(SBX_SERVER_BINARY),
                                          QString::fromLatin1(noObserveImage),
                                          {u"--without"_s, u"observe"_s}),
             qPrintable(m_podman->unavailableReason()));
    if (!m_podman->canRunContainers(QString::fromLatin1(imageName)))
        QSKIP(qPrintable(u"no container can run: "_s + m_podman->unavailableReason()));
    m_provider = std::make_unique<EngineSandboxes>(&m_secrets, m_podman->socketPath());
    m_provider->setPollInterval(250);
    QTRY_VERIFY_WITH_TIMEOUT(m_provider->isEngineReachable(), 10000);
    QVERIFY(m_provider->status().contains(m_podman->socketPath()));
    m_name = u"sbx-engine-test-%1"_s.arg(QRandomGenerator::global()->generate() % 100000);
}

void TestEngine::cleanupTestCase() {
    m_provider.reset();
    m_podman.reset();
}

void TestEngine::createStartsAnOnlineSandbox() {
    QSignalSpy created(m_provider.get(), &SandboxProvider::created);
    QSignalSpy failed(m_provider.get(), &SandboxProvider::actionFailed);
    SandboxCreateOptions options;
    options.name = m_name;
    options.image = QString::fromLatin1(imageName);
    options.initHook = u"echo init-hook-said-$((6 * 7)) >&2"_s;
    m_provider->create(options);
    QVERIFY2(created.wait(startBoundMs) || !failed.isEmpty(), "create gave no answer");
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(1).toString()));
    m_id = created.first().first().toString();
    QVERIFY(m_id.startsWith(u"engine:"_s));
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Online, startBoundMs);
    const SandboxEntry entry = *findEntry(*m_provider, m_id);
    QCOMPARE(entry.name, m_name);
    QVERIFY2(entry.endpoint.isValid(), "no published port");
    QCOMPARE(entry.endpoint.baseUrl.host(), u"127.0.0.1"_s);
    QCOMPARE(entry.credentials.kind, Credentials::Kind::ApiKey);
    QCOMPARE(entry.credentials.secret.size(), 64); // 32 random bytes, hex
    QVERIFY(failed.isEmpty());
    const LifecycleActions actions = m_provider->actions(entry);
    QVERIFY(actions.testFlag(LifecycleAction::Pause));
    QVERIFY(actions.testFlag(LifecycleAction::Stop));
    QVERIFY(!actions.testFlag(LifecycleAction::Start));
    // Polls that find nothing new stay silent (the engine's "Up N seconds" is not news).
    QSignalSpy changed(m_provider.get(), &SandboxProvider::sandboxChanged);
    QTest::qWait(1500);
    QCOMPARE(changed.size(), 0);
}

void TestEngine::contextReadThroughTheEntry() {
    QVERIFY(!m_id.isEmpty());
    const SandboxEntry entry = *findEntry(*m_provider, m_id);
    SandboxContext context;
    const Status status = readContext(entry, &context);
    QVERIFY2(status.ok(), qPrintable(status.message));
    QCOMPARE(context.workspace, u"/workspace"_s);
    // The generated key is enforced.
    SandboxEntry keyless = entry;
    keyless.credentials = {};
    QCOMPARE(readContext(keyless).kind, Status::Kind::Auth);
}

void TestEngine::statsGiveTheContainersFigures() {
    QVERIFY(!m_id.isEmpty());
    const SandboxEntry entry = *findEntry(*m_provider, m_id);
    QVERIFY(m_provider->hasResourceFigures(entry));
    const auto read = [this](ResourceFigures *figures) {
        bool answered = false;
        Status status;
        m_provider->readResourceFigures(m_id, this, [&](const ResourceFigures &f, const Status &s) {
            answered = true;
            *figures = f;
            status = s;
        });
        return QTest::qWaitFor([&answered] { return answered; }, 15000)
                   ? status
                   : Status::error(Status::Kind::Timeout, u"no answer"_s);
    };
    ResourceFigures first, second;
    Status status = read(&first);
    QVERIFY2(status.ok(), qPrintable(status.message));
    // The server and its shell hold some memory; at least the server runs.
    QVERIFY2(first.memBytes > 1024 * 1024, qPrintable(QString::number(first.memBytes)));
    QVERIFY(first.processCount.value_or(0) >= 1);
    QVERIFY(first.at.isValid());
    QVERIFY(first.source.contains(u"engine"_s));
    status = read(&second);
    QVERIFY2(status.ok(), qPrintable(status.message));
    // The second reading has a CPU figure from the change since the first.
    QVERIFY(second.cpuPct.has_value());
    QVERIFY(*second.cpuPct >= 0);
}

void TestEngine::monitorFallsBackToEngineStats() {
    SandboxRegistry registry;
    registry.addProvider(m_provider.get());
    QSignalSpy created(m_provider.get(), &SandboxProvider::created);
    SandboxCreateOptions options;
    options.name = m_name + u"-old"_s;
    options.image = QString::fromLatin1(noObserveImage);
    m_provider->create(options);
    QVERIFY(created.wait(startBoundMs));
    const QString id = created.first().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(registry.state(id), SandboxState::Online, startBoundMs);

    MonitorPoller poller(registry.client(id));
    poller.setIntervalMs(200);
    poller.setFallback([&registry, id](QObject *context, ResourceFiguresDone done) {
        if (!registry.hasResourceFigures(id))
            return false;
        registry.readResourceFigures(id, context, std::move(done));
        return true;
    });
    poller.start();
    QTRY_VERIFY_WITH_TIMEOUT(poller.usesFallback() && poller.polls() >= 3, 30000);
    QVERIFY(poller.noObserveApi());
    QVERIFY(poller.isActive());
    QCOMPARE(poller.snapshot().source, QString::fromLatin1(MonitorPoller::kFallbackSource));
    QVERIFY(poller.snapshot().memCurrentBytes > 0);
    QVERIFY(poller.snapshot().cpuPct.has_value());
    QVERIFY(MonitorFigures::source(poller.snapshot()).contains(u"container engine"_s));
    QCOMPARE(poller.history().size(), poller.polls());
    // The sandbox list's usage column reads the same source.
    QTRY_VERIFY_WITH_TIMEOUT(registry.health(id).memBytes.value_or(0) > 0, 30000);
    poller.stop();

    m_provider->remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(*m_provider, id).has_value(), 90000);
}

void TestEngine::pauseAndResume() {
    QVERIFY(!m_id.isEmpty());
    m_provider->pause(m_id);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Paused, 30000);
    const SandboxEntry paused = *findEntry(*m_provider, m_id);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_provider->actions(*findEntry(*m_provider, m_id)).testFlag(LifecycleAction::Resume),
        10000);
    QVERIFY(!m_provider->actions(paused).testFlag(LifecycleAction::Pause));
    m_provider->resume(m_id);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Online, 30000);
    const Status status = readContext(*findEntry(*m_provider, m_id));
    QVERIFY2(status.ok(), qPrintable(status.message));
}

void TestEngine::logsShowHookOutputAndStartup() {
    QVERIFY(!m_id.isEmpty());
    std::unique_ptr<EngineLogStream> logs(m_provider->openLogs(m_id, -1));
    QVERIFY(logs);
    QString text;
    connect(logs.get(), &EngineLogStream::bytes, this,
            [&text](const QByteArray &b) { text += QString::fromUtf8(b); });
    QSignalSpy ended(logs.get(), &EngineLogStream::ended);
    logs->start();
    // stderr (the init hook) and stdout (the listening line) both arrive, decoded.
    QTRY_VERIFY2_WITH_TIMEOUT(text.contains(u"init-hook-said-42"_s), qPrintable(text), 20000);
    QTRY_VERIFY2_WITH_TIMEOUT(text.contains(u"sandbox-server listening on http://0.0.0.0:8080"_s),
                              qPrintable(text), 20000);
    // Every line carries the engine's time of it (RFC 3339 with nanoseconds).
    static const QRegularExpression stamped(u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"_s);
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines)
        QVERIFY2(stamped.match(line).hasMatch(), qPrintable(line));
    QVERIFY(ended.isEmpty()); // following
    logs->stop();
    QVERIFY(ended.wait(5000));
    QVERIFY(!text.contains(findEntry(*m_provider, m_id)->credentials.secret));
}

void TestEngine::keyRecoveredFromTheContainer() {
    QVERIFY(!m_id.isEmpty());
    MemorySecretStore empty;
    EngineSandboxes other(&empty, m_podman->socketPath());
    QTRY_VERIFY_WITH_TIMEOUT(findEntry(other, m_id).has_value(), 20000);
    const SandboxEntry recovered = *findEntry(other, m_id);
    QCOMPARE(recovered.credentials, findEntry(*m_provider, m_id)->credentials);
    const Status status = readContext(recovered);
    QVERIFY2(status.ok(), qPrintable(status.message));
}

// Stop waits for the shutdown hooks: a hook longer than the engine's default 10 s grace
// still completes, and its marker is there when the sandbox runs again.
void TestEngine::stopRunsShutdownHooksThenStartAgain() {
    QVERIFY(!m_id.isEmpty());
    const SandboxEntry running = *findEntry(*m_provider, m_id);
    SandboxClient client(running.endpoint, running.credentials);
    SandboxHook slow;
    slow.name = u"save-marker"_s;
    slow.command = u"sleep 11; echo saved-by-hook > /workspace/shutdown-marker"_s;
    slow.timeoutSeconds = 20;
    slow.priority = 50;
    SandboxHook quick;
    quick.name = u"quick"_s;
    quick.command = u"true"_s;
    quick.timeoutSeconds = 5;
    for (const SandboxHook &hook : {slow, quick}) {
        auto *job = new RegisterHookJob(&client, hook);
        QSignalSpy succeeded(job, &RegisterHookJob::succeeded);
        QSignalSpy failed(job, &ApiJob::failed);
        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(!succeeded.isEmpty() || !failed.isEmpty(), 15000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).value<Status>().message));
    }

    QSignalSpy notes(m_provider.get(), &SandboxProvider::actionNote);
    m_provider->stop(m_id);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Stopping, 5000);
    // Two lanes (20 s and 5 s) plus the 10 s margin.
    QTRY_COMPARE_WITH_TIMEOUT(notes.size(), 1, 10000);
    const QString note = notes.first().at(1).toString();
    QVERIFY2(note.contains(u"up to 35 s"_s) && note.contains(u"2 shutdown hooks"_s),
             qPrintable(note));
    QCOMPARE(findEntry(*m_provider, m_id)->detail, note);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Stopped, 60000);
    const SandboxEntry stopped = *findEntry(*m_provider, m_id);
    QVERIFY(!stopped.endpoint.isValid());
    QVERIFY(m_provider->actions(stopped).testFlag(LifecycleAction::Start));

    m_provider->start(m_id);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, m_id), SandboxState::Online, startBoundMs);
    const SandboxEntry again = *findEntry(*m_provider, m_id);
    QVERIFY2(readContext(again).ok(), "the restarted sandbox does not answer");
    SandboxClient restarted(again.endpoint, again.credentials);
    auto *read = new ReadFileJob(&restarted, u"/workspace/shutdown-marker"_s);
    QSignalSpy content(read, &ReadFileJob::succeeded);
    QSignalSpy readFailed(read, &ApiJob::failed);
    read->start();
    QTRY_VERIFY_WITH_TIMEOUT(!content.isEmpty() || !readFailed.isEmpty(), 15000);
    QVERIFY2(readFailed.isEmpty(),
             qPrintable(readFailed.value(0).value(0).value<Status>().message));
    QCOMPARE(content.first().first().toString().trimmed(), u"saved-by-hook"_s);
}

// A sandbox that cannot list its hooks (here its server never listens: the init hook blocks)
// is stopped with the default grace, and the note says why.
void TestEngine::stopWithUnreadableHooksUsesTheDefaultGrace() {
    QSignalSpy created(m_provider.get(), &SandboxProvider::created);
    QSignalSpy failed(m_provider.get(), &SandboxProvider::actionFailed);
    SandboxCreateOptions options;
    options.name = m_name + u"-mute"_s;
    options.image = QString::fromLatin1(imageName);
    options.initHook = u"sleep 600"_s;
    m_provider->create(options);
    QVERIFY2(created.wait(startBoundMs) || !failed.isEmpty(), "create gave no answer");
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(1).toString()));
    const QString id = created.first().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, id), SandboxState::Online, startBoundMs);

    QSignalSpy notes(m_provider.get(), &SandboxProvider::actionNote);
    m_provider->stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(notes.size(), 1, 15000);
    const QString note = notes.first().at(1).toString();
    QVERIFY2(note.contains(u"up to 30 s"_s) && note.contains(u"could not be read"_s),
             qPrintable(note));
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, id), SandboxState::Stopped, 60000);
    m_provider->remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(*m_provider, id).has_value(), 60000);
}

// An image the engine does not have is pulled first; a pull that fails says why.
void TestEngine::missingImageIsPulledOrExplained() {
    QSignalSpy failed(m_provider.get(), &SandboxProvider::actionFailed);
    QSignalSpy notes(m_provider.get(), &SandboxProvider::actionNote);
    SandboxCreateOptions options;
    options.name = m_name + u"-nowhere"_s;
    options.image = u"127.0.0.1:1/nowhere/sandbox:latest"_s;
    m_provider->create(options);
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 120000);
    QVERIFY(!notes.isEmpty());
    QCOMPARE(notes.first().at(1).toString(), u"Pulling 127.0.0.1:1/nowhere/sandbox:latest"_s);
    const QString message = failed.first().at(1).toString();
    QVERIFY2(message.startsWith(u"Cannot pull 127.0.0.1:1/nowhere/sandbox:latest: "_s),
             qPrintable(message));
}

// A JWT sandbox: the container gets the public key, the console signs with the private one.
void TestEngine::jwtSandboxSignedByTheConsole() {
    QSignalSpy created(m_provider.get(), &SandboxProvider::created);
    QSignalSpy failed(m_provider.get(), &SandboxProvider::actionFailed);
    SandboxCreateOptions options;
    options.name = m_name + u"-jwt"_s;
    options.image = QString::fromLatin1(imageName);
    options.auth = SandboxCreateOptions::Auth::Jwt;
    m_provider->create(options);
    QVERIFY2(created.wait(startBoundMs) || !failed.isEmpty(), "create gave no answer");
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(1).toString()));
    const QString id = created.first().first().toString();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(*m_provider, id), SandboxState::Online, startBoundMs);
    const SandboxEntry entry = *findEntry(*m_provider, id);
    QCOMPARE(entry.credentials.kind, Credentials::Kind::SignedJwt);
    QVERIFY(entry.credentials.secret.startsWith(u"-----BEGIN"_s));
    const Status status = readContext(entry);
    QVERIFY2(status.ok(), qPrintable(status.message));

    // Without the private key no console can sign for it: no credentials are made up.
    MemorySecretStore empty;
    EngineSandboxes other(&empty, m_podman->socketPath());
    QTRY_VERIFY_WITH_TIMEOUT(findEntry(other, id).has_value(), 20000);
    QVERIFY(findEntry(other, id)->credentials.isEmpty());
    QVERIFY2(findEntry(other, id)->detail.contains(u"does not hold its key"_s),
             qPrintable(findEntry(other, id)->detail));
    QCOMPARE(readContext(*findEntry(other, id)).kind, Status::Kind::Auth);

    m_provider->remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(*m_provider, id).has_value(), 90000);
}

// A container removed behind the console's back leaves the list, and its stored key goes.
void TestEngine::removedOutsideTheConsole() {
    QSignalSpy created(m_provider.get(), &SandboxProvider::created);
    SandboxCreateOptions options;
    options.name = m_name + u"-outside"_s;
    options.image = QString::fromLatin1(imageName);
    m_provider->create(options);
    QVERIFY(created.wait(startBoundMs));
    const QString id = created.first().first().toString();
    QTRY_VERIFY_WITH_TIMEOUT(findEntry(*m_provider, id).has_value(), startBoundMs);
    QCOMPARE(m_podman->podman({u"rm"_s, u"--force"_s, u"--time"_s, u"0"_s, options.name}), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(*m_provider, id).has_value(), 20000);
    bool answered = false;
    bool found = true;
    m_secrets.read(id, this, [&](bool f, const QString &) {
        answered = true;
        found = f;
    });
    QTRY_VERIFY(answered);
    QVERIFY(!found);
}

void TestEngine::removeDeletesTheContainer() {
    QVERIFY(!m_id.isEmpty());
    QSignalSpy removed(m_provider.get(), &SandboxProvider::sandboxRemoved);
    m_provider->remove(m_id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(*m_provider, m_id).has_value(), 90000);
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.first().first().toString(), m_id);
    QByteArray names;
    QCOMPARE(m_podman->podman({u"ps"_s, u"-a"_s, u"--format"_s, u"{{.Names}}"_s}, &names), 0);
    QVERIFY(!names.contains(m_name.toUtf8()));
    bool answered = false;
    bool found = true;
    m_secrets.read(m_id, this, [&](bool f, const QString &) {
        answered = true;
        found = f;
    });
    QTRY_VERIFY(answered);
    QVERIFY(!found);
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
