#pragma once

#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/workspace/tabregistry.h"

#include "client/providers/sandboxprovider.h"

#include <QObject>
#include <QString>

#include <optional>

class QSettings;

namespace sbx {

class NotificationCenter;

class KeychainSecretStore;
class EngineConnections;
class EngineSandboxes;
class LocalSandboxes;
class SandboxListModel;
class SandboxRegistry;
class SavedEndpoints;
class UserPrompts;

// Everything one console instance owns: settings, secrets, providers, the list and the tabs.
// The composition root: the one place outside client/providers that names concrete providers.
class ConsoleContext final : public QObject {
    Q_OBJECT
public:
    struct Paths {
        QString settingsFile;
        QString dataDir;
        QString serverBinary;
        bool useKeychain = true;
        // The container engine's socket; empty: DOCKER_HOST or the usual places.
        QString engineSocket = {};
    };
    // The user's settings and data folders, the server beside the console binary.
    static Paths defaultPaths();
    // The language chosen in Preferences, read before the context (and any window) exists so
    // that start-up can install its translation first.
    static QString savedLanguage(const QString &settingsFile);

    explicit ConsoleContext(const Paths &paths, QObject *parent = nullptr);
    // The saved session (session restore) beside the settings file.
    QString sessionFile() const { return m_sessionFile; }
    ~ConsoleContext() override;

    QSettings *settings() const { return m_settings; }
    KeychainSecretStore *secrets() const { return m_secrets; }
    // The concrete providers, for tests and the composition above.
    SavedEndpoints *saved() const { return m_saved; }
    LocalSandboxes *local() const { return m_local; }
    EngineSandboxes *engine() const { return m_engine; }
    // Every engine the console may list sandboxes from, the default one first.
    EngineConnections *engines() const { return m_engines; }
    SandboxRegistry *registry() const { return m_registry; }
    // The default local sandbox, started (and created on first use); its id. With startNow
    // false it shows as starting until startLocal(id).
    QString startDefaultLocal(bool startNow = true);
    void startLocal(const QString &id);
    // Sandboxes the user added by address.
    QList<SandboxEntry> savedSandboxes() const;
    std::optional<SandboxEntry> savedSandbox(const QString &id) const;
    QString addSaved(const SandboxEntry &entry);
    void updateSaved(const SandboxEntry &entry);
    SandboxListModel *sandboxList() const { return m_sandboxList; }
    const TabRegistry &tabs() const { return m_tabs; }

    Preferences preferences() const { return m_preferences->current(); }
    void setPreferences(const Preferences &preferences);
    PreferencesHub *preferencesHub() const { return m_preferences; }
    // What the desktop is told (sandboxes lost and back, runs, transfers, JWTs).
    NotificationCenter *notifications() const { return m_notifications; }
    // Where every question to the user goes: dialogs, unless a test answers them.
    UserPrompts *prompts() const { return m_prompts; }
    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

private:
    QSettings *m_settings;
    KeychainSecretStore *m_secrets;
    SavedEndpoints *m_saved;
    LocalSandboxes *m_local;
    EngineSandboxes *m_engine;
    SandboxRegistry *m_registry;
    EngineConnections *m_engines = nullptr;
    SandboxListModel *m_sandboxList;
    TabRegistry m_tabs;
    PreferencesHub *m_preferences;
    NotificationCenter *m_notifications;
    UserPrompts *m_prompts;
    QString m_sessionFile;
};

} // namespace sbx
