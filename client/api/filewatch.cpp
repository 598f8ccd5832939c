#include "client/api/filewatch.h"

#include "client/api/apijob.h"
#include "client/api/envelope.h"
#include "client/sandboxclient.h"

#include <QCoreApplication>
#include <QTimer>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

// A silent folder keeps one request open this long.
constexpr int kPollWaitSeconds = 25;
constexpr int kPollLimit = 1000;

QDateTime fromEpoch(double seconds) {
    return seconds > 0
               ? QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(seconds * 1000)))
               : QDateTime();
}

FileChange changeFromJson(const json &j) {
    FileChange c;
    c.seq = jsonInt(j, "seq");
    c.type = jsonString(j, "type");
    c.path = jsonString(j, "path");
    c.oldPath = jsonString(j, "old_path");
    const json &dir = jsonChild(j, "is_dir");
    c.isDirectory = dir.is_boolean() ? dir.get<bool>() : dir.is_number() && dir.get<double>() != 0;
    c.size = jsonChild(j, "size").is_number() ? jsonInt(j, "size") : -1;
    c.modified = fromEpoch(jsonDouble(j, "mtime"));
    c.time = fromEpoch(jsonDouble(j, "timestamp"));
    return c;
}

// POST /v1/file/watch: the watcher's id, reused when the same one exists.
class CreateWatchJob final : public ApiJob {
    Q_OBJECT
public:
    CreateWatchJob(SandboxClient *client, const QString &path, int debounceMs)
        : ApiJob(client,
                 ApiRequest::postJson(u"v1/file/watch"_s, QByteArray::fromStdString(json{
                                                              {"path", path.toStdString()},
                                                              {"recursive", true},
                                                              {"debounce", debounceMs}}.dump()))) {}
    QString watcherId;
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *) override {
        Envelope envelope;
        if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
            return s;
        watcherId = jsonString(envelope.data, "watcher_id");
        if (watcherId.isEmpty())
            return Status::error(Status::Kind::BadResponse,
                                 tr("The sandbox did not say which watcher it made."));
        return Status::success();
    }
    void emitSucceeded() override { Q_EMIT succeeded(); }
};

class PollWatchJob final : public ApiJob {
    Q_OBJECT
public:
    PollWatchJob(SandboxClient *client, const QString &id, qint64 cursor)
        : ApiJob(client, [&] {
            ApiRequest r = ApiRequest::postJson(
                u"v1/file/watch/%1/poll"_s.arg(id),
                QByteArray::fromStdString(
                    json{{"cursor", cursor}, {"limit", kPollLimit}, {"timeout", kPollWaitSeconds}}
                        .dump()),
                true);
            r.timeoutMs = (kPollWaitSeconds + 20) * 1000;
            return r;
        }()) {}
    FileWatchBatch batch;
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *) override {
        auto [status, parsed] = parseFileWatchBatch(body);
        batch = std::move(parsed);
        return status;
    }
    void emitSucceeded() override { Q_EMIT succeeded(); }
    bool shouldRetry(const Status &) override { return false; }
};

class DeleteWatchJob final : public ApiJob {
    Q_OBJECT
public:
    DeleteWatchJob(SandboxClient *client, const QString &id)
        : ApiJob(client, [&] {
            ApiRequest r = ApiRequest::get(u"v1/file/watch/%1"_s.arg(id));
            r.verb = "DELETE";
            return r;
        }()) {}
Q_SIGNALS:
    void succeeded();

protected:
    Status parseReply(const QByteArray &, QNetworkReply *) override { return Status::success(); }
    void emitSucceeded() override { Q_EMIT succeeded(); }
};

} // namespace

std::pair<Status, FileWatchBatch> parseFileWatchBatch(const QByteArray &body) {
    FileWatchBatch batch;
    json j;
    Status status = parseJsonObject(body, u"POST /v1/file/watch/poll"_s, &j);
    if (!status.ok())
        return {status, batch};
    // Accept the envelope too, should a server wrap it.
    const json &root = j.contains("events") ? j : jsonChild(j, "data");
    const json &events = jsonChild(root, "events");
    if (!events.is_array())
        return {Status::error(Status::Kind::BadResponse,
                              QCoreApplication::translate("sbx::FileWatch",
                                                          "The file watch answer had no events.")),
                batch};
    for (const json &e : events) {
        if (e.is_object())
            batch.changes.append(changeFromJson(e));
    }
    batch.cursor = jsonInt(root, "cursor");
    batch.overflow = jsonBool(root, "overflow");
    return {status, batch};
}

