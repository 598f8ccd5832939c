#pragma once

#include "client/api/job.h"
#include "client/transport/endpoint.h"

#include <QList>
#include <QMetaType>
#include <QPointer>
#include <QString>
#include <QUrl>

namespace sbx {

class SandboxClient;

// One web page a sandbox may serve on its port beside the API (aio-api.md section 10).
struct WebEntry {
    QString id;
    // QT_TRANSLATE_NOOP("sbx::WebEntry", ...): shown through webEntryLabel().
    const char *label = "";
    // From the endpoint's base path.
    QString path;
    // The page's own query, empty for none.
    QString query = {};
    // noVNC's WebSocket, opened by the page itself: `path=` names it relative to the host.
    QString socketPath = {};
};

// Every entry the console offers, in menu order.
const QList<WebEntry> &webEntries();
// The entry with this id, or null.
const WebEntry *findWebEntry(const QString &id);
QString webEntryLabel(const WebEntry &entry);

// The address to open in a browser: the entry's page on the endpoint, and with a ticket
// `?ticket=` (`&ticket=` after the page's own query), for noVNC on its WebSocket path too
// (aio-api.md 2.3 and 14.4). Never an API key or JWT: those stay in headers.
QUrl webEntryUrl(const Endpoint &endpoint, const WebEntry &entry, const QString &ticket = {});

// What a probe found for one entry.
struct WebEntryProbe {
    QString id;
    bool served = false;
    // The status of the answer (of the GET where HEAD got 405); 0 when none came.
    int httpStatus = 0;
};

// Whether an answer shows the page is there: 2xx and 3xx, and 401/403 where the console has
// credentials (the ticket minted at the click opens it). 404, 405, 5xx and no answer: not.
bool webEntryServed(int httpStatus, bool withCredentials);

// Asks a sandbox which web entries it serves, every page at once, through the client's
// requests (credentials in headers): HEAD, or where a server answers HEAD with 405 a GET that
// reads no further than the status line. Fails only when no page got an HTTP answer (the
// sandbox is unreachable); otherwise succeeds with one probe per entry, in webEntries() order.
class WebEntryProbeJob final : public Job {
    Q_OBJECT
public:
    explicit WebEntryProbeJob(SandboxClient *client);
    ~WebEntryProbeJob() override;

    void start() override;
    const QList<WebEntryProbe> &result() const { return m_probes; }

Q_SIGNALS:
    void succeeded(const QList<WebEntryProbe> &probes);

protected:
    void emitSucceeded() override { Q_EMIT succeeded(m_probes); }
    void cancelWork() override;

private:
    void check(int index, const QByteArray &verb);
    void onChecked(int index, const QByteArray &verb, int httpStatus, const Status &status);

    QPointer<SandboxClient> m_client;
    QList<WebEntryProbe> m_probes;
    QList<QPointer<Job>> m_checks;
    int m_pending = 0;
    bool m_answered = false;
    Status m_unanswered; // the first check without an HTTP answer
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::WebEntryProbe)
