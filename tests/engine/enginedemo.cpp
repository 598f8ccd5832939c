// sbx-engine-demo: two engines for trying the console by hand (and for its screenshot): a
// podman service as this machine's engine and a second one behind sshd on loopback, a sandbox
// running on each. Prints how to point the console at them; runs until interrupted.
#include "client/providers/engine/engineapi.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/engine/sshlink.h"
#include "client/providers/secretstore.h"
#include "tests/engine/enginetestkit.h"
#include "tests/engine/podmanservice.h"
#include "tests/engine/remoteengines.h"

#include <QCoreApplication>
#include <QSettings>
#include <QTest>

#include <csignal>
#include <cstdio>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {
constexpr auto kImage = "localhost/sbx-demo:latest";

int fail(const QString &why) {
    std::fprintf(stderr, "sbx-engine-demo: %s\n", qPrintable(why));
    return 1;
}
} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2)
        return fail(
            u"usage: sbx-engine-demo SETTINGS-FILE (the console's, to add the SSH engine)"_s);
    std::signal(SIGINT, [](int) { QCoreApplication::quit(); });
    std::signal(SIGTERM, [](int) { QCoreApplication::quit(); });

    PodmanService local, remote;
    SshServer ssh;
    QString why;
    if (!local.start() || !remote.start())
        return fail(local.unavailableReason() + remote.unavailableReason());
    if (!ssh.start(remote.socketPath(), &why))
        return fail(why);
    for (PodmanService *engine : {&local, &remote}) {
        if (!engine->importSandboxImage(QStringLiteral(SBX_SERVER_BINARY), QLatin1String(kImage)))
            return fail(engine->unavailableReason());
    }

    const QString host = u"ssh://root@127.0.0.1:%1"_s.arg(ssh.port());
    EngineEndpoint endpoint;
    parseEngineHost(host, &endpoint, &why);
    endpoint.name = u"build-server"_s;
    endpoint.sshOptions = {u"-F"_s, ssh.clientConfig()};

    // The console's secrets are its own: the demo's sandboxes use keys it shows, so they are
    // created here with keys the console reads from the engine (SANDBOX_API_KEY).
    MemorySecretStore secrets;
    EngineSandboxes here(&secrets, unixEngineEndpoint(local.socketPath()));
    EngineSandboxes there(&secrets, endpoint);
    here.setPollInterval(500);
    there.setPollInterval(500);
    if (!QTest::qWaitFor(
            [&] {
                return there.engineState() != EngineSandboxes::EngineState::Looking &&
                       there.engineState() != EngineSandboxes::EngineState::Connecting;
            },
            30000))
        return fail(u"the SSH engine did not answer"_s);
    if (there.engineState() == EngineSandboxes::EngineState::HostKeyUnknown) {
        there.sshLink()->trustHostKey();
        if (!QTest::qWaitFor([&] { return there.isEngineReachable(); }, 30000))
            return fail(there.status());
    }
    for (auto [provider, name] :
         {std::pair{&here, u"agent-laptop"_s}, std::pair{&there, u"agent-ci"_s}}) {
        SandboxCreateOptions options;
        options.name = name;
        options.image = QLatin1String(kImage);
        if (createOnline(*provider, options, &why).isEmpty())
            return fail(why);
    }

    QSettings settings(args.at(1), QSettings::IniFormat);
    settings.setValue(u"engines/added/0/name"_s, endpoint.name);
    settings.setValue(u"engines/added/0/description"_s, u"CI build server"_s);
    settings.setValue(u"engines/added/0/host"_s, host);
    settings.setValue(u"engines/added/0/sshOptions"_s, endpoint.sshOptions);
    settings.setValue(u"engines/enabled"_s, QStringList{endpoint.name});
    settings.sync();
    std::printf("DOCKER_HOST=unix://%s\nssh engine: %s (-F %s), added to %s\nready\n",
                qPrintable(local.socketPath()), qPrintable(host), qPrintable(ssh.clientConfig()),
                qPrintable(args.at(1)));
    std::fflush(stdout);
    return app.exec();
}
