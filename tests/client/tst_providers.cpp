// Providers describe themselves (what delete does, logs, pending credentials, the create form),
// the registry follows them, and providerkit keeps one key format with old names read once.
#include "client/providers/localsandboxes.h"
#include "client/providers/providerkit.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/providers/secretstore.h"

#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;

using namespace Qt::StringLiterals;

namespace {

// What a SecretStore holds under key, read the asynchronous way.
std::optional<QString> readNow(SecretStore &store, const QString &key) {
    QObject context;
    std::optional<QString> out;
    bool done = false;
    store.read(key, &context, [&](bool found, const QString &secret) {
        if (found)
            out = secret;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 5000))
        qFatal("the secret store did not answer");
    return out;
}

} // namespace

class TestProviders final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void generatedKeysAreHexAndFresh();
    void aSecretUnderItsOldNameIsMovedOnce();
    void savedEndpointsSayWhatDeleteDoesAndWhileTheirSecretIsRead();
    void localSandboxesDescribeThemselvesAndFollowTheirLog();

private:
    QTemporaryDir m_dir;
};

void TestProviders::generatedKeysAreHexAndFresh() {
    const QString a = generateApiKey();
    const QString b = generateApiKey();
    QVERIFY(QRegularExpression(u"^[0-9a-f]{64}$"_s).match(a).hasMatch());
    QVERIFY(a != b);
    QCOMPARE(sandboxSecretKey(u"engine:abc"_s), u"sandbox/engine:abc"_s);
}

void TestProviders::aSecretUnderItsOldNameIsMovedOnce() {
    MemorySecretStore store;
    store.write(u"engine:abc"_s, u"old-key"_s);
    QObject context;
    std::optional<QString> got;
    // Reads engine:abc's secret, naming its old keychain entry.
    auto read = [&] {
        got.reset();
        readSandboxSecret(
            &store, u"engine:abc"_s, &context,
            [&](bool found, const QString &secret) { got = found ? secret : QString(); },
            u"engine:abc"_s);
    };
    read();
    QTRY_VERIFY(got.has_value());
    QCOMPARE(*got, u"old-key"_s);
    QCOMPARE(readNow(store, u"sandbox/engine:abc"_s), std::optional<QString>(u"old-key"_s));
    QVERIFY(!readNow(store, u"engine:abc"_s).has_value());

    // Under the new name it is found there, and the old name is not consulted.
    store.write(u"engine:abc"_s, u"stale"_s);
    read();
    QTRY_VERIFY(got.has_value());
    QCOMPARE(*got, u"old-key"_s);
}

void TestProviders::savedEndpointsSayWhatDeleteDoesAndWhileTheirSecretIsRead() {
    QSettings settings(m_dir.filePath(u"saved.conf"_s), QSettings::IniFormat);
    MemorySecretStore secrets;
    QString id;
    {
        SavedEndpoints first(&settings, &secrets);
        SandboxEntry entry;
        entry.name = u"remote"_s;
        entry.endpoint.baseUrl = QUrl(u"http://127.0.0.1:9"_s);
        entry.credentials = {Credentials::Kind::ApiKey, u"the-key"_s};
        id = first.add(entry);
    }
    SavedEndpoints saved(&settings, &secrets);
    SandboxRegistry registry;
    registry.setPollInterval(3600 * 1000);
    registry.addProvider(&saved);
    QCOMPARE(registry.providerOf(id), &saved);
    const SandboxEntry entry = registry.entry(id);
    // Read from the store later, like a keychain: pending until then, and not probed meanwhile.
    QVERIFY(saved.credentialsPending(entry));
    QVERIFY(!registry.health(id).probed);
    QTRY_VERIFY(!saved.credentialsPending(registry.entry(id)));
    QCOMPARE(registry.entry(id).credentials.secret, u"the-key"_s);
    QVERIFY(saved.deleteEffect(entry).contains(u"keeps running"_s));
    QVERIFY(!saved.stopsWithConsole());
    QVERIFY(!saved.hasLog(entry));
    QVERIFY(saved.createForm().label.isEmpty());

    QSignalSpy removed(&registry, &SandboxRegistry::removed);
    saved.remove(id);
    QCOMPARE(removed.size(), 1);
    QVERIFY(!registry.contains(id));
    QVERIFY(!registry.providerOf(id));
}

void TestProviders::localSandboxesDescribeThemselvesAndFollowTheirLog() {
    QSettings settings(m_dir.filePath(u"local.conf"_s), QSettings::IniFormat);
    LocalSandboxes local(&settings, {QStringLiteral(SBX_SERVER_BINARY), m_dir.filePath(u"data"_s)});
    SandboxRegistry registry;
    registry.setPollInterval(500);
    registry.addProvider(&local);
    QVERIFY(local.stopsWithConsole());
    const CreateForm form = local.createForm();
    QVERIFY(form.asksWorkspace);
    QVERIFY(!form.asksImage);
    SandboxCreateOptions options;
    options.name = u"logged"_s;
    options.workspace = m_dir.filePath(u"missing"_s);
    QVERIFY(local.createProblem(options).contains(u"existing folder"_s));
    options.workspace.clear();
    options.initHook = u"echo hook-said-$((20+1))"_s;
    QVERIFY(local.createProblem(options).isEmpty());
    const QString id = local.create(options);
    QTRY_COMPARE_WITH_TIMEOUT(registry.state(id), SandboxState::Online, 20000);
    QVERIFY(local.deleteEffect(registry.entry(id)).contains(local.workspace(id)));
    QVERIFY(local.deleteEffect(registry.entry(id)).contains(u"deleted"_s));

    QVERIFY(local.hasLog(registry.entry(id)));
    LogSource *log = registry.providerOf(id)->openLog(id, this);
    QVERIFY(log);
    // The local server's log is a file the reader follows in place.
    log->start();
    QVERIFY(!log->localFile().isEmpty());
    const auto logText = [log] {
        QFile file(log->localFile());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    QTRY_VERIFY_WITH_TIMEOUT(logText().contains("hook-said-21"), 10000);
    QSignalSpy ended(log, &LogSource::ended);
    local.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 20000);
    QVERIFY(!registry.contains(id));
    QVERIFY(!local.openLog(id, this));
}

QTEST_MAIN(TestProviders)
#include "tst_providers.moc"
