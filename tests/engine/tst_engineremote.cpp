// Engines on another machine, reached as a console on a laptop would: tcp:// behind real TLS
// (socat with certificates made here) and ssh:// through Debian's sshd, both in front of a podman
// service of the suite's own. Loopback only; what cannot run here is skipped, saying why.
#include "client/api/filejobs.h"
#include "client/api/filetransfer.h"
#include "client/api/sandboxjobs.h"
#include "client/providers/engine/engineapi.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/engine/sshlink.h"
#include "client/providers/secretstore.h"
#include "client/sandboxclient.h"
#include "client/streams/terminalchannel.h"
#include "tests/engine/enginetestkit.h"
#include "tests/engine/podmanservice.h"
#include "tests/engine/remoteengines.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {
constexpr auto imageName = "localhost/sbx-remote-test:latest";
}

class TestEngineRemote final : public QObject {
    Q_OBJECT

    std::unique_ptr<PodmanService> m_podman;
    TestCertificates m_certs;
    std::unique_ptr<TlsTerminator> m_tls;
    std::unique_ptr<SshServer> m_ssh;
    bool m_containers = false;
    QString m_skip;    // why the engine or TLS cannot run here
    QString m_sshSkip; // why sshd cannot

    EngineEndpoint sshEndpoint(const QStringList &options) const {
        EngineEndpoint endpoint;
        QString why;
        parseEngineHost(u"ssh://root@127.0.0.1:%1"_s.arg(m_ssh->port()), &endpoint, &why);
        endpoint.name = u"lab-ssh"_s;
        endpoint.sshOptions = options;
        return endpoint;
    }
    QStringList sshOptions() const { return {u"-F"_s, m_ssh->clientConfig()}; }

