// LocalSandboxes: real sandbox-server children started, killed, stopped, persisted and removed.
#include "client/api/sandboxjobs.h"
#include "client/providers/localsandboxes.h"
#include "client/sandboxclient.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

class TestLocalSandboxes final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString settingsPath() const { return m_dir.filePath(QStringLiteral("settings.conf")); }
    LocalSandboxes::Options options() const {
        return {QStringLiteral(SBX_SERVER_BINARY), m_dir.filePath(QStringLiteral("data"))};
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
    void defaultSandboxStartsAndAnswers() {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, options());
        QSignalSpy added(&provider, &SandboxProvider::sandboxAdded);
        const QString id = provider.ensureDefault();
        QCOMPARE(id, QString::fromLatin1(LocalSandboxes::defaultId));
        QCOMPARE(added.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        const SandboxEntry entry = entryOf(provider, id);
        QVERIFY(entry.endpoint.isValid());
        QCOMPARE(entry.endpoint.baseUrl.host(), QStringLiteral("127.0.0.1"));
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

    void killedProcessTurnsUnreachable() {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, options());
        const QString id = provider.create(QStringLiteral("Doomed"));
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        const qint64 pid = provider.processId(id);
        QVERIFY(pid > 0);
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Unreachable,
                                  10000);
        QVERIFY2(entryOf(provider, id).detail.contains(QStringLiteral("killed")),
                 qPrintable(entryOf(provider, id).detail));
        QVERIFY(!entryOf(provider, id).endpoint.isValid());
        QVERIFY(provider.actions(entryOf(provider, id)).testFlag(LifecycleAction::Start));
        // Starting again works, with a new key.
        provider.start(id);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        provider.remove(id);
    }

    void stopGoesThroughStoppingToStopped() {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, options());
        const QString id = provider.create(QStringLiteral("Stoppable"));
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online, 20000);
        QList<SandboxState> seen;
        connect(&provider, &SandboxProvider::sandboxChanged, this,
                [&seen, id](const SandboxEntry &e) {
                    if (e.id == id)
                        seen << e.providerState;
                });
        provider.stop(id);
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Stopped,
                                  10000);
        QCOMPARE(seen, (QList<SandboxState>{SandboxState::Stopping, SandboxState::Stopped}));
        QVERIFY(!provider.hasRunning());
        provider.remove(id);
    }

    void listSurvivesRestartAndRemoveCleansUp() {
        QString id;
        QString workspace;
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            LocalSandboxes provider(&settings, options());
            id = provider.create(QStringLiteral("Persistent"));
            workspace = provider.workspace(id);
            QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, id).providerState, SandboxState::Online,
                                      20000);
            QVERIFY(QFileInfo::exists(workspace));
        } // the console quits: its children stop
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, options());
        const SandboxEntry entry = entryOf(provider, id);
        QCOMPARE(entry.name, QStringLiteral("Persistent"));
        QCOMPARE(entry.providerState, SandboxState::Stopped);
        provider.remove(id);
        QVERIFY(!QFileInfo::exists(workspace));
        QVERIFY(entryOf(provider, id).id.isEmpty());

        // A folder the user picked is used, and only forgotten on remove.
        QTemporaryDir picked;
        const QString pickedId = provider.create(QStringLiteral("Picked"), picked.path());
        QTRY_COMPARE_WITH_TIMEOUT(entryOf(provider, pickedId).providerState, SandboxState::Online,
                                  20000);
        provider.remove(pickedId);
        QVERIFY(QFileInfo::exists(picked.path()));
    }

    void missingBinaryIsReported() {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        LocalSandboxes provider(&settings, {m_dir.filePath(QStringLiteral("no-such-server")),
                                            m_dir.filePath(QStringLiteral("data2"))});
        QSignalSpy failed(&provider, &SandboxProvider::actionFailed);
        const QString id = provider.create(QStringLiteral("Broken"));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("sandbox-server not found")));
        QCOMPARE(entryOf(provider, id).providerState, SandboxState::Unreachable);
    }
};

QTEST_GUILESS_MAIN(TestLocalSandboxes)
#include "tst_localsandboxes.moc"
