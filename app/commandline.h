#pragma once

#include <QString>
#include <QStringList>

namespace sbx {

// The console's command line, parsed before any window exists.
struct ConsoleOptions {
    QString connectUrl;
    QString apiKeyEnv; // name of the variable holding the API key, so it stays off the command line
    bool noLocal = false;
    // --no-restore: the last session's tabs, terminals and logs stay closed.
    bool noRestore = false;
    // Local files to open in the log window (--log, repeatable).
    QStringList logFiles;
};

struct CommandLineResult {
    enum class Action { Run, Exit };
    Action action = Action::Run;
    int exitCode = 0;
    QString output; // --help / --version text, or the error
    ConsoleOptions options;
};

CommandLineResult parseCommandLine(const QStringList &arguments);

class ConsoleContext;
// --connect: reuses the saved sandbox with that address, or saves a new one, with the key of
// --api-key-env when given. Returns its id, or "" with *error set.
QString connectFromCommandLine(ConsoleContext &context, const ConsoleOptions &options,
                               QString *error);

} // namespace sbx