FileWatch::FileWatch(SandboxClient *client, QString path, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_path(std::move(path))
    , m_retry(new QTimer(this)) {
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &FileWatch::retryNow);
    // A long poll is silent by design: whether the sandbox answers comes from the list's
    // probe (and the terminals), not from waiting out the poll's 45 s.
    if (client)
        connect(client, &SandboxClient::reachabilityChanged, this, [this](bool reachable) {
            if (!reachable && m_state == State::Live && m_job) {
                m_job->abort();
                setState(State::Reconnecting, tr("The sandbox does not answer"));
                retryLater();
            } else if (reachable && m_state == State::Reconnecting && m_retry->isActive()) {
                m_retry->stop();
                // The sandbox answers again: the watch is live as soon as its poll is out
                // (a long poll says nothing until something changes).
                if (!m_watcherId.isEmpty())
                    setState(State::Live);
                retryNow();
            }
        });
}

FileWatch::~FileWatch() {
    if (m_job)
        m_job->abort();
    // The watcher counts against the sandbox's limit of ten: give it back.
    if (m_client && !m_watcherId.isEmpty())
        (new DeleteWatchJob(m_client, m_watcherId))->start();
}

void FileWatch::start() {
    create();
}

void FileWatch::create() {
    if (!m_client)
        return;
    auto *job = new CreateWatchJob(m_client, m_path, m_debounceMs);
    m_job = job;
    connect(job, &CreateWatchJob::succeeded, this, [this, job] {
        const bool fresh = !m_watcherId.isEmpty() && m_watcherId != job->watcherId;
        m_watcherId = job->watcherId;
        m_cursor = 0;
        setState(State::Live);
        // A new watcher after the old one was lost: what happened between is unknown.
        if (fresh)
            Q_EMIT overflowed();
        poll();
    });
    connect(job, &CreateWatchJob::failed, this, [this](const Status &status) {
        if (status.kind == Status::Kind::NotFound || status.httpStatus == 405)
            return setState(State::Unavailable,
                            tr("This sandbox has no file watch; refresh to see changes."));
        if (status.httpStatus == 429)
            return setState(State::Unavailable,
                            tr("The sandbox's file watchers are all in use; refresh to see "
                               "changes."));
        if (!status.transient() && status.kind != Status::Kind::Server)
            return setState(State::Unavailable,
                            tr("Not watching this folder: %1").arg(status.message));
        setState(State::Reconnecting, status.message);
        retryLater();
    });
    job->start();
}

void FileWatch::poll() {
    if (!m_client)
        return;
    auto *job = new PollWatchJob(m_client, m_watcherId, m_cursor);
    m_job = job;
    connect(job, &PollWatchJob::succeeded, this, [this, job] {
        if (m_state != State::Live)
            setState(State::Live);
        const FileWatchBatch &batch = job->batch;
        m_cursor = batch.cursor;
        if (batch.overflow)
            Q_EMIT overflowed();
        if (!batch.changes.isEmpty())
            Q_EMIT changes(batch.changes);
        poll();
    });
    connect(job, &PollWatchJob::failed, this, [this](const Status &status) {
        if (status.kind == Status::Kind::Cancelled)
            return;
        if (status.kind == Status::Kind::NotFound) {
            // The sandbox restarted or dropped the watcher: make another, then relist.
            setState(State::Reconnecting, status.message);
            create();
            return;
        }
        setState(State::Reconnecting, status.message);
        retryLater();
    });
    job->start();
}

void FileWatch::retryNow() {
    if (m_watcherId.isEmpty())
        create();
    else
        poll();
}

void FileWatch::retryLater() {
    m_retry->start(m_retryDelayMs);
}

void FileWatch::setState(State state, const QString &problem) {
    if (state == m_state && problem == m_problem)
        return;
    m_state = state;
    m_problem = problem;
    Q_EMIT stateChanged();
}

} // namespace sbx

#include "filewatch.moc"
