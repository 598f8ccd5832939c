#include "client/api/filejobs.h"

#include "client/api/envelope.h"
#include "client/api/filelistingparser.h"
#include "client/api/remotecommand.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>
#include <QTimeZone>

#include <atomic>
#include <deque>
#include <mutex>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {
const QString kListWhat = u"POST /v1/file/list"_s;
} // namespace

FileListing parseFileListing(const QByteArray &body) {
    FileListing out;
    if (parseFileListingFast(body, out.files))
        return out;
    return parseFileListingTolerant(body);
}

FileListing parseFileListingTolerant(const QByteArray &body) {
    FileListing out;
    Envelope envelope;
    out.status = parseEnvelope(body, kListWhat, &envelope);
    if (!out.status.ok())
        return out;
    const json &files = jsonChild(envelope.data, "files");
    if (!files.is_array() && !files.is_null()) {
        out.status = Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::ListFilesJob", "%1: files is not a list")
                .arg(kListWhat));
        return out;
    }
    if (files.is_null())
        return out;
    out.files.reserve(static_cast<qsizetype>(files.size()));
    for (const json &f : files) {
        if (!f.is_object())
            continue;
        RemoteFileInfo info;
        info.name = jsonString(f, "name");
        info.path = jsonString(f, "path");
        info.isDirectory = jsonBool(f, "is_directory");
        info.size = jsonInt(f, "size", -1);
        info.modified = QDateTime::fromString(jsonString(f, "modified_time"), Qt::ISODateWithMs);
        info.permissions = jsonString(f, "permissions");
        if (!info.name.isEmpty())
            out.files.append(std::move(info));
    }
    return out;
}

namespace {
// Tasks run one after the other, in the order posted, on the global thread pool: a thread is
// taken only while there is work.
class SerialQueue final : public std::enable_shared_from_this<SerialQueue> {
public:
    void post(std::function<void()> task) {
        std::scoped_lock lock(m_mutex);
        m_tasks.push_back(std::move(task));
        if (m_running)
            return;
        m_running = true;
        QThreadPool::globalInstance()->start([self = shared_from_this()] { self->drain(); });
    }

private:
    void drain() {
        for (;;) {
            std::function<void()> task;
            {
                std::scoped_lock lock(m_mutex);
                if (m_tasks.empty()) {
                    m_running = false;
                    return;
                }
                task = std::move(m_tasks.front());
                m_tasks.pop_front();
            }
            task();
        }
    }

    std::mutex m_mutex;
    std::deque<std::function<void()>> m_tasks;
    bool m_running = false;
};
} // namespace

