// The shell jobs against a real sandbox-server: one namespace of sessions shared with the
// WebSocket terminal.
#include "client/api/shelljobs.h"
#include "client/sandboxclient.h"
#include "client/streams/terminalchannel.h"
#include "tests/support/jobs.h"
#include "tests/support/testserver.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

ShellExecRequest execIn(const QString &command, const QString &sessionId = {}) {
    ShellExecRequest r;
    r.command = command;
    r.sessionId = sessionId;
    return r;
}

} // namespace

class TestShellJobs final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;

private Q_SLOTS:
    void initTestCase();
    void terminalSessionIsListedAndSharesStateWithExec();
    void execWithoutIdCreatesASessionAndDeleteEndsIt();
    void createWithIdReturnsIt();
    void unknownSessionIsNotFound();
};

void TestShellJobs::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
}

void TestShellJobs::terminalSessionIsListedAndSharesStateWithExec() {
    SandboxClient client({m_server.url(), {}}, {});
    TerminalChannel channel(&client);
    channel.open();
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Live, 10000);

    QList<ShellSessionInfo> sessions;
    QVERIFY(runJob(new ListShellSessionsJob(&client), &sessions).ok());
    bool listed = false;
    for (const ShellSessionInfo &s : sessions)
        listed = listed || s.id == channel.sessionId();
    QVERIFY(listed);

    const ShellExecRequest cd = execIn(u"cd /tmp && export SBX_MARK=shared"_s, channel.sessionId());
    ShellCommandResult result;
    Status s = runJob(new ShellExecJob(&client, cd), &result);
    QVERIFY2(s.ok(), qPrintable(s.message));
    QCOMPARE(result.status, u"completed"_s);
    QCOMPARE(result.sessionId, channel.sessionId());

    const ShellExecRequest pwd = execIn(u"pwd; echo $SBX_MARK"_s, channel.sessionId());
    QVERIFY(runJob(new ShellExecJob(&client, pwd), &result).ok());
    QCOMPARE(result.output.trimmed(), u"/tmp\nshared"_s);
    QCOMPARE(result.exitCode, 0);

    const ShellExecRequest fails = execIn(u"false"_s, channel.sessionId());
    QVERIFY(runJob(new ShellExecJob(&client, fails), &result).ok());
    QCOMPARE(result.exitCode, 1);
}

void TestShellJobs::execWithoutIdCreatesASessionAndDeleteEndsIt() {
    SandboxClient client({m_server.url(), {}}, {});
    ShellCommandResult result;
    QVERIFY(runJob(new ShellExecJob(&client, execIn(u"echo created"_s)), &result).ok());
    QVERIFY(!result.sessionId.isEmpty());
    QCOMPARE(result.output.trimmed(), u"created"_s);

    TerminalChannel channel(&client);
    channel.open(result.sessionId);
    QTRY_COMPARE_WITH_TIMEOUT(channel.state(), TerminalChannel::State::Live, 10000);
    QSignalSpy ended(&channel, &TerminalChannel::ended);
    auto *del = new DeleteShellSessionJob(&client, result.sessionId);
    QSignalSpy deleted(del, &DeleteShellSessionJob::succeeded);
    del->start();
    QVERIFY(deleted.wait(10000));
    QVERIFY(ended.wait(10000) || !ended.isEmpty());
    QCOMPARE(channel.state(), TerminalChannel::State::Ended);
}

void TestShellJobs::createWithIdReturnsIt() {
    SandboxClient client({m_server.url(), {}}, {});
    auto *job = new CreateShellSessionJob(&client, u"named-session"_s, u"/tmp"_s);
    QString id, dir;
    connect(job, &CreateShellSessionJob::succeeded, this, [&](const QString &i, const QString &d) {
        id = i;
        dir = d;
    });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    QVERIFY(done.wait(10000));
    QTRY_COMPARE(id, u"named-session"_s);
    QCOMPARE(dir, u"/tmp"_s);
}

void TestShellJobs::unknownSessionIsNotFound() {
    SandboxClient client({m_server.url(), {}}, {});
    auto *job = new DeleteShellSessionJob(&client, u"no-such-session"_s);
    Status status;
    connect(job, &ApiJob::failed, this, [&status](const Status &s) { status = s; });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    QVERIFY(done.wait(10000));
    QTRY_COMPARE(status.kind, Status::Kind::NotFound);
}

QTEST_GUILESS_MAIN(TestShellJobs)
#include "tst_shelljobs.moc"
