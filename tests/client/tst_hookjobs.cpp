// The hook jobs: fixtures for the shapes a refusal may take (a 4xx, or HTTP 200 with
// success:false) and for a sandbox without the hooks API; then list, register, replace, delete and
// a trial run against a real sandbox-server with an env hook.
#include "client/api/envelope.h"
#include "client/api/hookjobs.h"
#include "client/sandboxclient.h"
#include "client/transport/statusmapping.h"
#include "tests/support/testserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace sbx;
using namespace sbxtest;

namespace {

QByteArray fixture(const char *name) {
    QFile file(QStringLiteral(SBX_FIXTURES_DIR "/") + QString::fromLatin1(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return file.readAll();
}

Status mapped(int http, const QByteArray &body, const QString &method, const QString &path) {
    ReplyFacts f;
    f.httpStatus = http;
    f.body = body;
    f.method = method;
    f.path = path;
    f.address = QStringLiteral("http://127.0.0.1:8080");
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
        return Status::error(Status::Kind::Timeout, QStringLiteral("job did not finish"));
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
        outcome.status = Status::error(Status::Kind::Timeout, QStringLiteral("no end"));
        return outcome;
    }
    return run.outcome();
}

QStringList sessionIds(SandboxClient *client) {
    auto *job = new ListShellSessionsJob(client);
    QStringList ids;
    QObject::connect(job, &ListShellSessionsJob::succeeded, job,
                     [&ids](const QList<ShellSessionInfo> &sessions) {
                         for (const ShellSessionInfo &s : sessions)
                             ids << s.id;
                     });
    run(job);
    return ids;
}

} // namespace

class TestHookJobs final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase() {
        TestServer::Options options;
        // Trial runs start shells; TestServer gives them an empty HOME of their own.
        options.env.insert(QStringLiteral("SANDBOX_SHUTDOWN_HOOKS"),
                           QStringLiteral(R"([{"name":"boot-marker","command":"true",)"
                                          R"("priority":5}])"));
        QVERIFY2(m_server.start(options), qPrintable(m_server.error()));
    }

    void listBodyIsParsedWithDefaults() {
        QList<SandboxHook> hooks;
        const Status s = parseHookList(fixture("hooks-list.json"), &hooks);
        QVERIFY2(s.ok(), qPrintable(s.message));
        QCOMPARE(hooks.size(), 2); // the entry without a name is dropped
        QCOMPARE(hooks[0].name, QStringLiteral("flush-logs"));
        QCOMPARE(hooks[0].timeoutSeconds, 30.5);
        QCOMPARE(hooks[0].priority, 10);
        QVERIFY(hooks[0].readOnly());
        QCOMPARE(hooks[1].name, QStringLiteral("notify"));
        QCOMPARE(hooks[1].event, QStringLiteral("shutdown"));
        QCOMPARE(hooks[1].timeoutSeconds, 10.0);
        QCOMPARE(hooks[1].priority, 100);
        QCOMPARE(hooks[1].source, QStringLiteral("api"));
        QVERIFY(!hooks[1].readOnly());

        QCOMPARE(parseHookList(QByteArray(R"({"success":true,"data":{"hooks":[]}})"), &hooks).kind,
                 Status::Kind::BadResponse);
    }

    // AIO does not say how it refuses to remove an env hook; both shapes read the same.
    void refusalIsAFailureWithTheServersReason() {
        Status as200;
        {
            Envelope envelope;
            as200 = parseEnvelope(fixture("hooks-refused-200.json"),
                                  QStringLiteral("DELETE /v1/sandbox/hooks/flush-logs"), &envelope);
        }
        QVERIFY(!as200.ok());
        QCOMPARE(as200.message,
                 QStringLiteral("Hook flush-logs is an environment hook and cannot be removed"));

        const Status as403 =
            mapped(403, fixture("hooks-refused-403.json"), QStringLiteral("DELETE"),
                   QStringLiteral("/v1/sandbox/hooks/flush-logs"));
        QVERIFY(!as403.ok());
        QVERIFY2(as403.message.contains(QStringLiteral("cannot be deleted through the API")),
                 qPrintable(as403.message));
        // The key was fine: the message must not send the user after it.
        QVERIFY2(!as403.message.contains(QStringLiteral("API key")), qPrintable(as403.message));
    }

    void validationRefusalNamesTheFields() {
        const Status s = mapped(422, fixture("hooks-validation-422.json"), QStringLiteral("POST"),
                                QStringLiteral("/v1/sandbox/hooks"));
        QCOMPARE(s.kind, Status::Kind::Validation);
        QCOMPARE(s.fieldErrors.size(), 2);
        QCOMPARE(s.fieldErrors[0].field, QStringLiteral("name"));
        QVERIFY(s.fieldErrors[0].message.contains(QStringLiteral("pattern")));
        QCOMPARE(s.fieldErrors[1].field, QStringLiteral("command"));

        // An index after the field (a union member, a list item) still names the field.
        const Status nested = mapped(422, fixture("validation-422.json"), QStringLiteral("POST"),
                                     QStringLiteral("/v1/shell/exec"));
        QCOMPARE(nested.fieldErrors.size(), 2);
        QCOMPARE(nested.fieldErrors[1].field, QStringLiteral("timeout"));
    }

