#include "app/consolecontext.h"

#include "app/keychainstore.h"
#include "client/providers/engine/engineconnections.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/localsandboxes.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "client/traffic/trafficrecorder.h"
#include "models/sandboxlistmodel.h"
#include "widgets/common/userprompts.h"

#include <array>
#include <utility>

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Read before the context exists (savedLanguage) and with the other preferences.
QString languageKey() {
    return u"preferences/language"_s;
}

const QString kFolder = QStringLiteral("/sandbox-console");

// Moves a folder of an earlier version to its new place, once; where it cannot, the old one
// stays and the console starts fresh at the new place rather than losing it.
// The settings key of each notification preference.
std::array<std::pair<QString, bool *>, 4> notificationKeys(NotificationSettings &n) {
    return {{{u"notifications/sandboxes"_s, &n.sandboxes},
             {u"notifications/runs"_s, &n.runs},
             {u"notifications/transfers"_s, &n.transfers},
             {u"notifications/jwtExpiry"_s, &n.jwtExpiry}}};
}

bool moveOnce(const QString &from, const QString &to) {
    if (from == to || QFileInfo::exists(to) || !QFileInfo(from).isDir())
        return false;
    QDir().mkpath(QFileInfo(to).absolutePath());
    if (!QDir().rename(from, to)) {
        qWarning("sandbox-console: cannot move %s to %s", qPrintable(from), qPrintable(to));
        return false;
    }
    // The organisation folder left empty behind.
    QDir().rmdir(QFileInfo(from).absolutePath());
    return true;
}

// Settings that name a path inside a moved folder (a local sandbox's workspace) follow it.
void rewritePaths(const QString &settingsFile, const QString &from, const QString &to) {
    QSettings settings(settingsFile, QSettings::IniFormat);
    const QStringList keys = settings.allKeys();
    for (const QString &key : keys) {
        const QVariant value = settings.value(key);
        if (value.typeId() != QMetaType::QString)
            continue;
        const QString text = value.toString();
        if (text == from || text.startsWith(from + u'/'))
            settings.setValue(key, QString(to + text.mid(from.size())));
    }
}

} // namespace

QString ConsoleContext::savedLanguage(const QString &settingsFile) {
    return QSettings(settingsFile, QSettings::IniFormat).value(languageKey()).toString();
}

ConsoleContext::Paths ConsoleContext::defaultPaths() {
    Paths paths;
    // ~/.config/sandbox-console and ~/.local/share/sandbox-console: Qt's App* locations add the
    // organisation too (.../SandboxConsole/sandbox-console), as the first versions used.
    const QString config =
        QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + kFolder;
    const QString data =
        QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + kFolder;
    moveOnce(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation), config);
    paths.settingsFile = config + u"/sandbox-console.conf"_s;
    const QString oldData = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (moveOnce(oldData, data))
        rewritePaths(paths.settingsFile, oldData, data);
    paths.dataDir = data;
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
    , m_notifications(new NotificationCenter(m_registry, this))
    , m_prompts(dialogPrompts())
    , m_sessionFile(QFileInfo(paths.settingsFile).absolutePath() + u"/session.json"_s) {
    m_secrets->probe();
    Preferences loaded;
    loaded.pollIntervalMs =
        m_settings->value(u"preferences/pollIntervalMs"_s, loaded.pollIntervalMs).toInt();
    loaded.scrollbackLines =
        m_settings->value(u"preferences/scrollbackLines"_s, loaded.scrollbackLines).toInt();
    loaded.parallelTransfers =
        m_settings->value(u"preferences/parallelTransfers"_s, loaded.parallelTransfers).toInt();
    loaded.language = m_settings->value(languageKey()).toString();
    loaded.colours = m_settings->value(u"preferences/colours"_s).toString();
    loaded.toolBarIconsOnly = m_settings->value(u"preferences/toolBarIconsOnly"_s).toBool();
    NotificationSettings &notify = loaded.notifications;
    for (auto [key, flag] : notificationKeys(notify))
        *flag = m_settings->value(key, *flag).toBool();
    m_notifications->setSettings(notify);
    loaded.terminalColorScheme = m_settings->value(u"preferences/terminalColorScheme"_s).toString();
    loaded.terminalFontFamily = m_settings->value(u"preferences/terminalFontFamily"_s).toString();
    loaded.terminalFontSize = m_settings->value(u"preferences/terminalFontSize"_s, 0).toInt();
    loaded.terminalPrediction =
        m_settings->value(u"preferences/terminalPrediction"_s, loaded.terminalPrediction).toInt();
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
    m_engines = new EngineConnections(m_settings, m_secrets, m_registry, m_engine,
                                      QProcessEnvironment::systemEnvironment(), this);
    registerStandardTabs(m_tabs);
}

ConsoleContext::~ConsoleContext() {
    // Local sandboxes stop with the console; the list model must not outlive its providers' rows.
    m_local->stopAll();
    delete m_engines;
}

void ConsoleContext::setPreferences(const Preferences &preferences) {
    m_settings->setValue(u"preferences/pollIntervalMs"_s, preferences.pollIntervalMs);
    m_settings->setValue(u"preferences/scrollbackLines"_s, preferences.scrollbackLines);
    m_settings->setValue(u"preferences/parallelTransfers"_s, preferences.parallelTransfers);
    m_settings->setValue(languageKey(), preferences.language);
    m_settings->setValue(u"preferences/colours"_s, preferences.colours);
    m_settings->setValue(u"preferences/toolBarIconsOnly"_s, preferences.toolBarIconsOnly);
    NotificationSettings notify = preferences.notifications;
    for (auto [key, flag] : notificationKeys(notify))
        m_settings->setValue(key, *flag);
    m_notifications->setSettings(preferences.notifications);
    m_settings->setValue(u"preferences/terminalColorScheme"_s, preferences.terminalColorScheme);
    m_settings->setValue(u"preferences/terminalFontFamily"_s, preferences.terminalFontFamily);
    m_settings->setValue(u"preferences/terminalFontSize"_s, preferences.terminalFontSize);
    m_settings->setValue(u"preferences/terminalPrediction"_s, preferences.terminalPrediction);
    m_settings->sync();
    m_registry->setPollInterval(preferences.pollIntervalMs);
    m_preferences->set(preferences);
}

QString ConsoleContext::startDefaultLocal(bool startNow) {
    return m_local->ensureDefault(startNow);
}

void ConsoleContext::startLocal(const QString &id) {
    m_local->start(id);
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
