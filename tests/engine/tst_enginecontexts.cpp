// The Docker CLI's contexts as the console reads them: a context folder written here, as
// `docker context create` writes it (the meta folder named by the SHA-256 of the name).
#include "client/providers/engine/engineconnections.h"
#include "client/providers/engine/enginecontexts.h"
#include "client/providers/engine/enginelistmodel.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/secretstore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

QString idOf(const QString &name) {
    return QString::fromLatin1(
        QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).toHex());
}

void writeFile(const QString &path, const QByteArray &body) {
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(body);
}

void writeContext(const QString &config, const QString &name, const QString &host,
                  bool skipVerify = false, const QString &description = {}) {
    const QJsonObject meta{
        {u"Name"_s, name},
        {u"Metadata"_s, QJsonObject{{u"Description"_s, description}}},
        {u"Endpoints"_s,
         QJsonObject{
             {u"docker"_s, QJsonObject{{u"Host"_s, host}, {u"SkipTLSVerify"_s, skipVerify}}}}}};
    writeFile(config + u"/contexts/meta/"_s + idOf(name) + u"/meta.json"_s,
              QJsonDocument(meta).toJson());
}

const EngineEndpoint *find(const DockerContexts &contexts, const QString &name) {
    for (const EngineEndpoint &e : contexts.endpoints) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

} // namespace

class TestEngineContexts final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void contextsAreOffered();
    void environmentChoosesTheCurrent();
    void badContextsAreReportedNotFatal();
    void hostsAreParsed_data();
    void hostsAreParsed();
    void connectionsOfferTurnOnAndRemember();
    void engineListShowsStateAndTurnsOn();
    void currentContextIsOnAtFirst();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_config;
    QProcessEnvironment m_env;
};

void TestEngineContexts::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_config = m_dir->path() + u"/docker"_s;
    m_env = QProcessEnvironment();
    m_env.insert(u"DOCKER_CONFIG"_s, m_config);
    m_env.insert(u"HOME"_s, m_dir->path());
}

void TestEngineContexts::contextsAreOffered() {
    writeContext(m_config, u"build-server"_s, u"tcp://build.example.com:2376"_s, false,
                 u"CI engine"_s);
    const QString tls = m_config + u"/contexts/tls/"_s + idOf(u"build-server"_s) + u"/docker/"_s;
    for (const char *file : {"ca.pem", "cert.pem", "key.pem"})
        writeFile(tls + QLatin1String(file), "-----BEGIN X-----\n");
    writeContext(m_config, u"laptop-ssh"_s, u"ssh://root@127.0.0.1:2222"_s);
    writeContext(m_config, u"lab"_s, u"tcp://10.1.2.3:2375"_s);
    writeFile(m_config + u"/config.json"_s, R"({"auths": {}, "currentContext": "laptop-ssh"})");

    const DockerContexts contexts = readDockerContexts(m_env, u"/run/podman/podman.sock"_s);
    QVERIFY2(contexts.problems.isEmpty(), qPrintable(contexts.problems.join(u'\n')));
    QStringList names;
    for (const EngineEndpoint &e : contexts.endpoints)
        names << e.name;
    QCOMPARE(names, QStringList({u"default"_s, u"build-server"_s, u"lab"_s, u"laptop-ssh"_s}));
    QCOMPARE(contexts.current, u"laptop-ssh"_s);

    const EngineEndpoint *local = find(contexts, u"default"_s);
    QCOMPARE(local->kind, EngineEndpoint::Kind::Unix);
    QCOMPARE(local->socketPath, u"/run/podman/podman.sock"_s);

    const EngineEndpoint *build = find(contexts, u"build-server"_s);
    QCOMPARE(build->kind, EngineEndpoint::Kind::Tcp);
    QCOMPARE(build->address, u"build.example.com"_s);
    QCOMPARE(build->port, 2376);
    QCOMPARE(build->description, u"CI engine"_s);
    QVERIFY(build->tls && build->verify);
    QCOMPARE(build->caFile, tls + u"ca.pem"_s);
    QCOMPARE(build->keyFile, tls + u"key.pem"_s);
    QVERIFY(!build->plainRemote());

    const EngineEndpoint *ssh = find(contexts, u"laptop-ssh"_s);
    QCOMPARE(ssh->kind, EngineEndpoint::Kind::Ssh);
    QCOMPARE(ssh->user, u"root"_s);
    QCOMPARE(ssh->address, u"127.0.0.1"_s);
    QCOMPARE(ssh->port, 2222);

    // Plain TCP to another machine: offered, but marked for the user to confirm.
    const EngineEndpoint *lab = find(contexts, u"lab"_s);
    QVERIFY(!lab->tls);
    QVERIFY(lab->plainRemote());
}