// A listing's body read off the GUI thread, in two stages on two threads: its bytes read in
// order as they arrive (FileListingStream), the first rows shown as a preview, and the rows
// handed to the sink (the model builds its nodes there) while the next ones are read. At the end
// the rows are the answer when the stream says they were whole, else the whole body is parsed.
// cancel() (a new attempt, the job's end) stops it; the tasks left drop what they hold.
class ListingPipe final : public std::enable_shared_from_this<ListingPipe> {
public:
    using Preview = std::function<void(const QList<RemoteFileInfo> &rows)>;
    // preview runs in receiver's thread, while receiver lives and the pipe is not cancelled.
    ListingPipe(ListingSink sink, QObject *receiver, Preview preview)
        : m_sink(std::move(sink))
        , m_receiver(receiver)
        , m_preview(std::move(preview)) {
        m_promise.start();
    }
    // In the order the bytes came, from one thread at a time: those of a direct exchange's
    // sink (copied) or a reply's.
    void push(const char *data, qsizetype size) { push(QByteArray(data, size)); }
    // In the order the bytes came.
    void push(QByteArray bytes) {
        if (bytes.isEmpty())
            return;
        m_pushed.store(true);
        m_reading->post(
            [self = shared_from_this(), bytes = std::move(bytes)] { self->read(bytes); });
    }
    // After the last push.
    QFuture<FileListing> finish() {
        m_reading->post([self = shared_from_this()] { self->conclude(); });
        return m_promise.future();
    }
    void cancel() {
        const std::scoped_lock lock(m_receiverMutex);
        m_cancelled.store(true);
        m_receiver = nullptr;
    }
    bool pushed() const { return m_pushed.load(); }

private:
    // On the reading stage.
    void read(const QByteArray &bytes) {
        if (m_cancelled.load())
            return;
        m_pieces.append(bytes); // shared, not copied: for the fall-back parse
        if (m_stream.failed())
            return;
        QList<RemoteFileInfo> rows = m_stream.feed(bytes);
        if (rows.isEmpty())
            return;
        if (m_previewed < ListFilesJob::kPreviewRows)
            showPreview(rows.first(qMin(rows.size(), ListFilesJob::kPreviewRows - m_previewed)));
        if (!m_sink.rows) {
            m_rows += rows;
            return;
        }
        m_building->post([self = shared_from_this(), rows = std::move(rows)]() mutable {
            if (!self->m_cancelled.load())
                self->m_sink.rows(std::move(rows));
        });
    }
    void showPreview(const QList<RemoteFileInfo> &rows) {
        m_previewed += rows.size();
        const std::scoped_lock lock(m_receiverMutex);
        if (!m_receiver || !m_preview)
            return;
        // Queued to the receiver: dropped with it if it goes first.
        QMetaObject::invokeMethod(
            m_receiver,
            [self = shared_from_this(), rows] {
                if (!self->m_cancelled.load())
                    self->m_preview(rows);
            },
            Qt::QueuedConnection);
    }
    void conclude() {
        if (m_cancelled.load())
            return;
        const bool complete = m_stream.finish();
        FileListing listing;
        if (complete) {
            listing.files = std::exchange(m_rows, {});
        } else {
            QByteArray whole;
            qsizetype size = 0;
            for (const QByteArray &piece : std::as_const(m_pieces))
                size += piece.size();
            whole.reserve(size);
            for (const QByteArray &piece : std::as_const(m_pieces))
                whole += piece;
            listing = parseFileListing(whole);
        }
        m_pieces.clear();
        // After the last rows are built.
        m_building->post([self = shared_from_this(), complete, listing = std::move(listing)] {
            if (self->m_cancelled.load())
                return;
            if (self->m_sink.done)
                self->m_sink.done(complete);
            self->m_promise.addResult(listing);
            self->m_promise.finish();
        });
    }

    const std::shared_ptr<SerialQueue> m_reading = std::make_shared<SerialQueue>();
    const std::shared_ptr<SerialQueue> m_building = std::make_shared<SerialQueue>();
    std::atomic<bool> m_cancelled{false};
    std::atomic<bool> m_pushed{false};
    ListingSink m_sink;
    std::mutex m_receiverMutex;
    QObject *m_receiver; // guarded by m_receiverMutex; null once cancelled
    Preview m_preview;
    // The reading stage's alone.
    FileListingStream m_stream;
    QList<QByteArray> m_pieces;
    QList<RemoteFileInfo> m_rows;
    qsizetype m_previewed = 0;
    // The building stage's alone.
    QPromise<FileListing> m_promise;
};

bool sudoAvailable(const QStringList &extensions) {
    return extensions.isEmpty() || extensions.contains(u"file-sudo"_s);
}

ListFilesJob::ListFilesJob(SandboxClient *client, const QString &path, ListOptions options)
    : ApiJob(client,
             [&] {
                 json body{{"path", path.toStdString()},
                           {"show_hidden", options.showHidden},
                           {"include_size", true},
                           {"include_permissions", true},
                           {"recursive", options.recursive}};
                 ApiRequest request = ApiRequest::postJson(
                     u"v1/file/list"_s, QByteArray::fromStdString(body.dump()), true);
                 // 20 MB for 100 000 rows: read by libcurl, straight into the pipe.
                 request.largeAnswer = true;
                 return request;
             }())
    , m_path(path) {}

ListFilesJob::~ListFilesJob() {
    if (m_pipe)
        m_pipe->cancel();
}

std::shared_ptr<ListingPipe> ListFilesJob::newBody() {
    if (m_pipe) {
        m_pipe->cancel();
        // Rows of the last attempt may have reached the sink: it gets no more (and no done()),
        // so what they built is never taken for this listing.
        if (m_pipe->pushed())
            m_sink = {};
    }
    m_pipe = std::make_shared<ListingPipe>(
        m_sink, this, [this](const QList<RemoteFileInfo> &rows) { Q_EMIT rowsArriving(rows); });
    return m_pipe;
}

void ListFilesJob::prepareReply(QNetworkReply *) {
    newBody();
}

