// WebEntryCache and WebEntryOpener over a real registry and real sandbox-server processes: what
// each sandbox serves is probed once, kept, probed again when it comes back or its connection
// changes, and opened with a ticket minted at the click.
#include "client/api/webentry.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/providers/secretstore.h"
#include "client/sandboxclient.h"
#include "client/traffic/trafficrecorder.h"
#include "models/webentries/webentrycache.h"
#include "models/webentries/webentryopener.h"
#include "tests/support/browser.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testserver.h"

#include <QNetworkReply>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

using State = WebEntryAvailability::State;

namespace {

// The registry, a saved-sandbox provider and the cache over them, as the console has them.
struct Console {
    explicit Console(const QString &dir)
        : settings(dir + u"/console.conf"_s, QSettings::IniFormat)
        , saved(&settings, &secrets) {
        registry.addProvider(&saved);
    }
    QString add(const QUrl &url, const Credentials &credentials = {}) {
        return saved.add(
            {QString(), u"Web box"_s, {url, {}}, credentials, SandboxState::Online, {}});
    }
    // HEAD requests the registry's clients sent to a URL of this port.
    int heads(quint16 port) const {
        int n = 0;
        const TrafficRecorder *traffic = registry.traffic();
        for (int i = 0; i < traffic->size(); ++i) {
            const TrafficEntry &e = traffic->at(i);
            if (e.method == "HEAD" && QUrl(e.url).port() == port)
                ++n;
        }
        return n;
    }

    QSettings settings;
    MemorySecretStore secrets;
    SavedEndpoints saved;
    SandboxRegistry registry;
};

} // namespace

class TestWebEntries final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString dir(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private Q_SLOTS:
    void probedWhenAskedAndKept();
    void probedAgainOnceExpired();
    void probedAgainWhenBackOnline();
    void probedAgainWhenTheConnectionChanges();
    void failedProbeSaysWhy();
    void openerAddsATicketNeverTheKey();
    void openerWithoutAuthHasNoTicket();
    void openerSaysWhyNoTicket();
};

void TestWebEntries::probedWhenAskedAndKept() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    Console console(dir("kept"));
    WebEntryCache cache(&console.registry);
    QSignalSpy changed(&cache, &WebEntryCache::changed);
    const QString id = console.add(server.url());
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    // Nothing is probed before anyone asks.
    QCOMPARE(cache.availability(id).state, State::Offline);
    QCOMPARE(console.heads(server.port()), 0);

    cache.request(id);
    QCOMPARE(cache.availability(id).state, State::Checking);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(cache.availability(id).served, QStringList{u"docs"_s});
    QVERIFY(changed.count() >= 2);
    QVERIFY(changed.first().first().toString() == id);
    const int probed = console.heads(server.port());
    QCOMPARE(probed, webEntries().size());

    // Kept: asking again sends nothing.
    cache.request(id);
    QCOMPARE(cache.availability(id).state, State::Known);
    QCOMPARE(console.heads(server.port()), probed);
}

void TestWebEntries::probedAgainOnceExpired() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    Console console(dir("expired"));
    WebEntryCache cache(&console.registry);
    QCOMPARE(cache.expiryMs(), WebEntryCache::kDefaultExpiryMs);
    cache.setExpiryMs(300);
    const QString id = console.add(server.url());
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    cache.request(id);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    const int probed = console.heads(server.port());
    // Asked again and again, it probes once the result is older than the expiry.
    QTRY_VERIFY_WITH_TIMEOUT((cache.request(id), cache.availability(id).state == State::Checking),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(console.heads(server.port()), 2 * probed);
}

void TestWebEntries::probedAgainWhenBackOnline() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    FaultProxy proxy(server.port());
    QVERIFY(proxy.listen());
    Console console(dir("back"));
    console.registry.setPollInterval(500);
    WebEntryCache cache(&console.registry);
    const QString id = console.add(proxy.url());
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    cache.request(id);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    const int probed = console.heads(proxy.port());

    // The network goes: nothing is known of its pages while it is unreachable.
    proxy.setRefusing(true);
    proxy.cutAll();
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Unreachable, 10000);
    QCOMPARE(cache.availability(id).state, State::Offline);
    QVERIFY(cache.availability(id).served.isEmpty());

    // Back: probed again without being asked.
    proxy.setRefusing(false);
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(cache.availability(id).served, QStringList{u"docs"_s});
    QCOMPARE(console.heads(proxy.port()), 2 * probed);
}

void TestWebEntries::probedAgainWhenTheConnectionChanges() {
    TestServer first;
    QVERIFY2(first.start(), qPrintable(first.error()));
    const QString key = u"second-server-key-6e0a"_s;
    TestServer second;
    QVERIFY2(second.start(TestServer::withApiKey(key)), qPrintable(second.error()));
    Console console(dir("moved"));
    WebEntryCache cache(&console.registry);
    const QString id = console.add(first.url());
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    cache.request(id);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(console.heads(second.port()), 0);

    // Another address and a key: what the first server served says nothing of the second.
    SandboxEntry entry = *console.saved.find(id);
    entry.endpoint.baseUrl = second.url();
    entry.credentials = {Credentials::Kind::ApiKey, key};
    console.saved.update(entry);
    QVERIFY(cache.availability(id).state != State::Known);
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(cache.availability(id).served, QStringList{u"docs"_s});
    QCOMPARE(console.heads(second.port()), webEntries().size());
}