void TestEngineContexts::environmentChoosesTheCurrent() {
    writeContext(m_config, u"other"_s, u"ssh://me@example.org"_s);
    writeFile(m_config + u"/config.json"_s, R"({"currentContext": "other"})");
    m_env.insert(u"DOCKER_CONTEXT"_s, u"default"_s);
    QCOMPARE(readDockerContexts(m_env, u"/var/run/docker.sock"_s).current, u"default"_s);

    // DOCKER_HOST makes "default" current and is what it means, with its TLS settings.
    m_env.remove(u"DOCKER_CONTEXT"_s);
    m_env.insert(u"DOCKER_HOST"_s, u"tcp://127.0.0.1:2376"_s);
    m_env.insert(u"DOCKER_TLS_VERIFY"_s, u"1"_s);
    m_env.insert(u"DOCKER_CERT_PATH"_s, m_dir->path() + u"/certs"_s);
    writeFile(m_dir->path() + u"/certs/ca.pem"_s, "x");
    const DockerContexts contexts = readDockerContexts(m_env, u"/var/run/docker.sock"_s);
    QCOMPARE(contexts.current, u"default"_s);
    const EngineEndpoint *fromEnv = find(contexts, u"default"_s);
    QCOMPARE(fromEnv->kind, EngineEndpoint::Kind::Tcp);
    QVERIFY(fromEnv->tls);
    QCOMPARE(fromEnv->caFile, m_dir->path() + u"/certs/ca.pem"_s);
    QVERIFY(find(contexts, u"other"_s));
}

void TestEngineContexts::badContextsAreReportedNotFatal() {
    writeContext(m_config, u"good"_s, u"unix:///run/user/1000/podman/podman.sock"_s);
    writeFile(m_config + u"/contexts/meta/garbage/meta.json"_s, "{\"Name\": \"x\", \"Endp");
    writeFile(m_config + u"/contexts/meta/array/meta.json"_s, "[1, 2]");
    writeContext(m_config, u"secret"_s, u"ssh://me:hunter2@example.org"_s);
    writeContext(m_config, u"web"_s, u"https://example.org"_s);
    writeContext(m_config, u"k8s-only"_s, QString());
    writeFile(m_config + u"/config.json"_s, R"({"currentContext": "gone"})");

    const DockerContexts contexts = readDockerContexts(m_env, u"/var/run/docker.sock"_s);
    QStringList names;
    for (const EngineEndpoint &e : contexts.endpoints)
        names << e.name;
    QCOMPARE(names, QStringList({u"default"_s, u"good"_s}));
    const QString problems = contexts.problems.join(u'\n');
    QCOMPARE(contexts.problems.size(), 6);
    QVERIFY2(problems.contains(u"not valid JSON"_s), qPrintable(problems));
    QVERIFY2(problems.contains(u"holds no JSON object"_s), qPrintable(problems));
    QVERIFY2(problems.contains(u"password"_s), qPrintable(problems));
    QVERIFY2(!problems.contains(u"hunter2"_s), qPrintable(problems));
    QVERIFY2(problems.contains(u"https://example.org"_s), qPrintable(problems));
    QVERIFY2(problems.contains(u"no Docker endpoint"_s), qPrintable(problems));
    QVERIFY2(problems.contains(u"gone does not exist"_s), qPrintable(problems));
    QCOMPARE(contexts.current, u"default"_s);
}

void TestEngineContexts::hostsAreParsed_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("port");
    QTest::newRow("unix") << u"unix:///var/run/docker.sock"_s << true << 0 << -1;
    QTest::newRow("unix relative") << u"unix://docker.sock"_s << false << 0 << -1;
    QTest::newRow("tcp") << u"tcp://[::1]:2376"_s << true << 1 << 2376;
    QTest::newRow("tcp without port") << u"tcp://host"_s << false << 1 << -1;
    QTest::newRow("ssh default port") << u"ssh://user@host"_s << true << 2 << -1;
    QTest::newRow("ssh with socket") << u"ssh://user@host/var/run/x"_s << true << 2 << -1;
    QTest::newRow("tcp with path") << u"tcp://host:2376/x"_s << false << 1 << 2376;
    QTest::newRow("npipe") << u"npipe:////./pipe/docker_engine"_s << false << 0 << -1;
    QTest::newRow("empty") << QString() << false << 0 << -1;
}

