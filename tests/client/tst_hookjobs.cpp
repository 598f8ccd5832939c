// The hook jobs: fixtures for the shapes a refusal may take (a 4xx, or HTTP 200 with
// success:false) and for a sandbox without the hooks API; then list, register, replace, delete and
// a trial run against a real sandbox-server with an env hook.
#include "client/api/envelope.h"
#include "client/api/hookjobs.h"
#include "client/sandboxclient.h"
#include "client/transport/statusmapping.h"
#include "tests/support/jobs.h"
#include "tests/support/localfiles.h"
#include "tests/support/testserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

Status mapped(int http, const QByteArray &body, const QString &method, const QString &path) {
    ReplyFacts f;
    f.httpStatus = http;
    f.body = body;
    f.method = method;
    f.path = path;
    f.address = u"http://127.0.0.1:8080"_s;
    f.credentials = Credentials::Kind::ApiKey;
    return statusFromReply(f);
}

// Runs a job to its end; the status it failed with, or Ok.
template <typename Job> Status run(Job *job) {
    auto status = std::make_shared<Status>();
    QObject::connect(job, &ApiJob::failed, job, [status](const Status &s) { *status = s; });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    if (!done.wait(30000))
        return Status::error(Status::Kind::Timeout, u"job did not finish"_s);
    QCoreApplication::processEvents(); // failed/succeeded come after finished
    return *status;
}

QList<SandboxHook> listed(SandboxClient *client) {
    auto *job = new ListHooksJob(client);
    QList<SandboxHook> hooks;
    QObject::connect(job, &ListHooksJob::succeeded, job,
                     [&hooks](const QList<SandboxHook> &h) { hooks = h; });
    const Status s = run(job);
    if (!s.ok())
        qWarning("listing hooks failed: %s", qPrintable(s.message));
    return hooks;
}

const SandboxHook *named(const QList<SandboxHook> &hooks, const QString &name) {
    for (const SandboxHook &h : hooks) {
        if (h.name == name)
            return &h;
    }
    return nullptr;
}

SandboxHook makeHook(const QString &name, const QString &command, int priority = 100,
                     double timeout = 10) {
    SandboxHook h;
    h.name = name;
    h.command = command;
    h.priority = priority;
    h.timeoutSeconds = timeout;
    return h;
}

HookRunOutcome trialRun(SandboxClient *client, const SandboxHook &hook) {
    HookTrialRun run(client, hook);
    QSignalSpy done(&run, &HookTrialRun::finished);
    run.start();
    if (!done.wait(60000)) {
        HookRunOutcome outcome;
        outcome.status = Status::error(Status::Kind::Timeout, u"no end"_s);
        return outcome;
    }
    return run.outcome();
}

} // namespace

class TestHookJobs final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void listBodyIsParsedWithDefaults();
    void refusalIsAFailureWithTheServersReason();
    void validationRefusalNamesTheFields();
    void missingRouteMeansNoHooksApi();
    void formRulesAreTheServers_data();
    void formRulesAreTheServers();
    void registerReplaceAndDelete();
    void invalidHookIsRefusedFieldByField();
    void envHookCannotBeDeletedOrReplaced();
    void trialRunGivesOutputAndExitCodeAndLeavesNoSession();
    void trialRunDestroyedMidwayStillRemovesItsSession();
};

void TestHookJobs::initTestCase() {
    // Trial runs start shells; TestServer gives them an empty HOME of their own.
    const auto hook = uR"([{"name":"boot-marker","command":"true","priority":5}])"_s;
    QVERIFY2(m_server.start(TestServer::Options().set(u"SANDBOX_SHUTDOWN_HOOKS"_s, hook)),
             qPrintable(m_server.error()));
}

