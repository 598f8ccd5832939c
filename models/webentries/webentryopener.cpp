#include "models/webentries/webentryopener.h"

#include "client/api/sandboxjobs.h"
#include "client/api/webentry.h"
#include "client/providers/sandboxregistry.h"
#include "client/sandboxclient.h"

#include <QPointer>
#include <QTimer>

namespace sbx {

WebEntryOpener::WebEntryOpener(SandboxRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry) {}

void WebEntryOpener::open(const QString &sandboxId, const QString &entryId) {
    const WebEntry *entry = findWebEntry(entryId);
    SandboxClient *client = m_registry->client(sandboxId);
    if (!entry || !client) {
        fail(sandboxId, entryId, tr("The sandbox is no longer listed."));
        return;
    }
    const QString name = m_registry->entry(sandboxId).name;
    if (client->credentials().isEmpty()) {
        const QUrl url = webEntryUrl(client->endpoint(), *entry);
        QTimer::singleShot(
            0, this, [this, sandboxId, entryId, url] { Q_EMIT urlReady(sandboxId, entryId, url); });
        return;
    }
    // Minted now, not ahead: a ticket lives for seconds (30 by default) and opens one page.
    auto *job = new MintTicketJob(client);
    QPointer<SandboxClient> guard(client);
    const WebEntry page = *entry;
    connect(job, &MintTicketJob::succeeded, this,
            [this, guard, sandboxId, page](const Ticket &ticket) {
                if (!guard)
                    return;
                Q_EMIT urlReady(sandboxId, page.id,
                                webEntryUrl(guard->endpoint(), page, ticket.ticket));
            });
    connect(job, &Job::failed, this, [this, sandboxId, page, name](const Status &status) {
        if (status.kind == Status::Kind::Cancelled)
            return;
        Q_EMIT failed(sandboxId, page.id,
                      tr("Could not open %1 of %2: no ticket for the page (%3)")
                          .arg(webEntryLabel(page), name, status.message));
    });
    job->start();
}

void WebEntryOpener::fail(const QString &sandboxId, const QString &entryId,
                          const QString &message) {
    QTimer::singleShot(0, this, [this, sandboxId, entryId, message] {
        Q_EMIT failed(sandboxId, entryId, message);
    });
}

} // namespace sbx
