// LocalSandboxes: real sandbox-server children started, killed, paused, stopped, persisted and
// removed; API-key and console-signed JWT auth; startup hooks and the bounded log.
#include "client/api/sandboxjobs.h"
#include "client/api/shelljobs.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/processtree.h"
#include "client/providers/secretstore.h"
#include "client/sandboxclient.h"
#include "client/transport/jwtkeys.h"
#include "tests/support/jobs.h"
#include "tests/support/testjwt.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <unistd.h>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

bool allStopped(const QList<qint64> &pids) {
    for (const qint64 pid : pids) {
        if (processState(pid) != 'T')
            return false;
    }
    return true;
}

bool noneStopped(const QList<qint64> &pids) {
    for (const qint64 pid : pids) {
        if (processState(pid) == 'T')
            return false;
    }
    return true;
}

// Bytes the kernel holds, unread, for established loopback connections to port: a request that
// reached a stopped server and waits there.
qint64 unreadBytesAt(int port) {
    QFile file(u"/proc/net/tcp"_s);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    qint64 total = 0;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 5 || f.at(3) != "01")
            continue;
        const QList<QByteArray> local = f.at(1).split(':');
        const QList<QByteArray> queues = f.at(4).split(':');
        if (local.size() != 2 || queues.size() != 2 || local.at(1).toInt(nullptr, 16) != port)
            continue;
        total += queues.at(1).toLongLong(nullptr, 16);
    }
    return total;
}

} // namespace

class TestLocalSandboxes final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString settingsPath() const { return m_dir.filePath(u"settings.conf"_s); }
    LocalSandboxes::Options options() const {
        return {QStringLiteral(SBX_SERVER_BINARY), m_dir.filePath(u"data"_s)};
    }
    static SandboxEntry entryOf(const LocalSandboxes &provider, const QString &id) {
        const QList<SandboxEntry> all = provider.sandboxes();
        for (const SandboxEntry &e : all) {
            if (e.id == id)
                return e;
        }
        return {};
    }

private Q_SLOTS:
    void defaultSandboxStartsAndAnswers();
    void killedProcessTurnsUnreachable();
    void stopGoesThroughStoppingToStopped();
    void listSurvivesRestartAndRemoveCleansUp();
    void missingBinaryIsReported();
    void jwtSandboxAcceptsOnlyTheConsolesKey();
    void startupHookRunsInTheWorkspaceAndIsLogged();
    void logIsKeptWholeOnDisk();
    void pauseStopsEveryProcessAndHoldsRequestsUntilResume();
    void stoppingAPausedSandboxResumesItFirst();
    void stuckServerIsKilledAfterTheBound();
    void stopRunsShutdownHooks();
    void deleteRemovesOnlyWhatTheConsoleCreated();
    void serverStateStaysOutOfTheWorkspace();
};

void TestLocalSandboxes::defaultSandboxStartsAndAnswers() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    QSignalSpy added(&provider, &SandboxProvider::sandboxAdded);
    const QString id = provider.ensureDefault();
    QCOMPARE(id, QString::fromLatin1(LocalSandboxes::kDefaultId));
    QCOMPARE(added.count(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    const SandboxEntry entry = entryOf(provider, id);
    QVERIFY(entry.endpoint.isValid());
    QCOMPARE(entry.endpoint.baseUrl.host(), u"127.0.0.1"_s);
    QCOMPARE(entry.credentials.kind, Credentials::Kind::ApiKey);
    QVERIFY(entry.credentials.secret.size() >= 32);

    // It speaks AIO with its generated key, and refuses without it.
    SandboxClient client(entry.endpoint, entry.credentials);
    auto *job = new GetContextJob(&client);
    SandboxContext context;
    connect(job, &GetContextJob::succeeded, this,
            [&context](const SandboxContext &c) { context = c; });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    QVERIFY(done.wait());
    QTRY_VERIFY(!context.version.isEmpty());
    QCOMPARE(context.workspace, provider.workspace(id));
    SandboxClient anonymous(entry.endpoint, {});
    auto *refused = new GetContextJob(&anonymous);
    Status status;
    connect(refused, &ApiJob::failed, this, [&status](const Status &s) { status = s; });
    refused->start();
    QTRY_COMPARE(status.kind, Status::Kind::Auth);

    // The key never lands in the settings file.
    settings.sync();
    QFile file(settingsPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(entry.credentials.secret.toUtf8()));
    QVERIFY(!provider.log(id).contains(entry.credentials.secret));
}

void TestLocalSandboxes::killedProcessTurnsUnreachable() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const QString id = provider.create(u"Doomed"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    const qint64 pid = provider.processId(id);
    QVERIFY(pid > 0);
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Unreachable,
                              10000);
    QVERIFY2(entryOf(provider, id).detail.contains(u"killed"_s),
             qPrintable(entryOf(provider, id).detail));
    QVERIFY(!entryOf(provider, id).endpoint.isValid());
    QVERIFY(provider.actions(entryOf(provider, id)).testFlag(LifecycleAction::Start));
    // Starting again works, with a new key.
    provider.start(id);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    provider.remove(id);
}

