#include "app/appearance.h"
#include "app/commandline.h"
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "app/translations.h"
#include "client/providers/sandboxregistry.h"
#include "widgets/common/icons.h"
#include "widgets/logs/logwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace sbx;

int main(int argc, char **argv) {
    QElapsedTimer startClock;
    startClock.start();
    // SBX_REPORT_STARTUP=phases: where the time to the first frame goes, for bench/.
    const bool phases = qgetenv("SBX_REPORT_STARTUP") == "phases";
    const auto phase = [&startClock, phases](const char *name) {
        if (phases)
            std::fprintf(stderr, "startup: %s %.1f ms\n", name,
                         double(startClock.nsecsElapsed()) / 1e6);
    };
    QCoreApplication::setOrganizationName(u"SandboxConsole"_s);
    QCoreApplication::setApplicationName(u"sandbox-console"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(SBX_VERSION));

    // Parsed before QApplication so that --help and --version work without a display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const CommandLineResult cli = parseCommandLine(arguments);
    if (cli.action == CommandLineResult::Action::Exit) {
        std::fputs(cli.output.toLocal8Bit().constData(), cli.exitCode == 0 ? stdout : stderr);
        return cli.exitCode;
    }

    QApplication app(argc, argv);
    phase("application");
    // Before anything shows a string: the language chosen in Preferences, or the system's.
    const ConsoleContext::Paths paths = ConsoleContext::defaultPaths();
    installTranslations(ConsoleContext::savedLanguage(paths.settingsFile));
    QApplication::setApplicationDisplayName(
        QCoreApplication::translate("sbx::MainWindow", "Sandbox Console"));
    QApplication::setDesktopFileName(u"sandbox-console"_s);
    QApplication::setWindowIcon(Icons::appIcon());
    phase("translations and icon");

    ConsoleContext context(paths);
    phase("context");
    applyAppearance(context.preferences().colours);
    phase("appearance");
    MainWindow window(&context);
    phase("main window");

    QString defaultSelection;
    QString localId;
    // The local server is spawned after the window first shows (10-30 ms of fork and exec that
    // the window need not wait for); until then its row says it is starting.
    if (!cli.options.noLocal)
        defaultSelection = localId = context.startDefaultLocal(/*startNow=*/false);
    if (!cli.options.connectUrl.isEmpty()) {
        QString error;
        const QString id = connectFromCommandLine(context, cli.options, &error);
        if (id.isEmpty()) {
            std::fprintf(stderr, "sandbox-console: --connect: %s\n",
                         error.toLocal8Bit().constData());
            return 2;
        }
        defaultSelection = id;
    }
    // The last session's sandbox wins over the default local one, not over --connect.
    const QString restored = window.restoreSession(!cli.options.noRestore);
    if (!restored.isEmpty() && cli.options.connectUrl.isEmpty())
        defaultSelection = restored;
    if (defaultSelection.isEmpty() && !context.registry()->ids().isEmpty())
        defaultSelection = context.registry()->ids().constFirst();
    window.selectSandbox(defaultSelection);
    phase("session and selection");
    window.show();
    phase("show");
    for (const QString &file : cli.options.logFiles)
        window.logWindow()->openFile(file);

    // Startup figures for bench/: printed only when asked, on stderr. SBX_REPORT_STARTUP=exit
    // (or =phases) also quits once the default sandbox is online, so a benchmark can run the
    // console in a loop.
    const QByteArray report = qgetenv("SBX_REPORT_STARTUP");
    if (!report.isEmpty()) {
        QTimer::singleShot(0, &window, [&startClock] {
            std::fprintf(stderr, "startup: window shown %lld ms\n",
                         static_cast<long long>(startClock.elapsed()));
        });
        QObject::connect(
            context.registry(), &SandboxRegistry::stateChanged, &window,
            [&startClock, defaultSelection, report](const QString &id, SandboxState state) {
                if (id != defaultSelection || state != SandboxState::Online)
                    return;
                std::fprintf(stderr, "startup: sandbox online %lld ms\n",
                             static_cast<long long>(startClock.elapsed()));
                if (report == "exit" || report == "phases")
                    QCoreApplication::quit();
            });
    }
    if (!localId.isEmpty())
        QTimer::singleShot(0, &context, [&context, localId] { context.startLocal(localId); });
    return app.exec();
}