void TestEngineContexts::hostsAreParsed() {
    QFETCH(QString, host);
    QFETCH(bool, ok);
    QFETCH(int, kind);
    QFETCH(int, port);
    EngineEndpoint endpoint;
    QString why;
    QCOMPARE(parseEngineHost(host, &endpoint, &why), ok);
    if (!ok) {
        QVERIFY(!why.isEmpty());
        return;
    }
    QCOMPARE(int(endpoint.kind), kind);
    QCOMPARE(endpoint.port, port);
    if (endpoint.kind == EngineEndpoint::Kind::Ssh)
        QCOMPARE(endpoint.remoteSocket, host.endsWith(u"/x"_s) ? u"/var/run/x"_s : QString());
}

// The contexts and added engines as the console offers them: off until turned on, then a
// provider of their own in the registry; what was added and turned on is there next time.
void TestEngineContexts::connectionsOfferTurnOnAndRemember() {
    writeContext(m_config, u"build-server"_s, u"tcp://127.0.0.1:1"_s);
    const QString settingsFile = m_dir->path() + u"/console.conf"_s;
    MemorySecretStore secrets;
    SandboxRegistry registry;
    EngineSandboxes local(&secrets, u"/nonexistent/engine.sock"_s);
    registry.addProvider(&local);
    {
        QSettings settings(settingsFile, QSettings::IniFormat);
        EngineConnections engines(&settings, &secrets, &registry, &local, m_env);
        QList<EngineChoice> choices = engines.choices();
        QCOMPARE(choices.size(), 2);
        QCOMPARE(choices[0].origin, EngineChoice::Origin::Default);
        QVERIFY(choices[0].enabled);
        QCOMPARE(choices[1].endpoint.name, u"build-server"_s);
        QVERIFY(!choices[1].enabled);
        QCOMPARE(registry.providers().size(), 1);

        QSignalSpy changed(&engines, &EngineConnections::changed);
        engines.setEnabled(u"build-server"_s, true);
        QVERIFY(!changed.isEmpty());
        QVERIFY(registry.provider(u"engine@build-server"_s));
        QCOMPARE(engines.provider(u"build-server"_s)->displayName(),
                 u"Containers on build-server"_s);

        // Plain TCP to another host is refused unless confirmed; a taken name is refused.
        EngineEndpoint plain;
        plain.name = u"lab"_s;
        plain.host = u"tcp://192.0.2.7:2375"_s;
        QString why;
        QVERIFY(!engines.add(plain, &why));
        QVERIFY2(why.contains(u"plain TCP"_s), qPrintable(why));
        EngineEndpoint taken;
        taken.name = u"build-server"_s;
        taken.host = u"ssh://me@192.0.2.8"_s;
        QVERIFY(!engines.add(taken, &why));
        QVERIFY2(why.contains(u"already"_s), qPrintable(why));

        EngineEndpoint ssh;
        ssh.name = u"lab"_s;
        ssh.host = u"ssh://me@192.0.2.8:2222/run/podman/podman.sock"_s;
        ssh.sshOptions = {u"-i"_s, u"/home/me/.ssh/lab"_s};
        QVERIFY2(engines.add(ssh, &why), qPrintable(why));
        QVERIFY(registry.provider(u"engine@lab"_s));
        QCOMPARE(engines.provider(u"lab"_s)->endpoint().remoteSocket, u"/run/podman/podman.sock"_s);
        engines.setEnabled(u"build-server"_s, false);
        QVERIFY(!registry.provider(u"engine@build-server"_s));
    }
    {
        QSettings settings(settingsFile, QSettings::IniFormat);
        EngineConnections engines(&settings, &secrets, &registry, &local, m_env);
        const QList<EngineChoice> choices = engines.choices();
        QCOMPARE(choices.size(), 3);
        QCOMPARE(choices[2].endpoint.name, u"lab"_s);
        QCOMPARE(choices[2].origin, EngineChoice::Origin::Added);
        QVERIFY(choices[2].enabled);
        QCOMPARE(choices[2].endpoint.sshOptions, QStringList({u"-i"_s, u"/home/me/.ssh/lab"_s}));
        QVERIFY(!choices[1].enabled);
        QVERIFY(registry.provider(u"engine@lab"_s));
        engines.remove(u"lab"_s);
        QVERIFY(!registry.provider(u"engine@lab"_s));
        QCOMPARE(engines.choices().size(), 2);
    }
    // Gone with the connections: only the default engine is left in the list.
    QCOMPARE(registry.providers().size(), 1);
}

