#include "client/api/filejobs.h"

#include "client/api/envelope.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

using nlohmann::json;

namespace {
// Below this a listing parses faster than a thread hop costs.
constexpr qsizetype asyncParseBytes = 256 * 1024;
const QString listWhat = QStringLiteral("POST /v1/file/list");
} // namespace

FileListing parseFileListing(const QByteArray &body) {
    FileListing out;
    Envelope envelope;
    out.status = parseEnvelope(body, listWhat, &envelope);
    if (!out.status.ok())
        return out;
    const json &files = jsonChild(envelope.data, "files");
    if (!files.is_array() && !files.is_null()) {
        out.status = Status::error(Status::Kind::BadResponse,
                                   QStringLiteral("%1: files is not a list").arg(listWhat));
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

bool sudoAvailable(const QStringList &extensions) {
    return extensions.isEmpty() || extensions.contains(QStringLiteral("file-sudo"));
}

ListFilesJob::ListFilesJob(SandboxClient *client, const QString &path, ListOptions options)
    : ApiJob(client,
             [&] {
                 json body{{"path", path.toStdString()},
                           {"show_hidden", options.showHidden},
                           {"include_size", true},
                           {"include_permissions", true},
                           {"recursive", options.recursive}};
                 if (options.sudo)
                     body["sudo"] = true;
                 return ApiRequest::postJson(QStringLiteral("v1/file/list"),
                                             QByteArray::fromStdString(body.dump()), true);
             }())
    , m_path(path) {}

Status ListFilesJob::parseReply(const QByteArray &body, QNetworkReply *) {
    FileListing listing = parseFileListing(body);
    m_files = std::move(listing.files);
    return listing.status;
}

bool ListFilesJob::parseReplyAsync(const QByteArray &body) {
    if (body.size() < asyncParseBytes)
        return false;
    // The watcher is our child: if the job is aborted and deleted, the result is dropped.
    m_watcher = new QFutureWatcher<FileListing>(this);
    connect(m_watcher, &QFutureWatcher<FileListing>::finished, this, [this] {
        FileListing listing = m_watcher->result();
        m_files = std::move(listing.files);
        finishParse(listing.status);
    });
    m_watcher->setFuture(QtConcurrent::run([body] { return parseFileListing(body); }));
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
        return ApiRequest::postJson(QStringLiteral("v1/file/read"),
                                    QByteArray::fromStdString(body.dump()), true);
    }()) {}

Status ReadFileJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    if (!jsonChild(envelope.data, "content").is_string())
        return Status::error(Status::Kind::BadResponse,
                             QStringLiteral("%1: the reply has no content").arg(what()));
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
        return ApiRequest::postJson(QStringLiteral("v1/file/write"),
                                    QByteArray::fromStdString(body.dump()), !append);
    }()) {}

Status WriteFileJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    m_written = jsonInt(envelope.data, "bytes_written", -1);
    return Status::success();
}