void ListFilesJob::onBodyData(QNetworkReply *reply) {
    // Read here, parsed on the pipe's stages: on the GUI thread, parsing 20 MB stalled it.
    const QByteArray bytes = reply->readAll();
    if (bytes.isEmpty())
        return;
    tapBody(bytes);
    m_pipe->push(bytes);
}

DirectExchange::BodySink ListFilesJob::directSink() {
    // On libcurl's thread: the pipe's stages are as happy to be fed from there.
    return [pipe = newBody()](const char *data, qsizetype size) {
        pipe->push(data, size);
    };
}

Status ListFilesJob::parseReply(const QByteArray &body, QNetworkReply *) {
    // Not reached: every listing is read by its pipe (parseReplyAsync).
    FileListing listing = parseFileListing(body);
    m_files = std::move(listing.files);
    return listing.status;
}

bool ListFilesJob::parseReplyAsync(const QByteArray &rest) {
    if (!m_pipe)
        newBody();
    // The watcher is our child: if the job is aborted and deleted, the result is dropped.
    m_watcher = new QFutureWatcher<FileListing>(this);
    connect(m_watcher, &QFutureWatcher<FileListing>::finished, this, [this] {
        if (m_watcher->future().resultCount() == 0)
            return; // a pipe cancelled: a new attempt or the job's end took over
        FileListing listing = m_watcher->result();
        m_files = std::move(listing.files);
        finishParse(listing.status);
    });
    m_pipe->push(rest);
    m_watcher->setFuture(m_pipe->finish());
    return true;
}

ReadFileJob::ReadFileJob(SandboxClient *client, const QString &path, int startLine, int endLine,
                         bool sudo)
    : ApiJob(client, [&] {
        json body{{"file", path.toStdString()}};
        if (sudo)
            body["sudo"] = true;
        if (startLine >= 0)
            body["start_line"] = startLine;
        if (endLine >= 0)
            body["end_line"] = endLine;
        return ApiRequest::postJson(u"v1/file/read"_s, QByteArray::fromStdString(body.dump()),
                                    true);
    }()) {}

Status ReadFileJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    if (!jsonChild(envelope.data, "content").is_string())
        return Status::error(Status::Kind::BadResponse,
                             tr("%1: the reply has no content").arg(what()));
    m_content = jsonString(envelope.data, "content");
    return Status::success();
}

WriteFileJob::WriteFileJob(SandboxClient *client, const QString &path, const QByteArray &bytes,
                           bool binary, bool append, bool sudo)
    : ApiJob(client, [&] {
        json body{{"file", path.toStdString()},
                  {"content", binary ? bytes.toBase64().toStdString() : bytes.toStdString()},
                  {"encoding", binary ? "base64" : "utf-8"},
                  {"append", append}};
        if (sudo)
            body["sudo"] = true;
        // A write replaces content: sending it twice gives the same file, unless appending.
        return ApiRequest::postJson(u"v1/file/write"_s, QByteArray::fromStdString(body.dump()),
                                    !append);
    }()) {}

Status WriteFileJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_written = jsonInt(envelope.data, "bytes_written", -1);
    return Status::success();
}

namespace {
// Split in the command, whole in the output: an echo of the command never looks like a marker.
const QString kListBegin = u"SBX-LIST-BEGIN"_s;
const QString kListEnd = u"SBX-LIST-END"_s;
} // namespace

QString sudoListCommand(const QString &path, bool recursive) {
    // Runs as `bash -c` under sudo, so `exit` ends only that shell. find's own complaint (a
    // folder root may not read either, ...) is the last line of the output when it fails.
    // %Y: the type a symbolic link points to, as AIO's is_directory follows links.
    const QString start = path.startsWith(QLatin1Char('/')) ? path : u"./"_s + path;
    return u"set -o pipefail; o=$(find -H %1 -mindepth 1 %2-printf '%Y %s %T@ %m %P\\0' "
           u"| base64 -w 76) || exit $?; printf '%s%s\\n' SBX-LIST- BEGIN; "
           u"printf '%s\\n' \"$o\"; printf '%s%s\\n' SBX-LIST- END"_s.arg(
               shellQuote(start), recursive ? QString() : u"-maxdepth 1 "_s);
}

