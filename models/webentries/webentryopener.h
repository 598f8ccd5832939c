#pragma once

#include <QObject>
#include <QString>
#include <QUrl>

namespace sbx {

class SandboxRegistry;

// Opens a sandbox's web entry at the click: where the sandbox has credentials, mints a
// one-time ticket for the address (a browser cannot send our headers), then hands the address
// on for the desktop to open. The API key or JWT never goes into it.
class WebEntryOpener final : public QObject {
    Q_OBJECT
public:
    explicit WebEntryOpener(SandboxRegistry *registry, QObject *parent = nullptr);

    // Exactly one of urlReady or failed follows, from the event loop.
    void open(const QString &sandboxId, const QString &entryId);

Q_SIGNALS:
    void urlReady(const QString &sandboxId, const QString &entryId, const QUrl &url);
    // message is for a person: the page, the sandbox and why, from a Status.
    void failed(const QString &sandboxId, const QString &entryId, const QString &message);

private:
    void fail(const QString &sandboxId, const QString &entryId, const QString &message);

    SandboxRegistry *m_registry;
};

} // namespace sbx