    EngineEndpoint tlsEndpoint() const {
        EngineEndpoint endpoint;
        QString why;
        parseEngineHost(u"tcp://127.0.0.1:%1"_s.arg(m_tls->port()), &endpoint, &why);
        endpoint.name = u"build-server"_s;
        endpoint.tls = true;
        endpoint.caFile = m_certs.caFile();
        endpoint.certFile = m_certs.clientCert();
        endpoint.keyFile = m_certs.clientKey();
        return endpoint;
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void plainTcpToAnotherHostIsRefused();
    void remoteEngineAsksWhereToPublish();
    void tlsEngineAnswers();
    void wrongCaIsNamed();
    void missingClientCertificateIsNamed();
    void sandboxThroughTlsEngine();
    void unknownHostKeyAsksWithItsFingerprint();
    void refusedLoginIsNamed();
    void changedHostKeyIsRefused();
    void sandboxThroughSshEngine();
};

void TestEngineRemote::initTestCase() {
    QString why;
    QVERIFY2(m_certs.make(&why), qPrintable(why));
    m_podman = std::make_unique<PodmanService>();
    const bool engine = m_podman->start();
    m_ssh = std::make_unique<SshServer>();
    if (!m_ssh->start(engine ? m_podman->socketPath() : QString(), &why))
        m_sshSkip = u"no sshd: "_s + why;
    if (!engine) {
        m_skip = u"no container engine: "_s + m_podman->unavailableReason();
        return;
    }
    m_tls = std::make_unique<TlsTerminator>();
    if (!m_tls->start(m_certs, m_podman->socketPath(), &why)) {
        m_skip = u"no TLS terminator: "_s + why;
        return;
    }
    QVERIFY2(m_podman->importSandboxImage(QStringLiteral(SBX_SERVER_BINARY),
                                          QString::fromLatin1(imageName)),
             qPrintable(m_podman->unavailableReason()));
    m_containers = m_podman->canRunContainers(QString::fromLatin1(imageName));
}

void TestEngineRemote::cleanupTestCase() {
    m_tls.reset();
    m_ssh.reset();
    m_podman.reset();
}

// Never sent: anyone on the path could drive the engine. Confirmed, it is tried.
void TestEngineRemote::plainTcpToAnotherHostIsRefused() {
    EngineEndpoint endpoint;
    QString why;
    // 192.0.2.0/24 is TEST-NET-1: nothing answers there.
    QVERIFY(parseEngineHost(u"tcp://192.0.2.7:2375"_s, &endpoint, &why));
    QVERIFY(endpoint.plainRemote());
    const EngineResponse refused = performEngineRequest(endpoint, EngineRequest::get(u"/_ping"_s));
    QCOMPARE(refused.httpStatus, 0);
    QVERIFY2(refused.transportError.contains(u"Plain TCP to tcp://192.0.2.7:2375 is refused"_s),
             qPrintable(refused.transportError));
    endpoint.plainConfirmed = true;
    const EngineResponse tried =
        performEngineRequest(endpoint, EngineRequest::get(u"/_ping"_s, 300));
    QVERIFY(!tried.transportError.contains(u"refused: anyone"_s));
}

// From here, a port on the engine host's loopback is out of reach: the form asks where to
// publish, and the create body carries that address.
void TestEngineRemote::remoteEngineAsksWhereToPublish() {
    MemorySecretStore secrets;
    EngineEndpoint endpoint;
    QString why;
    QVERIFY(parseEngineHost(u"tcp://192.0.2.7:2376"_s, &endpoint, &why));
    endpoint.name = u"lab"_s;
    endpoint.tls = true;
    EngineSandboxes remote(&secrets, endpoint);
    remote.setPollInterval(60000);
    QCOMPARE(remote.id(), u"engine@lab"_s);
    QCOMPARE(remote.displayName(), u"Containers on lab"_s);
    const CreateForm form = remote.createForm();
    QVERIFY(form.asksPublishAddress);
    QCOMPARE(form.defaultPublishAddress, u"192.0.2.7"_s);
    SandboxCreateOptions options;
    options.image = u"img"_s;
    options.publishAddress = form.defaultPublishAddress;
    QVERIFY(containerCreateBody(options, u"k"_s).contains(R"("HostIp":"192.0.2.7")"));
    // What the engine host publishes on its wildcard is reached at its address; its loopback
    // from here not at all.
    QCOMPARE(containerEndpoint(u"0.0.0.0"_s, 32768, u"192.0.2.7"_s).baseUrl.host(), u"192.0.2.7"_s);
    QVERIFY(!containerEndpoint(u"127.0.0.1"_s, 32768, u"192.0.2.7"_s).isValid());

    EngineSandboxes local(&secrets, unixEngineEndpoint(u"/nonexistent/engine.sock"_s));
    QVERIFY(!local.createForm().asksPublishAddress);
    QCOMPARE(local.id(), u"engine"_s);
}

void TestEngineRemote::tlsEngineAnswers() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const EngineResponse ping =
        performEngineRequest(tlsEndpoint(), EngineRequest::get(u"/_ping"_s));
    QVERIFY2(ping.ok(), qPrintable(ping.transportError));
    QCOMPARE(ping.body, QByteArray("OK"));
}

// The certificate problem is named, with the CA file to check; the kind is TLS, not network.
void TestEngineRemote::wrongCaIsNamed() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    EngineEndpoint endpoint = tlsEndpoint();
    endpoint.caFile = m_certs.otherCaFile();
    const EngineResponse response = performEngineRequest(endpoint, EngineRequest::get(u"/_ping"_s));
    QVERIFY(!response.ok());
    const Status status = response.status();
    QCOMPARE(status.kind, Status::Kind::Tls);
    qInfo("what the user reads: %s", qPrintable(status.message));
    QVERIFY2(status.message.contains(u"failed verification"_s), qPrintable(status.message));
    QVERIFY2(status.message.contains(m_certs.otherCaFile()), qPrintable(status.message));

    // The provider shows the same sentence as the engine's state.
    MemorySecretStore secrets;
    EngineSandboxes provider(&secrets, endpoint);
    QSignalSpy changed(&provider, &SandboxProvider::statusChanged);
    QVERIFY(changed.wait(15000));
    QVERIFY(!provider.isEngineReachable());
    QVERIFY2(provider.status().contains(u"failed verification"_s), qPrintable(provider.status()));
}