FileListing parseSudoListing(const QString &output, const QString &path, bool showHidden) {
    FileListing out;
    const qsizetype begin = output.indexOf(kListBegin);
    const qsizetype end = output.indexOf(kListEnd, begin + 1);
    if (begin < 0 || end < 0) {
        out.status = Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::SudoListFilesJob",
                                        "Listing %1 with sudo: the command printed no listing")
                .arg(path));
        return out;
    }
    QByteArray encoded =
        output.mid(begin + kListBegin.size(), end - begin - kListBegin.size()).toLatin1();
    encoded = encoded.simplified().replace(' ', QByteArray());
    const auto decoded =
        QByteArray::fromBase64Encoding(encoded, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded) {
        out.status = Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::SudoListFilesJob",
                                        "Listing %1 with sudo: the listing is garbled")
                .arg(path));
        return out;
    }
    const QString folder =
        path.endsWith(QLatin1Char('/')) && path.size() > 1 ? path.chopped(1) : path;
    const QList<QByteArray> records = decoded.decoded.split('\0');
    for (const QByteArray &record : records) {
        // TYPE SIZE MTIME MODE RELATIVE-PATH; the path is the rest, spaces and all.
        QList<QByteArray> fields;
        qsizetype at = 0;
        for (int i = 0; i < 4 && at >= 0; ++i) {
            const qsizetype space = record.indexOf(' ', at);
            if (space < 0) {
                at = -1;
                break;
            }
            fields << record.mid(at, space - at);
            at = space + 1;
        }
        if (at < 0 || at >= record.size())
            continue;
        const QString relative = QString::fromUtf8(record.mid(at));
        RemoteFileInfo info;
        info.name = relative.section(QLatin1Char('/'), -1);
        if (!showHidden && (info.name.startsWith(QLatin1Char('.')) || relative.contains(u"/."_s)))
            continue;
        info.path = folder == QLatin1String("/") ? QString(QLatin1Char('/') + relative)
                                                 : QString(folder + QLatin1Char('/') + relative);
        info.isDirectory = fields[0] == "d";
        bool sized = false;
        info.size = fields[1].toLongLong(&sized);
        if (!sized)
            info.size = -1;
        info.modified = QDateTime::fromMSecsSinceEpoch(
            static_cast<qint64>(fields[2].toDouble() * 1000.0), QTimeZone::utc());
        info.permissions = QString::fromLatin1(fields[3]).rightJustified(3, QLatin1Char('0'));
        out.files.append(std::move(info));
    }
    return out;
}

SudoListFilesJob::SudoListFilesJob(SandboxClient *client, const QString &path, ListOptions options)
    : QObject(client)
    , m_path(path)
    , m_options(options) {
    m_command = new RemoteCommandJob(client, sudoListCommand(path, options.recursive),
                                     tr("list %1 with sudo").arg(path));
    m_command->setSudo(true);
    connect(m_command, &RemoteCommandJob::succeeded, this, [this] {
        FileListing listing = parseSudoListing(m_command->output(), m_path, m_options.showHidden);
        Q_EMIT finished();
        if (listing.status.ok())
            Q_EMIT succeeded(listing.files);
        else
            Q_EMIT failed(listing.status);
        deleteLater();
    });
    connect(m_command, &RemoteCommandJob::failed, this, [this](const Status &status) {
        Q_EMIT finished();
        Q_EMIT failed(status);
        deleteLater();
    });
}

void SudoListFilesJob::start() {
    if (m_command)
        m_command->start();
}

void SudoListFilesJob::abort() {
    if (m_command) {
        m_command->disconnect(this);
        m_command->abort();
    }
    Q_EMIT finished();
    deleteLater();
}

void startListing(SandboxClient *client, const QString &path, ListOptions options, QObject *context,
                  std::function<void(const QList<RemoteFileInfo> &)> listed,
                  std::function<void(const Status &)> failed,
                  std::function<void(const QList<RemoteFileInfo> &)> preview, ListingSink sink) {
    if (options.sudo) {
        auto *job = new SudoListFilesJob(client, path, options);
        QObject::connect(job, &SudoListFilesJob::succeeded, context, listed);
        QObject::connect(job, &SudoListFilesJob::failed, context, failed);
        job->start();
        return;
    }
    auto *job = new ListFilesJob(client, path, options);
    job->setRowSink(std::move(sink));
    QObject::connect(job, &ListFilesJob::succeeded, context, listed);
    QObject::connect(job, &ApiJob::failed, context, failed);
    if (preview)
        QObject::connect(job, &ListFilesJob::rowsArriving, context, preview);
    job->start();
}

} // namespace sbx