void TestLocalSandboxes::stopGoesThroughStoppingToStopped() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const QString id = provider.create(u"Stoppable"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    QList<SandboxState> seen;
    connect(&provider, &SandboxProvider::sandboxChanged, this, [&seen, id](const SandboxEntry &e) {
        if (e.id == id)
            seen << e.providerState;
    });
    provider.stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped, 10000);
    QCOMPARE(seen, (QList<SandboxState>{SandboxState::Stopping, SandboxState::Stopped}));
    QVERIFY(!provider.hasRunning());
    provider.remove(id);
}

void TestLocalSandboxes::listSurvivesRestartAndRemoveCleansUp() {
    QString id;
    QString workspace;
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, options());
        id = provider.create(u"Persistent"_s);
        workspace = provider.workspace(id);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        QVERIFY(QFileInfo::exists(workspace));
    } // the console quits: its children stop
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const SandboxEntry entry = entryOf(provider, id);
    QCOMPARE(entry.name, u"Persistent"_s);
    QCOMPARE(entry.providerState, SandboxState::Stopped);
    provider.remove(id);
    QVERIFY(!QFileInfo::exists(workspace));
    QVERIFY(entryOf(provider, id).id.isEmpty());

    // A folder the user picked is used, and only forgotten on remove.
    QTemporaryDir picked;
    const QString pickedId = provider.create(u"Picked"_s, picked.path());
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, pickedId).providerState, SandboxState::Online,
                              20000);
    QSignalSpy removed(&provider, &SandboxProvider::sandboxRemoved);
    provider.remove(pickedId);
    QVERIFY(removed.wait(20000));
    QVERIFY(QFileInfo::exists(picked.path()));
}

void TestLocalSandboxes::missingBinaryIsReported() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings,
                            {m_dir.filePath(u"no-such-server"_s), m_dir.filePath(u"data2"_s)});
    QSignalSpy failed(&provider, &SandboxProvider::actionFailed);
    const QString id = provider.create(u"Broken"_s);
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(1).toString().contains(u"sandbox-server not found"_s));
    QCOMPARE(entryOf(provider, id).providerState, SandboxState::Unreachable);
}