void TestHookJobs::listBodyIsParsedWithDefaults() {
    QList<SandboxHook> hooks;
    const Status s = parseHookList(fixture("hooks-list.json"), &hooks);
    QVERIFY2(s.ok(), qPrintable(s.message));
    QCOMPARE(hooks.size(), 2); // the entry without a name is dropped
    QCOMPARE(hooks[0].name, u"flush-logs"_s);
    QCOMPARE(hooks[0].timeoutSeconds, 30.5);
    QCOMPARE(hooks[0].priority, 10);
    QVERIFY(hooks[0].readOnly());
    QCOMPARE(hooks[1].name, u"notify"_s);
    QCOMPARE(hooks[1].event, u"shutdown"_s);
    QCOMPARE(hooks[1].timeoutSeconds, 10.0);
    QCOMPARE(hooks[1].priority, 100);
    QCOMPARE(hooks[1].source, u"api"_s);
    QVERIFY(!hooks[1].readOnly());

    QCOMPARE(parseHookList(QByteArray(R"({"success":true,"data":{"hooks":[]}})"), &hooks).kind,
             Status::Kind::BadResponse);
}

// AIO does not say how it refuses to remove an env hook; both shapes read the same.
void TestHookJobs::refusalIsAFailureWithTheServersReason() {
    Status as200;
    {
        Envelope envelope;
        as200 = parseEnvelope(fixture("hooks-refused-200.json"),
                              u"DELETE /v1/sandbox/hooks/flush-logs"_s, &envelope);
    }
    QVERIFY(!as200.ok());
    QCOMPARE(as200.message, u"Hook flush-logs is an environment hook and cannot be removed"_s);

    const Status as403 = mapped(403, fixture("hooks-refused-403.json"), u"DELETE"_s,
                                u"/v1/sandbox/hooks/flush-logs"_s);
    QVERIFY(!as403.ok());
    QVERIFY2(as403.message.contains(u"cannot be deleted through the API"_s),
             qPrintable(as403.message));
    // The key was fine: the message must not send the user after it.
    QVERIFY2(!as403.message.contains(u"API key"_s), qPrintable(as403.message));
}

void TestHookJobs::validationRefusalNamesTheFields() {
    const Status s =
        mapped(422, fixture("hooks-validation-422.json"), u"POST"_s, u"/v1/sandbox/hooks"_s);
    QCOMPARE(s.kind, Status::Kind::Validation);
    QCOMPARE(s.fieldErrors.size(), 2);
    QCOMPARE(s.fieldErrors[0].field, u"name"_s);
    QVERIFY(s.fieldErrors[0].message.contains(u"pattern"_s));
    QCOMPARE(s.fieldErrors[1].field, u"command"_s);

    // An index after the field (a union member, a list item) still names the field.
    const Status nested =
        mapped(422, fixture("validation-422.json"), u"POST"_s, u"/v1/shell/exec"_s);
    QCOMPARE(nested.fieldErrors.size(), 2);
    QCOMPARE(nested.fieldErrors[1].field, u"timeout"_s);
}

void TestHookJobs::missingRouteMeansNoHooksApi() {
    // FastAPI's answer for an unknown route, and sandbox-server's.
    const Status aio =
        mapped(404, fixture("not-found-fastapi.json"), u"GET"_s, u"/v1/sandbox/hooks"_s);
    QVERIFY(isNoHooksApi(aio));
    const Status ours =
        mapped(404, R"({"success":false,"message":"No such endpoint: GET /v1/sandbox/hooks"})",
               u"GET"_s, u"/v1/sandbox/hooks"_s);
    QVERIFY(isNoHooksApi(ours));
    // A refusal inside a working API is not a missing API.
    Envelope envelope;
    QVERIFY(!isNoHooksApi(parseEnvelope(fixture("envelope-failure.json"), {}, &envelope)));
    QVERIFY(!isNoHooksApi(Status::error(Status::Kind::Network, u"refused"_s)));
}