void TestEngineRemote::missingClientCertificateIsNamed() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    EngineEndpoint endpoint = tlsEndpoint();
    endpoint.certFile.clear();
    endpoint.keyFile.clear();
    const EngineResponse response = performEngineRequest(endpoint, EngineRequest::get(u"/_ping"_s));
    QVERIFY(!response.ok());
    const Status status = response.status();
    QCOMPARE(status.kind, Status::Kind::Tls);
    qInfo("what the user reads: %s", qPrintable(status.message));
    QVERIFY2(status.message.contains(u"client certificate"_s), qPrintable(status.message));
}

// Created, reached, read and deleted through the TLS engine: the sandbox works as a local one.
void TestEngineRemote::sandboxThroughTlsEngine() {
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    if (!m_containers)
        QSKIP(qPrintable(u"no container can run: "_s + m_podman->unavailableReason()));
    MemorySecretStore secrets;
    EngineSandboxes provider(&secrets, tlsEndpoint());
    provider.setPollInterval(250);
    QTRY_VERIFY_WITH_TIMEOUT(provider.isEngineReachable(), 15000);
    QVERIFY2(provider.status().contains(u"tcp://127.0.0.1:%1"_s.arg(m_tls->port())),
             qPrintable(provider.status()));
    QVERIFY(provider.latencyMs() >= 0);

    SandboxCreateOptions options;
    options.name = u"sbx-remote-%1"_s.arg(QRandomGenerator::global()->generate() % 100000);
    options.image = QString::fromLatin1(imageName);
    QString why;
    const QString id = createOnline(provider, options, &why);
    QVERIFY2(!id.isEmpty(), qPrintable(why));
    QVERIFY2(id.startsWith(u"engine@build-server:"_s), qPrintable(id));

    const SandboxEntry entry = *findEntry(provider, id);
    QCOMPARE(entry.credentials.kind, Credentials::Kind::ApiKey);
    SandboxContext context;
    const Status read = readContext(entry, &context);
    QVERIFY2(read.ok(), qPrintable(read.message));
    QCOMPARE(context.workspace, u"/workspace"_s);

    // No memory limit was set: the engine host's memory (from its /info) is not shown as one.
    const auto limitShown = [&provider, &id] {
        bool answered = false;
        std::optional<qint64> limit;
        provider.readResourceFigures(id, &provider, [&](const ResourceFigures &f, const Status &) {
            answered = true;
            limit = f.memLimitBytes;
        });
        return !QTest::qWaitFor([&answered] { return answered; }, 10000) || limit.has_value();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!limitShown(), 15000);

    provider.remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(provider, id).has_value(), 90000);
    QByteArray names;
    QCOMPARE(m_podman->podman({u"ps"_s, u"-a"_s, u"--format"_s, u"{{.Names}}"_s}, &names), 0);
    QVERIFY(!names.contains(options.name.toUtf8()));
}