void TestLocalSandboxes::jwtSandboxAcceptsOnlyTheConsolesKey() {
    MemorySecretStore secrets;
    LocalSandboxes::Options opts = options();
    opts.secrets = &secrets;
    QString id;
    QString privateKey;
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, opts);
        SandboxCreateOptions create;
        create.name = u"Signed"_s;
        create.auth = SandboxCreateOptions::Auth::Jwt;
        id = provider.create(create);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        const SandboxEntry entry = entryOf(provider, id);
        QCOMPARE(entry.credentials.kind, Credentials::Kind::SignedJwt);
        privateKey = entry.credentials.secret;
        QVERIFY(!publicPemFromPrivate(privateKey.toLatin1()).isEmpty());

        SandboxClient client(entry.endpoint, entry.credentials);
        Status status = runJob(new GetContextJob(&client));
        QVERIFY2(status.ok(), qPrintable(status.message));
        SandboxClient stranger(
            entry.endpoint,
            {Credentials::Kind::SignedJwt, QString::fromLatin1(generateRsaKeyPair().privatePem)});
        status = runJob(new GetContextJob(&stranger));
        QCOMPARE(status.kind, Status::Kind::Auth);
        QCOMPARE(status.httpStatus, 401);
        SandboxClient anonymous(entry.endpoint, {});
        QCOMPARE(runJob(new GetContextJob(&anonymous)).kind, Status::Kind::Auth);
        for (const QByteArray &line : pemBodyLines(privateKey.toLatin1()))
            QVERIFY(!provider.log(id).toLatin1().contains(line));
    }
    // The private key is in the secret store, never in the settings file.
    QFile file(settingsPath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(!text.contains("PRIVATE"));
    for (const QByteArray &line : pemBodyLines(privateKey.toLatin1()))
        QVERIFY(!text.contains(line));

    // After a restart the same key is read back and still trusted.
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, opts);
    QCOMPARE(entryOf(provider, id).credentials.kind, Credentials::Kind::SignedJwt);
    provider.start(id);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    QCOMPARE(entryOf(provider, id).credentials.secret, privateKey);
    SandboxClient client(entryOf(provider, id).endpoint, entryOf(provider, id).credentials);
    const Status status = runJob(new GetContextJob(&client));
    QVERIFY2(status.ok(), qPrintable(status.message));
    QSignalSpy removed(&provider, &SandboxProvider::sandboxRemoved);
    provider.remove(id);
    QVERIFY(removed.wait(20000));
    bool found = true;
    secrets.read(u"sandbox/"_s + id, this, [&found](bool f, const QString &) { found = f; });
    QTRY_VERIFY(!found);
}

void TestLocalSandboxes::startupHookRunsInTheWorkspaceAndIsLogged() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    SandboxCreateOptions create;
    create.name = u"Hooked"_s;
    create.initHook = u"echo init-hook-says-hello; touch init-marker"_s;
    create.postReadyHook = u"echo post-ready-$((40+2))"_s;
    const QString id = provider.create(create);
    QVERIFY(provider.createdWorkspace(id));
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    QVERIFY(QFileInfo::exists(provider.workspace(id) + u"/init-marker"_s));
    QTRY_VERIFY(provider.log(id).contains(u"init-hook-says-hello"_s));
    QTRY_VERIFY(provider.log(id).contains(u"post-ready-42"_s));

    // A picked folder is the workspace itself.
    QTemporaryDir picked;
    create.name = u"Picked"_s;
    create.workspace = picked.path();
    const QString pickedId = provider.create(create);
    QVERIFY(!provider.createdWorkspace(pickedId));
    QCOMPARE(provider.workspace(pickedId), picked.path());
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, pickedId).providerState, SandboxState::Online,
                              20000);
    QVERIFY(QFileInfo::exists(picked.filePath(u"init-marker"_s)));
}

void TestLocalSandboxes::logIsKeptWholeOnDisk() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    SandboxCreateOptions create;
    create.name = u"Chatty"_s;
    create.initHook = u"seq 1 60000"_s;
    const QString id = provider.create(create);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    QTRY_VERIFY(provider.log(id).contains(u"] 60000\n"_s));
    // Every line, the first included: the log is a file, not a bounded ring in memory.
    const QString log = provider.log(id);
    QVERIFY(log.contains(u"] 1\n"_s));
    QVERIFY(QFileInfo(provider.logPath(id)).size() > 512 * 1024);
    QVERIFY(!provider.logPath(id).startsWith(provider.workspace(id)));
    // Deleting the sandbox deletes its log.
    const QString path = provider.logPath(id);
    provider.remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(path), 20000);
}