void TestHookJobs::formRulesAreTheServers_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("command");
    QTest::addColumn<double>("timeout");
    QTest::addColumn<QString>("brokenField");
    const QString ok = u"echo ok"_s;
    QTest::newRow("fine") << u"a_B-9"_s << ok << 10.0 << QString();
    QTest::newRow("64 chars") << QString(64, QLatin1Char('n')) << ok << 0.5 << QString();
    QTest::newRow("65 chars") << QString(65, QLatin1Char('n')) << ok << 10.0 << u"name"_s;
    QTest::newRow("space") << u"bad name"_s << ok << 10.0 << u"name"_s;
    QTest::newRow("slash") << u"a/b"_s << ok << 10.0 << u"name"_s;
    QTest::newRow("unicode") << u"café"_s << ok << 10.0 << u"name"_s;
    QTest::newRow("empty name") << QString() << ok << 10.0 << u"name"_s;
    QTest::newRow("empty command") << u"x"_s << u"  "_s << 10.0 << u"command"_s;
    QTest::newRow("4097 chars") << u"x"_s << QString(4097, QLatin1Char('c')) << 10.0
                                << u"command"_s;
    // HookRegistration's timeout is any number: an agent may register 0 or less.
    QTest::newRow("zero timeout") << u"x"_s << ok << 0.0 << QString();
    QTest::newRow("negative timeout") << u"x"_s << ok << -5.0 << QString();
    QTest::newRow("infinite timeout") << u"x"_s << ok << qInf() << u"timeout"_s;
    QTest::newRow("nan timeout") << u"x"_s << ok << qQNaN() << u"timeout"_s;
}

void TestHookJobs::formRulesAreTheServers() {
    QFETCH(QString, name);
    QFETCH(QString, command);
    QFETCH(double, timeout);
    QFETCH(QString, brokenField);
    const QList<FieldError> errors = validateHook(makeHook(name, command, 100, timeout));
    if (brokenField.isEmpty()) {
        QVERIFY(errors.isEmpty());
        return;
    }
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].field, brokenField);
    QVERIFY(!errors[0].message.isEmpty());
    QCOMPARE(validateHookName(name).isEmpty(), brokenField != QLatin1String("name"));
}

void TestHookJobs::registerReplaceAndDelete() {
    SandboxClient client({m_server.url(), {}}, {});
    QList<SandboxHook> hooks = listed(&client);
    const SandboxHook *env = named(hooks, u"boot-marker"_s);
    QVERIFY(env);
    QVERIFY(env->readOnly());
    QCOMPARE(env->priority, 5);

    auto *add = new RegisterHookJob(&client, makeHook(u"flush"_s, u"sync"_s, 20, 3));
    SandboxHook returned;
    connect(add, &RegisterHookJob::succeeded, this,
            [&returned](const SandboxHook &h) { returned = h; });
    Status s = run(add);
    QVERIFY2(s.ok(), qPrintable(s.message));
    QCOMPARE(returned.name, u"flush"_s);
    QCOMPARE(returned.source, u"api"_s);
    QCOMPARE(returned.timeoutSeconds, 3.0);

    // The same name again replaces the hook.
    s = run(new RegisterHookJob(&client, makeHook(u"flush"_s, u"sync; sync"_s, 30, 4)));
    QVERIFY2(s.ok(), qPrintable(s.message));
    hooks = listed(&client);
    QCOMPARE(std::count_if(hooks.begin(), hooks.end(),
                           [](const SandboxHook &h) { return h.name == QLatin1String("flush"); }),
             1);
    QCOMPARE(named(hooks, u"flush"_s)->command, u"sync; sync"_s);
    QCOMPARE(named(hooks, u"flush"_s)->priority, 30);

    s = run(new DeleteHookJob(&client, u"flush"_s));
    QVERIFY2(s.ok(), qPrintable(s.message));
    QVERIFY(!named(listed(&client), u"flush"_s));

    s = run(new DeleteHookJob(&client, u"flush"_s));
    QCOMPARE(s.kind, Status::Kind::NotFound);
    QVERIFY2(s.message.contains(u"flush"_s), qPrintable(s.message));
}