// BatchMode never asks on a terminal: the console shows the host's fingerprint and, once
// trusted, the key is in known_hosts and the link comes up (finding the engine's socket).
void TestEngineRemote::unknownHostKeyAsksWithItsFingerprint() {
    if (!m_sshSkip.isEmpty())
        QSKIP(qPrintable(m_sshSkip));
    SshLink link(sshEndpoint(sshOptions()));
    link.connectToHost();
    QTRY_VERIFY_WITH_TIMEOUT(link.state() == SshLink::State::HostKeyUnknown ||
                                 link.state() == SshLink::State::Failed,
                             30000);
    QVERIFY2(link.state() == SshLink::State::HostKeyUnknown, qPrintable(link.problem()));
    const QString fingerprint = m_ssh->hostFingerprint();
    QVERIFY(fingerprint.startsWith(u"SHA256:"_s));
    QVERIFY2(link.hostKeyFingerprints().join(u' ').contains(fingerprint),
             qPrintable(link.hostKeyFingerprints().join(u' ')));
    qInfo("what the user reads: %s", qPrintable(link.problem()));
    QVERIFY2(link.problem().contains(fingerprint), qPrintable(link.problem()));

    link.trustHostKey();
    QFile knownHosts(m_ssh->knownHosts());
    QTRY_VERIFY_WITH_TIMEOUT(
        link.state() == SshLink::State::Up || link.state() == SshLink::State::Failed, 30000);
    QVERIFY(knownHosts.open(QIODevice::ReadOnly));
    QVERIFY(
        knownHosts.readAll().contains(u"[127.0.0.1]:%1 ssh-ed25519"_s.arg(m_ssh->port()).toUtf8()));
    if (!m_skip.isEmpty()) {
        // No engine behind this sshd: the link says so.
        QVERIFY2(link.problem().contains(u"No container engine socket"_s),
                 qPrintable(link.problem()));
        return;
    }
    QVERIFY2(link.state() == SshLink::State::Up, qPrintable(link.problem()));
    QCOMPARE(link.remoteSocket(), m_podman->socketPath());
    const EngineResponse ping = performEngineRequest(unixEngineEndpoint(link.localSocket()),
                                                     EngineRequest::get(u"/_ping"_s));
    QVERIFY2(ping.ok(), qPrintable(ping.transportError));
}

void TestEngineRemote::refusedLoginIsNamed() {
    if (!m_sshSkip.isEmpty())
        QSKIP(qPrintable(m_sshSkip));
    // The host key is trusted by now; only the login is wrong.
    SshLink link(sshEndpoint({u"-F"_s, m_ssh->strangerConfig(), u"-o"_s,
                              u"UserKnownHostsFile="_s + m_ssh->knownHosts()}));
    link.connectToHost();
    QTRY_COMPARE_WITH_TIMEOUT(link.state(), SshLink::State::Failed, 30000);
    qInfo("what the user reads: %s", qPrintable(link.problem()));
    QVERIFY2(link.problem().contains(u"refused the login"_s), qPrintable(link.problem()));
    QVERIFY(!link.retryable());
}

// A host that shows another key than the one trusted is never offered for trust.
void TestEngineRemote::changedHostKeyIsRefused() {
    if (!m_sshSkip.isEmpty())
        QSKIP(qPrintable(m_sshSkip));
    QTemporaryDir dir;
    QFile stranger(m_ssh->strangerConfig().replace(u"stranger_config"_s, u"id_stranger.pub"_s));
    QVERIFY(stranger.open(QIODevice::ReadOnly));
    const QByteArray wrongKey = stranger.readAll().split(' ').mid(0, 2).join(' ');
    const QString knownHosts = dir.filePath(u"known_hosts"_s);
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(u"[127.0.0.1]:%1 "_s.arg(m_ssh->port()).toUtf8() + wrongKey + '\n');
    file.close();
    SshLink link(sshEndpoint(
        {u"-F"_s, m_ssh->clientConfig(), u"-o"_s, u"UserKnownHostsFile="_s + knownHosts}));
    link.connectToHost();
    QTRY_COMPARE_WITH_TIMEOUT(link.state(), SshLink::State::Failed, 30000);
    qInfo("what the user reads: %s", qPrintable(link.problem()));
    QVERIFY2(link.problem().contains(u"has changed"_s), qPrintable(link.problem()));
    QVERIFY(link.hostKeyFingerprints().isEmpty());
    QVERIFY(!link.retryable());
}

