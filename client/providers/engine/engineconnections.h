#pragma once

#include "client/providers/engine/enginecontexts.h"

#include <QList>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>

#include <map>

class QSettings;

namespace sbx {

class EngineSandboxes;
class SandboxRegistry;
class SecretStore;

// One engine as the console offers it: where it is, where it came from, whether it is on.
struct EngineChoice {
    enum class Origin { Default, DockerContext, Added };
    EngineEndpoint endpoint;
    Origin origin = Origin::Default;
    bool enabled = false;
};

// The engines the console speaks to: the default one (always on), the Docker CLI's contexts and
// the engines the user added, each turned on or off; one EngineSandboxes per engine that is on,
// kept in the registry so its sandboxes are in the list. Settings hold addresses and the paths
// of TLS files, never a secret.
class EngineConnections final : public QObject {
    Q_OBJECT
public:
    // defaultEngine is the engine provider already in the registry; env is where the Docker
    // CLI's configuration is looked for ($DOCKER_CONFIG, $HOME).
    EngineConnections(QSettings *settings, SecretStore *secrets, SandboxRegistry *registry,
                      EngineSandboxes *defaultEngine, QProcessEnvironment env,
                      QObject *parent = nullptr);
    ~EngineConnections() override;

    // The default engine first, then the contexts and the added engines by name.
    QList<EngineChoice> choices() const;
    // The Docker CLI's current context ("default" when none is chosen).
    QString currentContext() const { return m_current; }
    // Problems reading the Docker CLI's contexts, for a person.
    QStringList contextProblems() const { return m_contextProblems; }
    // The provider of an engine that is on, else null.
    EngineSandboxes *provider(const QString &name) const;

    // Turns an engine on (its sandboxes appear) or off (they leave the list); remembered.
    void setEnabled(const QString &name, bool enabled);
    // Adds an engine the user typed in and turns it on; false with why (a bad address, a name
    // taken, plain TCP to another host not confirmed).
    bool add(const EngineEndpoint &endpoint, QString *why);
    // Forgets an added engine (contexts belong to the Docker CLI).
    void remove(const QString &name);
    // Reads the Docker CLI's contexts again.
    void reload();

Q_SIGNALS:
    // The list of choices, or one engine's state, changed.
    void changed();

private:
    void load();
    void saveAdded() const;
    void saveEnabled() const;
    void sync();

    QSettings *m_settings;
    SecretStore *m_secrets;
    SandboxRegistry *m_registry;
    EngineSandboxes *m_default;
    QProcessEnvironment m_env;
    QList<EngineChoice> m_contexts;
    QList<EngineChoice> m_added;
    QStringList m_contextProblems;
    QString m_current;
    std::map<QString, EngineSandboxes *> m_providers;
};

} // namespace sbx