void TestLocalSandboxes::pauseStopsEveryProcessAndHoldsRequestsUntilResume() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const QString id = provider.create(u"Pausable"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    QCOMPARE(provider.actions(entryOf(provider, id)) &
                 (LifecycleAction::Pause | LifecycleAction::Resume | LifecycleAction::Start),
             LifecycleActions(LifecycleAction::Pause));
    const SandboxEntry entry = entryOf(provider, id);
    SandboxClient client(entry.endpoint, entry.credentials);
    // A shell through the API: it runs in a session of its own, below the server.
    const Status created = runJob(new CreateShellSessionJob(&client));
    QVERIFY2(created.ok(), qPrintable(created.message));
    const qint64 pid = provider.processId(id);
    QTRY_VERIFY(processTree(pid).size() >= 2);
    const QList<qint64> before = processTree(pid);
    QVERIFY(std::any_of(before.begin(), before.end(), [pid](qint64 p) {
        return ::getsid(static_cast<pid_t>(p)) != ::getsid(static_cast<pid_t>(pid));
    }));

    provider.pause(id);
    QCOMPARE(entryOf(provider, id).providerState, SandboxState::Paused);
    QCOMPARE(provider.actions(entryOf(provider, id)),
             LifecycleAction::Create | LifecycleAction::Resume | LifecycleAction::Stop |
                 LifecycleAction::Delete | LifecycleAction::Logs);
    const QList<qint64> tree = processTree(pid);
    QTRY_VERIFY2(allStopped(tree), "every process of the sandbox shows state T");

    // A request sent while paused reaches the server's socket and waits there, unread.
    SandboxClient other(entry.endpoint, entry.credentials);
    auto *job = new GetContextJob(&other);
    QSignalSpy finished(job, &ApiJob::finished);
    job->start();
    QTRY_VERIFY_WITH_TIMEOUT(unreadBytesAt(entry.endpoint.baseUrl.port()) > 0, 10000);
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 0);
    QVERIFY(allStopped(tree));

    provider.resume(id);
    QCOMPARE(entryOf(provider, id).providerState, SandboxState::Online);
    QVERIFY(finished.count() == 1 || finished.wait(10000));
    QTRY_VERIFY(noneStopped(tree));
    provider.stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped, 10000);
}

void TestLocalSandboxes::stoppingAPausedSandboxResumesItFirst() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const QString id = provider.create(u"Paused then stopped"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    provider.pause(id);
    QTRY_VERIFY(allStopped(processTree(provider.processId(id))));
    provider.stop(id);
    QCOMPARE(entryOf(provider, id).providerState, SandboxState::Stopping);
    // Well before the 60 s kill bound: SIGTERM was handled, not SIGKILL.
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped, 15000);
    QCOMPARE(entryOf(provider, id).detail, QString());
}

void TestLocalSandboxes::stuckServerIsKilledAfterTheBound() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes::Options opts = options();
    opts.stopTimeoutMs = 1000;
    LocalSandboxes provider(&settings, opts);
    const QString id = provider.create(u"Stuck"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    // Stopped behind the console's back, it cannot act on SIGTERM.
    ::kill(static_cast<pid_t>(provider.processId(id)), SIGSTOP);
    provider.stop(id);
    QCOMPARE(entryOf(provider, id).providerState, SandboxState::Stopping);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped, 10000);
    QVERIFY2(entryOf(provider, id).detail.contains(u"killed"_s),
             qPrintable(entryOf(provider, id).detail));
}

void TestLocalSandboxes::stopRunsShutdownHooks() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    const QString id = provider.create(u"Hooks on stop"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    const SandboxEntry entry = entryOf(provider, id);
    SandboxClient client(entry.endpoint, entry.credentials);
    QVERIFY(runJob(new GetContextJob(&client)).ok());
    if (!client.hasExtension(u"shutdown-hooks"_s))
        QSKIP("this sandbox-server has no shutdown-hooks extension yet");
    const QString marker = provider.workspace(id) + u"/shutdown-marker"_s;
    const QJsonObject hook{{u"name"_s, u"marker"_s},
                           {u"command"_s, u"echo shutdown-hook-ran; touch '%1'"_s.arg(marker)},
                           {u"timeout"_s, 20}};
    QNetworkReply *reply =
        client.send(ApiRequest::postJson(u"v1/sandbox/hooks"_s, QJsonDocument(hook).toJson()));
    QSignalSpy replied(reply, &QNetworkReply::finished);
    QVERIFY(replied.wait(10000));
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    reply->deleteLater();

    QList<SandboxState> seen;
    connect(&provider, &SandboxProvider::sandboxChanged, this, [&seen, id](const SandboxEntry &e) {
        if (e.id == id)
            seen << e.providerState;
    });
    provider.stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped, 30000);
    QCOMPARE(seen, (QList<SandboxState>{SandboxState::Stopping, SandboxState::Stopped}));
    QVERIFY(QFileInfo::exists(marker));
    QVERIFY(provider.log(id).contains(u"shutdown-hook-ran"_s));
}

