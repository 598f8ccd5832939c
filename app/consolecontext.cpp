#include "app/consolecontext.h"

#include "app/keychainstore.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/traffic/trafficrecorder.h"
#include "models/sandboxlistmodel.h"
#include "widgets/common/userprompts.h"

#include <QSettings>
#include <QStandardPaths>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Read before the context exists (savedLanguage) and with the other preferences.
QString languageKey() {
    return u"preferences/language"_s;
}

} // namespace

QString ConsoleContext::savedLanguage(const QString &settingsFile) {
    return QSettings(settingsFile, QSettings::IniFormat).value(languageKey()).toString();
}

ConsoleContext::Paths ConsoleContext::defaultPaths() {
    Paths paths;
    paths.settingsFile = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
                         u"/sandbox-console.conf"_s;
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
    , m_registry(new SandboxRegistry(this))
    , m_sandboxList(new SandboxListModel(m_registry, this))
    , m_preferences(new PreferencesHub(this))
    , m_prompts(dialogPrompts()) {
    m_secrets->probe();
    Preferences loaded;
    loaded.pollIntervalMs =
        m_settings->value(u"preferences/pollIntervalMs"_s, loaded.pollIntervalMs).toInt();
    loaded.scrollbackLines =
        m_settings->value(u"preferences/scrollbackLines"_s, loaded.scrollbackLines).toInt();
    loaded.parallelTransfers =
        m_settings->value(u"preferences/parallelTransfers"_s, loaded.parallelTransfers).toInt();
    loaded.language = m_settings->value(languageKey()).toString();
    m_preferences->set(loaded);
    m_registry->setPollInterval(loaded.pollIntervalMs);
    // The traffic inspector's bounds: no dialog for them yet, only these settings.
    TrafficRecorder::Limits limits;
    limits.maxEntries = m_settings->value(u"inspector/maxEntries"_s, limits.maxEntries).toInt();
    limits.detailBudget =
        m_settings->value(u"inspector/detailBudgetMiB"_s, limits.detailBudget >> 20).toLongLong()
        << 20;
    m_registry->traffic()->setLimits(limits);
    m_registry->addProvider(m_local);
    m_registry->addProvider(m_saved);
    m_registry->addProvider(m_engine);
    registerStandardTabs(m_tabs);
}

ConsoleContext::~ConsoleContext() {
    // Local sandboxes stop with the console; the list model must not outlive its providers' rows.
    m_local->stopAll();
}

void ConsoleContext::setPreferences(const Preferences &preferences) {
    m_settings->setValue(u"preferences/pollIntervalMs"_s, preferences.pollIntervalMs);
    m_settings->setValue(u"preferences/scrollbackLines"_s, preferences.scrollbackLines);
    m_settings->setValue(u"preferences/parallelTransfers"_s, preferences.parallelTransfers);
    m_settings->setValue(languageKey(), preferences.language);
    m_settings->sync();
    m_registry->setPollInterval(preferences.pollIntervalMs);
    m_preferences->set(preferences);
}

QString ConsoleContext::startDefaultLocal() {
    return m_local->ensureDefault();
}

QList<SandboxEntry> ConsoleContext::savedSandboxes() const {
    return m_saved->sandboxes();
}

std::optional<SandboxEntry> ConsoleContext::savedSandbox(const QString &id) const {
    const SandboxEntry *entry = m_saved->find(id);
    return entry ? std::optional<SandboxEntry>(*entry) : std::nullopt;
}

QString ConsoleContext::addSaved(const SandboxEntry &entry) {
    return m_saved->add(entry);
}

void ConsoleContext::updateSaved(const SandboxEntry &entry) {
    m_saved->update(entry);
}

} // namespace sbx
