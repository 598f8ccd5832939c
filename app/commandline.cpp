#include "app/commandline.h"

#include "app/consolecontext.h"
#include "client/transport/endpoint.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

CommandLineResult parseCommandLine(const QStringList &arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "sbx::ConsoleOptions",
        "Sandbox Console: browse, connect to and manage AIO agent sandboxes.\n"
        "At launch it starts the local sandbox \"Local\" and connects to it."));
    const QCommandLineOption helpOption(
        QStringList{u"h"_s, u"help"_s},
        QCoreApplication::translate("sbx::ConsoleOptions", "Show this help and exit."));
    const QCommandLineOption versionOption(
        QStringList{u"v"_s, u"version"_s},
        QCoreApplication::translate("sbx::ConsoleOptions", "Show the version and exit."));
    const QCommandLineOption connect(
        u"connect"_s,
        QCoreApplication::translate("sbx::ConsoleOptions",
                                    "Connect to the AIO sandbox at <url> and select it."),
        u"url"_s);
    const QCommandLineOption apiKeyEnv(
        u"api-key-env"_s,
        QCoreApplication::translate("sbx::ConsoleOptions",
                                    "Read the --connect sandbox's API key from the "
                                    "environment variable <var>."),
        u"var"_s);
    const QCommandLineOption noLocal(
        u"no-local"_s,
        QCoreApplication::translate("sbx::ConsoleOptions", "Do not start the local sandbox."));
    const QCommandLineOption noRestore(
        u"no-restore"_s,
        QCoreApplication::translate("sbx::ConsoleOptions",
                                    "Start clean: do not reopen the tabs, terminals and logs "
                                    "of the last session."));
    const QCommandLineOption log(
        u"log"_s,
        QCoreApplication::translate("sbx::ConsoleOptions",
                                    "Open the local <file> in the log window, following it."),
        u"file"_s);
    parser.addOptions({helpOption, versionOption, connect, apiKeyEnv, noLocal, noRestore, log});

    CommandLineResult result;
    if (!parser.parse(arguments)) {
        result.action = CommandLineResult::Action::Exit;
        result.exitCode = 2;
        result.output = QCoreApplication::translate("sbx::ConsoleOptions", "%1\nTry --help.\n")
                            .arg(parser.errorText());
        return result;
    }
    if (parser.isSet(helpOption)) {
        result.action = CommandLineResult::Action::Exit;
        // Parsed before any QCoreApplication exists, Qt cannot know the program's name and
        // prints a placeholder in the usage line.
        result.output = parser.helpText().replace(u"<executable_name>"_s, u"sandbox-console"_s);
        return result;
    }
    if (parser.isSet(versionOption)) {
        result.action = CommandLineResult::Action::Exit;
        result.output = u"sandbox-console %1\n"_s.arg(QCoreApplication::applicationVersion());
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.action = CommandLineResult::Action::Exit;
        result.exitCode = 2;
        result.output = QCoreApplication::translate("sbx::ConsoleOptions",
                                                    "Unexpected argument: %1\nTry --help.\n")
                            .arg(parser.positionalArguments().first());
        return result;
    }
    result.options.connectUrl = parser.value(connect);
    result.options.apiKeyEnv = parser.value(apiKeyEnv);
    result.options.noLocal = parser.isSet(noLocal);
    result.options.noRestore = parser.isSet(noRestore);
    result.options.logFiles = parser.values(log);
    if (!result.options.apiKeyEnv.isEmpty() && result.options.connectUrl.isEmpty()) {
        result.action = CommandLineResult::Action::Exit;
        result.exitCode = 2;
        result.output =
            QCoreApplication::translate("sbx::ConsoleOptions", "--api-key-env needs --connect\n");
        return result;
    }
    if (!result.options.apiKeyEnv.isEmpty() &&
        qEnvironmentVariableIsEmpty(result.options.apiKeyEnv.toLocal8Bit().constData())) {
        result.action = CommandLineResult::Action::Exit;
        result.exitCode = 2;
        result.output =
            QCoreApplication::translate("sbx::ConsoleOptions",
                                        "The environment variable %1 is not set or empty\n")
                .arg(result.options.apiKeyEnv);
        return result;
    }
    return result;
}

QString connectFromCommandLine(ConsoleContext &context, const ConsoleOptions &options,
                               QString *error) {
    SandboxEntry entry;
    entry.endpoint.baseUrl = parseBaseUrl(options.connectUrl, error);
    if (!entry.endpoint.isValid())
        return {};
    if (!options.apiKeyEnv.isEmpty()) {
        entry.credentials.kind = Credentials::Kind::ApiKey;
        entry.credentials.secret =
            qEnvironmentVariable(options.apiKeyEnv.toLocal8Bit().constData());
        entry.credentials.origin =
            QCoreApplication::translate("sbx::ConsoleOptions",
                                        "the environment variable %1 (--api-key-env)")
                .arg(options.apiKeyEnv);
    }
    const QList<SandboxEntry> saved = context.savedSandboxes();
    for (const SandboxEntry &existing : saved) {
        if (existing.endpoint.baseUrl == entry.endpoint.baseUrl) {
            if (!options.apiKeyEnv.isEmpty()) {
                SandboxEntry updated = existing;
                updated.credentials = entry.credentials;
                context.updateSaved(updated);
            }
            return existing.id;
        }
    }
    entry.name = entry.endpoint.baseUrl.host() +
                 (entry.endpoint.baseUrl.port() > 0
                      ? QLatin1Char(':') + QString::number(entry.endpoint.baseUrl.port())
                      : QString());
    return context.addSaved(entry);
}

} // namespace sbx
