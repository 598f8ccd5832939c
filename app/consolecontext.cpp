#include "app/consolecontext.h"

#include "app/keychainstore.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/savedendpoints.h"
#include "models/sandboxlistmodel.h"

#include <QSettings>
#include <QStandardPaths>

ConsoleContext::Paths ConsoleContext::defaultPaths() {
    Paths paths;
    paths.settingsFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
                         QStringLiteral("/sandbox-console.conf");
    paths.dataDir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    paths.serverBinary = defaultServerBinary();
    paths.useKeychain = qEnvironmentVariableIntValue("SBX_NO_KEYCHAIN") == 0;
    return paths;
}

ConsoleContext::ConsoleContext(const Paths &paths, QObject *parent)
    : QObject(parent)
    , m_settings(new QSettings(paths.settingsFile, QSettings::IniFormat, this))
    , m_secrets(new KeychainSecretStore(paths.useKeychain, this))
    , m_saved(new SavedEndpoints(m_settings, m_secrets, this))
    , m_local(new LocalSandboxes(m_settings, {paths.serverBinary, paths.dataDir, m_secrets}, this))
    , m_engine(new EngineSandboxes(m_secrets, paths.engineSocket, this))
    , m_sandboxes(new SandboxListModel(this))
    , m_preferences(new PreferencesHub(this)) {
    m_secrets->probe();
    Preferences loaded;
    loaded.pollIntervalMs =
        m_settings->value(QStringLiteral("preferences/pollIntervalMs"), loaded.pollIntervalMs)
            .toInt();
    loaded.scrollbackLines =
        m_settings->value(QStringLiteral("preferences/scrollbackLines"), loaded.scrollbackLines)
            .toInt();
    loaded.parallelTransfers =
        m_settings->value(QStringLiteral("preferences/parallelTransfers"), loaded.parallelTransfers)
            .toInt();
    m_preferences->set(loaded);
    m_sandboxes->setPollInterval(loaded.pollIntervalMs);
    m_sandboxes->addProvider(m_local);
    m_sandboxes->addProvider(m_saved);
    m_sandboxes->addProvider(m_engine);
    registerStandardTabs(m_tabs);
}

ConsoleContext::~ConsoleContext() {
    // Local sandboxes stop with the console; the list model must not outlive its providers' rows.
    m_local->stopAll();
}

void ConsoleContext::setPreferences(const Preferences &preferences) {
    m_settings->setValue(QStringLiteral("preferences/pollIntervalMs"), preferences.pollIntervalMs);
    m_settings->setValue(QStringLiteral("preferences/scrollbackLines"),
                         preferences.scrollbackLines);
    m_settings->setValue(QStringLiteral("preferences/parallelTransfers"),
                         preferences.parallelTransfers);
    m_settings->sync();
    m_sandboxes->setPollInterval(preferences.pollIntervalMs);
    m_preferences->set(preferences);
}