// Created through ssh://, reached through the console's own port forward: the terminal echoes,
// a file goes up, and once the sandbox is gone so is the forward.
void TestEngineRemote::sandboxThroughSshEngine() {
    if (!m_sshSkip.isEmpty())
        QSKIP(qPrintable(m_sshSkip));
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    if (!m_containers)
        QSKIP(qPrintable(u"no container can run: "_s + m_podman->unavailableReason()));
    MemorySecretStore secrets;
    EngineSandboxes provider(&secrets, sshEndpoint(sshOptions()));
    provider.setPollInterval(250);
    const auto settled = [&provider] {
        return provider.isEngineReachable() || !provider.sshLink()->problem().isEmpty();
    };
    QTRY_VERIFY_WITH_TIMEOUT(settled(), 30000);
    if (provider.engineState() == EngineSandboxes::EngineState::HostKeyUnknown) {
        // Run alone, no earlier case trusted the key: the user does it here.
        provider.sshLink()->trustHostKey();
        QTRY_VERIFY_WITH_TIMEOUT(provider.isEngineReachable() ||
                                     provider.sshLink()->state() == SshLink::State::Failed,
                                 30000);
    }
    QVERIFY2(provider.isEngineReachable(), qPrintable(provider.status()));
    QVERIFY2(provider.status().contains(u"ssh://root@127.0.0.1:%1"_s.arg(m_ssh->port())),
             qPrintable(provider.status()));

    SandboxCreateOptions options;
    options.name = u"sbx-ssh-%1"_s.arg(QRandomGenerator::global()->generate() % 100000);
    options.image = QString::fromLatin1(imageName);
    QString why;
    const QString id = createOnline(provider, options, &why);
    QVERIFY2(!id.isEmpty(), qPrintable(why));
    QVERIFY2(id.startsWith(u"engine@lab-ssh:"_s), qPrintable(id));

    // Online from the engine's view; reachable once the console's forward is up.
    QTRY_VERIFY_WITH_TIMEOUT(findEntry(provider, id)->endpoint.isValid(), 15000);
    const SandboxEntry entry = *findEntry(provider, id);
    const int local = entry.endpoint.baseUrl.port();
    QCOMPARE(entry.endpoint.baseUrl.host(), u"127.0.0.1"_s);
    QByteArray published;
    QCOMPARE(m_podman->podman({u"port"_s, options.name}, &published), 0);
    const int remote = QString::fromUtf8(published).trimmed().section(u':', -1).toInt();
    QVERIFY2(remote > 0 && remote != local, published.constData());
    QVERIFY2(entry.detail.contains(u"127.0.0.1:%1 \u2192 127.0.0.1:%2"_s.arg(local).arg(remote)),
             qPrintable(entry.detail));
    const Status read = readContext(entry);
    QVERIFY2(read.ok(), qPrintable(read.message));

    SandboxClient client(entry.endpoint, entry.credentials);
    TerminalChannel channel(&client);
    QByteArray seen;
    connect(&channel, &TerminalChannel::output, this, [&seen](const QByteArray &b) { seen += b; });
    channel.open();
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Live, 15000);
    QVERIFY(channel.sendInput("echo over-$((40 + 2))-ssh\r"));
    QTRY_VERIFY_WITH_TIMEOUT(seen.contains("over-42-ssh"), 15000);
    channel.detach();

    QTemporaryDir dir;
    const QString upload = dir.filePath(u"notes.txt"_s);
    QFile file(upload);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("carried through the tunnel\n");
    file.close();
    auto *up = new UploadJob(&client, upload, u"/workspace/notes.txt"_s);
    QSignalSpy uploaded(up, &UploadJob::succeeded);
    QSignalSpy upFailed(up, &ApiJob::failed);
    up->start();
    QTRY_VERIFY_WITH_TIMEOUT(!uploaded.isEmpty() || !upFailed.isEmpty(), 15000);
    QVERIFY2(upFailed.isEmpty(), qPrintable(upFailed.value(0).value(0).value<Status>().message));
    auto *readBack = new ReadFileJob(&client, u"/workspace/notes.txt"_s);
    QSignalSpy content(readBack, &ReadFileJob::succeeded);
    readBack->start();
    QVERIFY(content.wait(15000));
    QCOMPARE(content.first().first().toString(), u"carried through the tunnel\n"_s);

    provider.remove(id);
    QTRY_VERIFY_WITH_TIMEOUT(!findEntry(provider, id).has_value(), 90000);
    const auto forwardAnswers = [local] {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, quint16(local));
        return probe.waitForConnected(2000);
    };
    QTRY_VERIFY_WITH_TIMEOUT(!forwardAnswers(), 15000);
}

QTEST_GUILESS_MAIN(TestEngineRemote)
#include "tst_engineremote.moc"