    void missingRouteMeansNoHooksApi() {
        // FastAPI's answer for an unknown route, and sandbox-server's.
        const Status aio = mapped(404, fixture("not-found-fastapi.json"), QStringLiteral("GET"),
                                  QStringLiteral("/v1/sandbox/hooks"));
        QVERIFY(isNoHooksApi(aio));
        const Status ours =
            mapped(404, R"({"success":false,"message":"No such endpoint: GET /v1/sandbox/hooks"})",
                   QStringLiteral("GET"), QStringLiteral("/v1/sandbox/hooks"));
        QVERIFY(isNoHooksApi(ours));
        // A refusal inside a working API is not a missing API.
        Envelope envelope;
        QVERIFY(!isNoHooksApi(parseEnvelope(fixture("envelope-failure.json"), {}, &envelope)));
        QVERIFY(!isNoHooksApi(Status::error(Status::Kind::Network, QStringLiteral("refused"))));
    }

    void formRulesAreTheServers_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("command");
        QTest::addColumn<double>("timeout");
        QTest::addColumn<QString>("brokenField");
        const QString ok = QStringLiteral("echo ok");
        QTest::newRow("fine") << QStringLiteral("a_B-9") << ok << 10.0 << QString();
        QTest::newRow("64 chars") << QString(64, QLatin1Char('n')) << ok << 0.5 << QString();
        QTest::newRow("65 chars") << QString(65, QLatin1Char('n')) << ok << 10.0
                                  << QStringLiteral("name");
        QTest::newRow("space") << QStringLiteral("bad name") << ok << 10.0
                               << QStringLiteral("name");
        QTest::newRow("slash") << QStringLiteral("a/b") << ok << 10.0 << QStringLiteral("name");
        QTest::newRow("unicode") << QStringLiteral("café") << ok << 10.0 << QStringLiteral("name");
        QTest::newRow("empty name") << QString() << ok << 10.0 << QStringLiteral("name");
        QTest::newRow("empty command")
            << QStringLiteral("x") << QStringLiteral("  ") << 10.0 << QStringLiteral("command");
        QTest::newRow("4097 chars") << QStringLiteral("x") << QString(4097, QLatin1Char('c'))
                                    << 10.0 << QStringLiteral("command");
        // HookRegistration's timeout is any number: an agent may register 0 or less.
        QTest::newRow("zero timeout") << QStringLiteral("x") << ok << 0.0 << QString();
        QTest::newRow("negative timeout") << QStringLiteral("x") << ok << -5.0 << QString();
        QTest::newRow("infinite timeout")
            << QStringLiteral("x") << ok << qInf() << QStringLiteral("timeout");
        QTest::newRow("nan timeout")
            << QStringLiteral("x") << ok << qQNaN() << QStringLiteral("timeout");
    }
    void formRulesAreTheServers() {
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

    void registerReplaceAndDelete() {
        SandboxClient client({m_server.url(), {}}, {});
        QList<SandboxHook> hooks = listed(&client);
        const SandboxHook *env = named(hooks, QStringLiteral("boot-marker"));
        QVERIFY(env);
        QVERIFY(env->readOnly());
        QCOMPARE(env->priority, 5);

        auto *add = new RegisterHookJob(
            &client, makeHook(QStringLiteral("flush"), QStringLiteral("sync"), 20, 3));
        SandboxHook returned;
        connect(add, &RegisterHookJob::succeeded, this,
                [&returned](const SandboxHook &h) { returned = h; });
        Status s = run(add);
        QVERIFY2(s.ok(), qPrintable(s.message));
        QCOMPARE(returned.name, QStringLiteral("flush"));
        QCOMPARE(returned.source, QStringLiteral("api"));
        QCOMPARE(returned.timeoutSeconds, 3.0);

        // The same name again replaces the hook.
        s = run(new RegisterHookJob(
            &client, makeHook(QStringLiteral("flush"), QStringLiteral("sync; sync"), 30, 4)));
        QVERIFY2(s.ok(), qPrintable(s.message));
        hooks = listed(&client);
        QCOMPARE(
            std::count_if(hooks.begin(), hooks.end(),
                          [](const SandboxHook &h) { return h.name == QLatin1String("flush"); }),
            1);
        QCOMPARE(named(hooks, QStringLiteral("flush"))->command, QStringLiteral("sync; sync"));
        QCOMPARE(named(hooks, QStringLiteral("flush"))->priority, 30);

        s = run(new DeleteHookJob(&client, QStringLiteral("flush")));
        QVERIFY2(s.ok(), qPrintable(s.message));
        QVERIFY(!named(listed(&client), QStringLiteral("flush")));

        s = run(new DeleteHookJob(&client, QStringLiteral("flush")));
        QCOMPARE(s.kind, Status::Kind::NotFound);
        QVERIFY2(s.message.contains(QStringLiteral("flush")), qPrintable(s.message));
    }

    void invalidHookIsRefusedFieldByField() {
        SandboxClient client({m_server.url(), {}}, {});
        Status s = run(new RegisterHookJob(
            &client, makeHook(QStringLiteral("bad name!"), QStringLiteral("true"))));
        QCOMPARE(s.kind, Status::Kind::Validation);
        QCOMPARE(s.httpStatus, 422);
        QVERIFY(!s.fieldErrors.isEmpty());
        QCOMPARE(s.fieldErrors[0].field, QStringLiteral("name"));

        s = run(new RegisterHookJob(
            &client, makeHook(QStringLiteral("fine"), QStringLiteral("true"), 100, -1)));
        QCOMPARE(s.kind, Status::Kind::Validation);
        QVERIFY(!s.fieldErrors.isEmpty());
        QCOMPARE(s.fieldErrors[0].field, QStringLiteral("timeout"));
        QVERIFY(!named(listed(&client), QStringLiteral("fine")));
    }

    void envHookCannotBeDeletedOrReplaced() {
        SandboxClient client({m_server.url(), {}}, {});
        Status s = run(new DeleteHookJob(&client, QStringLiteral("boot-marker")));
        QVERIFY(!s.ok());
        QVERIFY2(s.message.contains(QStringLiteral("SANDBOX_SHUTDOWN_HOOKS")),
                 qPrintable(s.message));
        QVERIFY2(!s.message.contains(QStringLiteral("requires authentication")),
                 qPrintable(s.message));

        s = run(new RegisterHookJob(
            &client, makeHook(QStringLiteral("boot-marker"), QStringLiteral("rm -rf /tmp/x"))));
        QCOMPARE(s.kind, Status::Kind::Conflict);
        QVERIFY2(s.message.contains(QStringLiteral("boot-marker")), qPrintable(s.message));
        const QList<SandboxHook> hooks = listed(&client); // named() points into this list
        const SandboxHook *env = named(hooks, QStringLiteral("boot-marker"));
        QVERIFY(env);
        QCOMPARE(env->command, QStringLiteral("true"));
    }

    void trialRunGivesOutputAndExitCodeAndLeavesNoSession() {
        SandboxClient client({m_server.url(), {}}, {});
        const QStringList before = sessionIds(&client);

        HookRunOutcome o = trialRun(
            &client, makeHook(QStringLiteral("t"), QStringLiteral("echo trial-$((20 + 22))")));
        QVERIFY2(o.status.ok(), qPrintable(o.status.message));
        QVERIFY(o.result.completed());
        QCOMPARE(o.result.exitCode, 0);
        QVERIFY2(o.result.output.contains(QStringLiteral("trial-42")), qPrintable(o.result.output));
        QVERIFY(o.cleanupWarning.isEmpty());

        // Several lines and an exit, as a hook may hold: one result, the session's shell intact.
        o = trialRun(&client, makeHook(QStringLiteral("t"),
                                       QStringLiteral("echo one\necho 'two  \\'\nexit 3")));
        QVERIFY2(o.status.ok(), qPrintable(o.status.message));
        QVERIFY(o.result.completed());
        QCOMPARE(o.result.exitCode, 3);
        QVERIFY2(o.result.output.contains(QStringLiteral("one\ntwo  \\")),
                 qPrintable(o.result.output));

        // The hook's timeout stops it, as shutdown would.
        o = trialRun(&client, makeHook(QStringLiteral("t"), QStringLiteral("sleep 30"), 100, 1));
        QVERIFY2(o.status.ok(), qPrintable(o.status.message));
        QCOMPARE(o.result.status, QStringLiteral("hard_timeout"));

        QCOMPARE(sessionIds(&client), before);
    }

    void trialRunDestroyedMidwayStillRemovesItsSession() {
        SandboxClient client({m_server.url(), {}}, {});
        const QStringList before = sessionIds(&client);
        {
            HookTrialRun run(&client, makeHook(QStringLiteral("t"), QStringLiteral("sleep 30")));
            run.start();
            // Destroyed while the session is being made or the command runs.
            QTRY_VERIFY_WITH_TIMEOUT(sessionIds(&client) != before, 10000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(sessionIds(&client), before, 10000);
    }
};

QTEST_GUILESS_MAIN(TestHookJobs)
#include "tst_hookjobs.moc"
