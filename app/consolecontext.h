#pragma once

#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/workspace/tabregistry.h"

#include <QObject>
#include <QString>

class QSettings;
class KeychainSecretStore;
class EngineSandboxes;
class LocalSandboxes;
class SandboxListModel;
class SavedEndpoints;

// Everything one console instance owns: settings, secrets, providers, the list and the tabs.
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

    explicit ConsoleContext(const Paths &paths, QObject *parent = nullptr);
    ~ConsoleContext() override;

    QSettings *settings() const { return m_settings; }
    KeychainSecretStore *secrets() const { return m_secrets; }
    SavedEndpoints *saved() const { return m_saved; }
    LocalSandboxes *local() const { return m_local; }
    EngineSandboxes *engine() const { return m_engine; }
    SandboxListModel *sandboxes() const { return m_sandboxes; }
    const TabRegistry &tabs() const { return m_tabs; }

    Preferences preferences() const { return m_preferences->current(); }
    void setPreferences(const Preferences &preferences);
    PreferencesHub *preferencesHub() const { return m_preferences; }

private:
    QSettings *m_settings;
    KeychainSecretStore *m_secrets;
    SavedEndpoints *m_saved;
    LocalSandboxes *m_local;
    EngineSandboxes *m_engine;
    SandboxListModel *m_sandboxes;
    TabRegistry m_tabs;
    PreferencesHub *m_preferences;
};