// The dialog's table: this machine first and always on; a context off until its box is ticked,
// then its state in a word once the engine answered (here: nothing listens there).
void TestEngineContexts::engineListShowsStateAndTurnsOn() {
    writeContext(m_config, u"lab"_s, u"unix:///nonexistent/lab.sock"_s);
    QSettings settings(m_dir->path() + u"/console.conf"_s, QSettings::IniFormat);
    MemorySecretStore secrets;
    SandboxRegistry registry;
    EngineSandboxes local(&secrets, u"/nonexistent/engine.sock"_s);
    registry.addProvider(&local);
    EngineConnections engines(&settings, &secrets, &registry, &local, m_env);
    EngineListModel model(&engines);
    QCOMPARE(model.rowCount(), 2);
    const auto text = [&model](int row, int column) {
        return model.data(model.index(row, column), Qt::DisplayRole).toString();
    };
    QCOMPARE(text(0, EngineListModel::Name), u"This machine"_s);
    QCOMPARE(text(0, EngineListModel::Address), u"/nonexistent/engine.sock"_s);
    QVERIFY(!(model.flags(model.index(0, 0)) & Qt::ItemIsUserCheckable));
    QCOMPARE(text(1, EngineListModel::Name), u"lab (Docker context)"_s);
    QCOMPARE(text(1, EngineListModel::State), u"Off"_s);
    QCOMPARE(model.data(model.index(1, 0), Qt::CheckStateRole).toInt(), int(Qt::Unchecked));

    QVERIFY(model.setData(model.index(1, 0), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(model.data(model.index(1, 0), Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QTRY_COMPARE(text(1, EngineListModel::State), u"Unreachable"_s);
    QVERIFY2(model.statusText(1).contains(u"No container engine socket at /nonexistent/lab.sock"_s),
             qPrintable(model.statusText(1)));
    QCOMPARE(text(1, EngineListModel::Latency), QString());
    QTRY_COMPARE(text(0, EngineListModel::State), u"Unreachable"_s);
}

// Until the user chooses, the context `docker ps` would use is on; once they choose, theirs.
void TestEngineContexts::currentContextIsOnAtFirst() {
    writeContext(m_config, u"lab"_s, u"unix:///nonexistent/lab.sock"_s);
    writeContext(m_config, u"other"_s, u"unix:///nonexistent/other.sock"_s);
    writeFile(m_config + u"/config.json"_s, R"({"currentContext": "lab"})");
    QSettings settings(m_dir->path() + u"/console.conf"_s, QSettings::IniFormat);
    MemorySecretStore secrets;
    SandboxRegistry registry;
    EngineSandboxes local(&secrets, u"/nonexistent/engine.sock"_s);
    registry.addProvider(&local);
    {
        EngineConnections engines(&settings, &secrets, &registry, &local, m_env);
        QCOMPARE(engines.currentContext(), u"lab"_s);
        const QList<EngineChoice> choices = engines.choices();
        QCOMPARE(choices.size(), 3);
        QVERIFY(choices[1].enabled);  // lab
        QVERIFY(!choices[2].enabled); // other
        QVERIFY(registry.provider(u"engine@lab"_s));
        EngineListModel model(&engines);
        QCOMPARE(model.data(model.index(1, EngineListModel::Name), Qt::DisplayRole).toString(),
                 u"lab (current Docker context)"_s);
        engines.setEnabled(u"lab"_s, false);
    }
    EngineConnections again(&settings, &secrets, &registry, &local, m_env);
    QVERIFY(!again.choices()[1].enabled);
    QVERIFY(!registry.provider(u"engine@lab"_s));
}

QTEST_GUILESS_MAIN(TestEngineContexts)
#include "tst_enginecontexts.moc"