void TestHookJobs::invalidHookIsRefusedFieldByField() {
    SandboxClient client({m_server.url(), {}}, {});
    Status s = run(new RegisterHookJob(&client, makeHook(u"bad name!"_s, u"true"_s)));
    QCOMPARE(s.kind, Status::Kind::Validation);
    QCOMPARE(s.httpStatus, 422);
    QVERIFY(!s.fieldErrors.isEmpty());
    QCOMPARE(s.fieldErrors[0].field, u"name"_s);

    s = run(new RegisterHookJob(&client, makeHook(u"fine"_s, u"true"_s, 100, -1)));
    QCOMPARE(s.kind, Status::Kind::Validation);
    QVERIFY(!s.fieldErrors.isEmpty());
    QCOMPARE(s.fieldErrors[0].field, u"timeout"_s);
    QVERIFY(!named(listed(&client), u"fine"_s));
}

void TestHookJobs::envHookCannotBeDeletedOrReplaced() {
    SandboxClient client({m_server.url(), {}}, {});
    Status s = run(new DeleteHookJob(&client, u"boot-marker"_s));
    QVERIFY(!s.ok());
    QVERIFY2(s.message.contains(u"SANDBOX_SHUTDOWN_HOOKS"_s), qPrintable(s.message));
    QVERIFY2(!s.message.contains(u"requires authentication"_s), qPrintable(s.message));

    s = run(new RegisterHookJob(&client, makeHook(u"boot-marker"_s, u"rm -rf /tmp/x"_s)));
    QCOMPARE(s.kind, Status::Kind::Conflict);
    QVERIFY2(s.message.contains(u"boot-marker"_s), qPrintable(s.message));
    const QList<SandboxHook> hooks = listed(&client); // named() points into this list
    const SandboxHook *env = named(hooks, u"boot-marker"_s);
    QVERIFY(env);
    QCOMPARE(env->command, u"true"_s);
}

void TestHookJobs::trialRunGivesOutputAndExitCodeAndLeavesNoSession() {
    SandboxClient client({m_server.url(), {}}, {});
    const QStringList before = shellSessionIds(&client);

    HookRunOutcome o = trialRun(&client, makeHook(u"t"_s, u"echo trial-$((20 + 22))"_s));
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));
    QVERIFY(o.result.completed());
    QCOMPARE(o.result.exitCode, 0);
    QVERIFY2(o.result.output.contains(u"trial-42"_s), qPrintable(o.result.output));
    QVERIFY(o.cleanupWarning.isEmpty());

    // Several lines and an exit, as a hook may hold: one result, the session's shell intact.
    o = trialRun(&client, makeHook(u"t"_s, u"echo one\necho 'two  \\'\nexit 3"_s));
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));
    QVERIFY(o.result.completed());
    QCOMPARE(o.result.exitCode, 3);
    QVERIFY2(o.result.output.contains(u"one\ntwo  \\"_s), qPrintable(o.result.output));

    // The hook's timeout stops it, as shutdown would.
    o = trialRun(&client, makeHook(u"t"_s, u"sleep 30"_s, 100, 1));
    QVERIFY2(o.status.ok(), qPrintable(o.status.message));
    QCOMPARE(o.result.status, u"hard_timeout"_s);

    QCOMPARE(shellSessionIds(&client), before);
}

void TestHookJobs::trialRunDestroyedMidwayStillRemovesItsSession() {
    SandboxClient client({m_server.url(), {}}, {});
    const QStringList before = shellSessionIds(&client);
    {
        HookTrialRun run(&client, makeHook(u"t"_s, u"sleep 30"_s));
        run.start();
        // Destroyed while the session is being made or the command runs.
        QTRY_VERIFY_WITH_TIMEOUT(shellSessionIds(&client) != before, 10000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(shellSessionIds(&client), before, 10000);
}

QTEST_GUILESS_MAIN(TestHookJobs)
#include "tst_hookjobs.moc"