void TestWebEntries::failedProbeSaysWhy() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    FaultProxy proxy(server.port());
    QVERIFY(proxy.listen());
    Console console(dir("failed"));
    console.registry.setPollInterval(60000); // it stays online for the registry meanwhile
    WebEntryCache cache(&console.registry);
    const QString id = console.add(proxy.url());
    QTRY_COMPARE_WITH_TIMEOUT(console.registry.state(id), SandboxState::Online, 10000);
    proxy.setRefusing(true);
    proxy.cutAll();
    cache.request(id);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Failed, 10000);
    const WebEntryAvailability failed = cache.availability(id);
    QVERIFY(failed.served.isEmpty());
    QVERIFY(!failed.error.ok());
    QVERIFY2(!failed.error.message.isEmpty(), "a message a person can act on");
    // A failure is not kept: the next ask probes again, and finds the pages.
    proxy.setRefusing(false);
    cache.request(id);
    QCOMPARE(cache.availability(id).state, State::Checking);
    QTRY_COMPARE_WITH_TIMEOUT(cache.availability(id).state, State::Known, 10000);
    QCOMPARE(cache.availability(id).served, QStringList{u"docs"_s});
}

void TestWebEntries::openerAddsATicketNeverTheKey() {
    const QString key = u"opener-key-9a3d"_s;
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(key)), qPrintable(server.error()));
    Console console(dir("ticket"));
    const QString id = console.add(server.url(), {Credentials::Kind::ApiKey, key});
    WebEntryOpener opener(&console.registry);
    QSignalSpy ready(&opener, &WebEntryOpener::urlReady);
    QSignalSpy failed(&opener, &WebEntryOpener::failed);
    opener.open(id, u"docs"_s);
    QVERIFY(ready.wait(10000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(ready.first().at(0).toString(), id);
    QCOMPARE(ready.first().at(1).toString(), u"docs"_s);
    const QUrl url = ready.first().at(2).toUrl();
    QCOMPARE(url.path(), u"/v1/docs"_s);
    QCOMPARE(url.port(), int(server.port()));
    QVERIFY(QUrlQuery(url).hasQueryItem(u"ticket"_s));
    QVERIFY(!url.toString(QUrl::FullyEncoded).contains(key));
    QVERIFY(!url.toString().contains(key));
    // The page opens once with it, as a browser opens it.
    QCOMPARE(browse(url).status, 200);
    QCOMPARE(browse(url).status, 401);

    // Each click mints its own.
    opener.open(id, u"vnc"_s);
    QVERIFY(ready.wait(10000));
    const QUrl vnc = ready.last().at(2).toUrl();
    const QString ticket = QUrlQuery(vnc).queryItemValue(u"ticket"_s);
    QVERIFY(!ticket.isEmpty());
    QVERIFY(ticket != QUrlQuery(url).queryItemValue(u"ticket"_s));
    QVERIFY2(vnc.toString(QUrl::FullyEncoded).endsWith(u"&path=websockify%3Fticket%3D"_s + ticket),
             qPrintable(vnc.toString(QUrl::FullyEncoded)));
}

void TestWebEntries::openerWithoutAuthHasNoTicket() {
    TestServer server;
    QVERIFY2(server.start(), qPrintable(server.error()));
    Console console(dir("open"));
    const QString id = console.add(server.url());
    WebEntryOpener opener(&console.registry);
    QSignalSpy ready(&opener, &WebEntryOpener::urlReady);
    opener.open(id, u"docs"_s);
    QVERIFY(ready.wait(10000));
    const QUrl url = ready.first().at(2).toUrl();
    QCOMPARE(url, server.url(u"/v1/docs"_s));
    QVERIFY(!url.hasQuery());
    QCOMPARE(browse(url).status, 200);
}

void TestWebEntries::openerSaysWhyNoTicket() {
    TestServer server;
    QVERIFY2(server.start(TestServer::withApiKey(u"the-right-key"_s)), qPrintable(server.error()));
    Console console(dir("refused"));
    const QString wrong = u"a-wrong-key-40c7"_s;
    const QString id = console.add(server.url(), {Credentials::Kind::ApiKey, wrong});
    WebEntryOpener opener(&console.registry);
    QSignalSpy ready(&opener, &WebEntryOpener::urlReady);
    QSignalSpy failed(&opener, &WebEntryOpener::failed);
    opener.open(id, u"docs"_s);
    QVERIFY(failed.wait(10000));
    QCOMPARE(ready.count(), 0);
    const QString message = failed.first().at(2).toString();
    QVERIFY2(message.contains(u"API docs"_s) && message.contains(u"Web box"_s),
             qPrintable(message));
    QVERIFY2(message.contains(u"API key"_s), qPrintable(message)); // the Status says why
    QVERIFY(!message.contains(wrong));

    // A sandbox that is gone says so.
    opener.open(u"saved:none"_s, u"docs"_s);
    QVERIFY(failed.wait(10000));
    QVERIFY(!failed.last().at(2).toString().isEmpty());
    QCOMPARE(ready.count(), 0);
}

QTEST_GUILESS_MAIN(TestWebEntries)
#include "tst_webentries.moc"