void TestLocalSandboxes::deleteRemovesOnlyWhatTheConsoleCreated() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    QSignalSpy removed(&provider, &SandboxProvider::sandboxRemoved);
    const QString made = provider.create(u"Made"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, made).providerState, SandboxState::Online, 20000);
    const QString madeWorkspace = provider.workspace(made);
    QFile madeFile(madeWorkspace + u"/notes.txt"_s);
    QVERIFY(madeFile.open(QIODevice::WriteOnly));
    madeFile.close();
    provider.remove(made);
    QVERIFY(removed.wait(20000));
    QCOMPARE(removed.last().at(0).toString(), made);
    QVERIFY(!QFileInfo::exists(madeWorkspace));
    QVERIFY(entryOf(provider, made).id.isEmpty());

    QTemporaryDir picked;
    QFile keep(picked.filePath(u"keep.txt"_s));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.write("mine");
    keep.close();
    const QString pickedId = provider.create(u"Picked"_s, picked.path());
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, pickedId).providerState, SandboxState::Online,
                              20000);
    provider.remove(pickedId);
    QVERIFY(removed.wait(20000));
    QCOMPARE(removed.last().at(0).toString(), pickedId);
    QVERIFY(QFileInfo::exists(picked.filePath(u"keep.txt"_s)));
    QVERIFY(entryOf(provider, pickedId).id.isEmpty());
    settings.sync();
    QSettings reread(settingsPath(), QSettings::IniFormat);
    reread.beginGroup(u"local"_s);
    QVERIFY(!reread.childGroups().contains(pickedId.section(QLatin1Char(':'), 1)));
    QVERIFY(!reread.childGroups().contains(made.section(QLatin1Char(':'), 1)));
}

void TestLocalSandboxes::serverStateStaysOutOfTheWorkspace() {
    QSettings settings(settingsPath(), QSettings::IniFormat);
    LocalSandboxes provider(&settings, options());
    // A folder used by an earlier version, whose server kept its state inside it.
    QTemporaryDir picked;
    QVERIFY(QDir().mkpath(picked.filePath(u".sandbox-server/hooks"_s)));
    QFile marker(picked.filePath(u".sandbox-server/hooks/marker"_s));
    QVERIFY(marker.open(QIODevice::WriteOnly));
    marker.write("kept");
    marker.close();
    QSignalSpy removed(&provider, &SandboxProvider::sandboxRemoved);
    const QString id = provider.create(u"Picked"_s, picked.path());
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
    const QString state = provider.stateDir(id);
    QVERIFY2(!state.startsWith(picked.path()), qPrintable(state));
    QVERIFY(QFileInfo(state).isDir());
    // The old state moved beside the workspace, whole; the agent's folder holds only its files.
    QVERIFY(!QFileInfo::exists(picked.filePath(u".sandbox-server"_s)));
    QFile moved(state + u"/hooks/marker"_s);
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), QByteArray("kept"));
    // A new one made by the console: nothing of the server's in its workspace either.
    const QString made = provider.create(u"Made"_s);
    QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, made).providerState, SandboxState::Online, 20000);
    QCOMPARE(QDir(provider.workspace(made))
                 .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList());
    QVERIFY(QFileInfo(provider.stateDir(made)).isDir());
    provider.remove(id);
    QVERIFY(removed.wait(20000));
    QVERIFY(!QFileInfo::exists(state)); // the state goes with the sandbox, the folder stays
    QVERIFY(QFileInfo(picked.path()).isDir());
    provider.remove(made);
    QVERIFY(removed.wait(20000));
}

QTEST_GUILESS_MAIN(TestLocalSandboxes)
#include "tst_localsandboxes.moc"
