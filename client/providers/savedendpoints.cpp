#include "client/providers/savedendpoints.h"

#include "client/providers/providerkit.h"
#include "client/providers/secretstore.h"

#include <QSettings>
#include <QUuid>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString groupKey(const QString &id) {
    // Settings keys cannot hold ':'; ids look like "saved:<uuid>".
    return u"saved/"_s + id.section(QLatin1Char(':'), 1);
}

} // namespace

SavedEndpoints::SavedEndpoints(QSettings *settings, SecretStore *secrets, QObject *parent)
    : SandboxProvider(parent)
    , m_settings(settings)
    , m_secrets(secrets) {
    load();
}

LifecycleActions SavedEndpoints::actions(const SandboxEntry &) const {
    return LifecycleAction::Edit | LifecycleAction::Delete;
}

void SavedEndpoints::remove(const QString &id) {
    // The console does not own a saved sandbox: deleting it here only forgets it.
    forget(id);
}

void SavedEndpoints::load() {
    m_settings->beginGroup(u"saved"_s);
    const QStringList keys = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &key : keys) {
        m_settings->beginGroup(u"saved/"_s + key);
        SandboxEntry entry;
        entry.id = u"saved:"_s + key;
        entry.name = m_settings->value(u"name"_s).toString();
        entry.endpoint.baseUrl = QUrl(m_settings->value(u"url"_s).toString());
        entry.endpoint.tls.caFile = m_settings->value(u"caFile"_s).toString();
        entry.endpoint.tls.pinnedSha256 = m_settings->value(u"pinnedSha256"_s).toByteArray();
        entry.credentials.kind =
            static_cast<Credentials::Kind>(m_settings->value(u"auth"_s, 0).toInt());
        m_settings->endGroup();
        if (!entry.endpoint.isValid())
            continue;
        m_entries.append(entry);
        if (entry.credentials.kind != Credentials::Kind::None) {
            const QString id = entry.id;
            m_pendingReads.insert(id);
            readSandboxSecret(m_secrets, id, this, [this, id](bool found, const QString &secret) {
                // Credentials given meanwhile (--api-key-env, an edit) replace what was stored:
                // neither the old secret nor "not in the keychain" applies to them.
                if (!m_pendingReads.remove(id))
                    return;
                for (SandboxEntry &e : m_entries) {
                    if (e.id != id)
                        continue;
                    if (found)
                        e.credentials.secret = secret;
                    else
                        e.detail = tr("The credential is not in the keychain: edit the "
                                      "sandbox to enter it again");
                    Q_EMIT sandboxChanged(e);
                }
            });
        }
    }
}

void SavedEndpoints::save(const SandboxEntry &entry) {
    m_settings->beginGroup(groupKey(entry.id));
    m_settings->setValue(u"name"_s, entry.name);
    m_settings->setValue(u"url"_s, entry.endpoint.baseUrl.toString());
    m_settings->setValue(u"caFile"_s, entry.endpoint.tls.caFile);
    m_settings->setValue(u"pinnedSha256"_s, entry.endpoint.tls.pinnedSha256);
    m_settings->setValue(u"auth"_s, static_cast<int>(entry.credentials.kind));
    m_settings->endGroup();
    m_settings->sync();
    if (entry.credentials.isEmpty())
        m_secrets->remove(sandboxSecretKey(entry.id));
    else
        m_secrets->write(sandboxSecretKey(entry.id), entry.credentials.secret);
}

QString SavedEndpoints::add(SandboxEntry entry) {
    entry.id = u"saved:"_s + QUuid::createUuid().toString(QUuid::WithoutBraces);
    entry.providerState = SandboxState::Online;
    entry.detail.clear();
    m_entries.append(entry);
    save(entry);
    Q_EMIT sandboxAdded(entry);
    return entry.id;
}

void SavedEndpoints::update(const SandboxEntry &entry) {
    for (SandboxEntry &e : m_entries) {
        if (e.id != entry.id)
            continue;
        e.name = entry.name;
        e.endpoint = entry.endpoint;
        e.credentials = entry.credentials;
        m_pendingReads.remove(e.id);
        e.detail.clear();
        save(e);
        Q_EMIT sandboxChanged(e);
        return;
    }
}

void SavedEndpoints::forget(const QString &id) {
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (m_entries.at(i).id != id)
            continue;
        m_entries.removeAt(i);
        m_pendingReads.remove(id);
        m_settings->remove(groupKey(id));
        m_settings->sync();
        m_secrets->remove(sandboxSecretKey(id));
        Q_EMIT sandboxRemoved(id);
        return;
    }
}

const SandboxEntry *SavedEndpoints::find(const QString &id) const {
    for (const SandboxEntry &e : m_entries) {
        if (e.id == id)
            return &e;
    }
    return nullptr;
}

} // namespace sbx
