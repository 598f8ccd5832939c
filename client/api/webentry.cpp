#include "client/api/webentry.h"

#include "client/api/apijob.h"
#include "client/sandboxclient.h"

#include <QCoreApplication>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// A page that takes longer than this to say whether it is there is not offered.
constexpr int kCheckTimeoutMs = 5000;

// One page: HEAD, or a GET that stops once the status line is in (a page may be large, or a
// stream that never ends). Ends with the status of the answer either way: a 404 is an answer.
class PageCheckJob final : public ApiJob {
public:
    PageCheckJob(SandboxClient *client, const WebEntry &entry, const QByteArray &verb)
        : ApiJob(client, makeRequest(entry, verb)) {}

    // The answer's status, also when the job failed for it (4xx, 3xx); 0 when none came.
    int httpStatus() const { return m_httpStatus ? m_httpStatus : status().httpStatus; }

protected:
    Status parseReply(const QByteArray &, QNetworkReply *reply) override {
        m_httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return Status::success();
    }
    void prepareReply(QNetworkReply *reply) override {
        if (request().verb != "GET")
            return;
        connect(reply, &QNetworkReply::metaDataChanged, this, [this, reply] {
            m_httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (m_httpStatus == 0)
                return;
            if (client())
                client()->recordReply(reply, {}, 0, Status::success());
            failWith(Status::success()); // ends the exchange here, with its status known
        });
    }
    // A probe reports what it saw; the cache probes again when the sandbox comes back.
    bool shouldRetry(const Status &) override { return false; }
    void emitSucceeded() override {}

private:
    static ApiRequest makeRequest(const WebEntry &entry, const QByteArray &verb) {
        ApiRequest r = ApiRequest::get(entry.path);
        if (!entry.query.isEmpty())
            r.query = QUrlQuery(entry.query);
        r.verb = verb;
        r.timeoutMs = kCheckTimeoutMs;
        return r;
    }

    int m_httpStatus = 0;
};

QString percentEncoded(const QString &text) {
    return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

} // namespace

const QList<WebEntry> &webEntries() {
    static const QList<WebEntry> entries = {
        {u"vnc"_s, QT_TRANSLATE_NOOP("sbx::WebEntry", "VNC desktop"), u"vnc/index.html"_s,
         u"autoconnect=true"_s, u"websockify"_s},
        {u"code-server"_s, QT_TRANSLATE_NOOP("sbx::WebEntry", "code-server (VS Code)"),
         u"code-server/"_s},
        {u"jupyter"_s, QT_TRANSLATE_NOOP("sbx::WebEntry", "JupyterLab"), u"jupyter"_s},
        {u"docs"_s, QT_TRANSLATE_NOOP("sbx::WebEntry", "API docs"), u"v1/docs"_s},
        {u"terminal"_s, QT_TRANSLATE_NOOP("sbx::WebEntry", "Web terminal"), u"terminal"_s},
    };
    return entries;
}

const WebEntry *findWebEntry(const QString &id) {
    for (const WebEntry &entry : webEntries()) {
        if (entry.id == id)
            return &entry;
    }
    return nullptr;
}

QString webEntryLabel(const WebEntry &entry) {
    return QCoreApplication::translate("sbx::WebEntry", entry.label);
}

QUrl webEntryUrl(const Endpoint &endpoint, const WebEntry &entry, const QString &ticket) {
    QUrl url = endpoint.resolve(entry.path);
    QString query = entry.query;
    const auto add = [&query](const QString &item) {
        if (!query.isEmpty())
            query += QLatin1Char('&');
        query += item;
    };
    if (!ticket.isEmpty())
        add(u"ticket="_s + percentEncoded(ticket));
    if (!entry.socketPath.isEmpty()) {
        // noVNC opens its WebSocket as another request, relative to the host's root: behind a
        // path prefix it needs the prefix, and with a ticket the same ticket (AIO's form:
        // path=websockify%3Fticket%3DT).
        QString prefix = endpoint.baseUrl.path();
        while (prefix.startsWith(QLatin1Char('/')))
            prefix.remove(0, 1);
        if (!prefix.isEmpty() && !prefix.endsWith(QLatin1Char('/')))
            prefix += QLatin1Char('/');
        QString socket = prefix + entry.socketPath;
        if (!ticket.isEmpty())
            socket += u"?ticket="_s + ticket;
        if (socket != entry.socketPath)
            add(u"path="_s + percentEncoded(socket));
    }
    url.setQuery(query);
    return url;
}

bool webEntryServed(int httpStatus, bool withCredentials) {
    if (httpStatus >= 200 && httpStatus < 400)
        return true;
    return withCredentials && (httpStatus == 401 || httpStatus == 403);
}

WebEntryProbeJob::WebEntryProbeJob(SandboxClient *client)
    : Job(client)
    , m_client(client) {}

WebEntryProbeJob::~WebEntryProbeJob() {
    cancelWork();
}

void WebEntryProbeJob::start() {
    if (!beginStart())
        return;
    // Deferred, as every job's start: a caller connects to the signals after start().
    QTimer::singleShot(0, this, [this] {
        if (isDone())
            return;
        if (!m_client) {
            complete(Status::error(Status::Kind::Cancelled, tr("The sandbox was closed")));
            return;
        }
        const QList<WebEntry> &entries = webEntries();
        m_probes.clear();
        for (const WebEntry &entry : entries)
            m_probes.append({entry.id, false, 0});
        for (int i = 0; i < entries.size(); ++i)
            check(i, "HEAD");
    });
}

void WebEntryProbeJob::check(int index, const QByteArray &verb) {
    auto *job = new PageCheckJob(m_client, webEntries().at(index), verb);
    m_checks.append(job);
    ++m_pending;
    connect(job, &Job::finished, this,
            [this, job, index, verb] { onChecked(index, verb, job->httpStatus(), job->status()); });
    job->start();
}

void WebEntryProbeJob::onChecked(int index, const QByteArray &verb, int httpStatus,
                                 const Status &status) {
    --m_pending;
    // A server whose GET routes do not take HEAD answers 405: ask that page once more, with a
    // GET.
    if (httpStatus == 405 && verb == "HEAD") {
        check(index, "GET");
        return;
    }
    WebEntryProbe &probe = m_probes[index];
    probe.httpStatus = httpStatus;
    probe.served = m_client && webEntryServed(httpStatus, !m_client->credentials().isEmpty());
    if (httpStatus != 0)
        m_answered = true;
    else if (m_unanswered.ok())
        m_unanswered = status;
    if (m_pending > 0)
        return;
    m_checks.clear();
    complete(m_answered ? Status::success() : m_unanswered);
}

void WebEntryProbeJob::cancelWork() {
    const QList<QPointer<Job>> checks = std::exchange(m_checks, {});
    for (const QPointer<Job> &check : checks) {
        if (!check)
            continue;
        check->disconnect(this);
        check->abort();
    }
    m_pending = 0;
}

} // namespace sbx
