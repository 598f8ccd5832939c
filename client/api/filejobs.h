#pragma once

#include "client/api/apijob.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QPointer>

#include <functional>
#include <memory>

template <typename T> class QFutureWatcher;

namespace sbx {

class FileListingStream;

// One entry of POST /v1/file/list.
struct RemoteFileInfo {
    QString name;
    QString path;
    bool isDirectory = false;
    qint64 size = -1; // -1 when the server did not say
    QDateTime modified;
    QString permissions;
};

struct FileListing {
    Status status;
    QList<RemoteFileInfo> files;
};

struct ListOptions {
    bool showHidden = true;
    bool recursive = false; // every level below, for folder downloads
    // As root: AIO's FileListRequest has no `sudo`, so such a listing goes through exec
    // (SudoListFilesJob); startListing() picks the job.
    bool sudo = false;
};

// Whether a refused file operation may be retried with AIO's `sudo`: the AIO container runs as a
// user with sudo (and lists no extensions); sandbox-server says so with `file-sudo`.
bool sudoAvailable(const QStringList &extensions);

// Where a listing's rows go as they are read, on a worker thread and in order, so that
// what is built of them (the Files model's rows) is built while the rest still arrives. The
// rows are the sink's: when they were the whole listing, succeeded() brings none (100 000 rows
// kept twice cost a copy, its reallocations and its frees).
struct ListingSink {
    std::function<void(QList<RemoteFileInfo> rows)> rows;
    // After the last rows, before succeeded(), on that thread. whole: the rows given were the
    // listing, each once, and succeeded() has no rows. Otherwise succeeded() has the listing
    // parsed anew, and what the rows built is to be dropped. Not called when the listing fails
    // or the job goes away.
    std::function<void(bool whole)> done;
};

class ListingPipe;

// POST /v1/file/list of one folder, its answer parsed off the GUI thread as it arrives. The
// request carries no `sudo` (the contract has none); see SudoListFilesJob.
class ListFilesJob final : public ApiJob {
    Q_OBJECT
public:
    ListFilesJob(SandboxClient *client, const QString &path, ListOptions options = {});
    ~ListFilesJob() override;
    const QString &path() const { return m_path; }
    // Before start(): the rows go there instead, as they are read (see ListingSink).
    void setRowSink(ListingSink sink) { m_sink = std::move(sink); }
Q_SIGNALS:
    // Every row, unless a row sink took them (see ListingSink).
    void succeeded(const QList<RemoteFileInfo> &files);
    // Rows as the body arrives, before it is whole: the first kPreviewRows at most, a preview.
    void rowsArriving(const QList<RemoteFileInfo> &rows);

public:
    static constexpr qsizetype kPreviewRows = 1000;

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    void prepareReply(QNetworkReply *reply) override;
    void onBodyData(QNetworkReply *reply) override;
    DirectExchange::BodySink directSink() override;
    void emitSucceeded() override { Q_EMIT succeeded(m_files); }

private:
    // A new attempt's body, read by a new pipe.
    std::shared_ptr<ListingPipe> newBody();

    QString m_path;
    QList<RemoteFileInfo> m_files;
    ListingSink m_sink;
    std::shared_ptr<ListingPipe> m_pipe; // this attempt's body
    QFutureWatcher<FileListing> *m_watcher = nullptr;
};

// POST /v1/file/read: a text file, or a range of its lines (end exclusive).
class ReadFileJob final : public ApiJob {
    Q_OBJECT
public:
    ReadFileJob(SandboxClient *client, const QString &path, int startLine = -1, int endLine = -1,
                bool sudo = false);
Q_SIGNALS:
    void succeeded(const QString &content);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_content); }

private:
    QString m_content;
};

// POST /v1/file/write: text as UTF-8, or bytes as base64.
class WriteFileJob final : public ApiJob {
    Q_OBJECT
public:
    WriteFileJob(SandboxClient *client, const QString &path, const QByteArray &bytes, bool binary,
                 bool append = false, bool sudo = false);
Q_SIGNALS:
    void succeeded(qint64 bytesWritten);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_written); }

private:
    qint64 m_written = -1;
};

// Parses a list body; pure, so that it can run on a worker thread. Exposed for fixture tests.
// The usual shape is read straight from the text (parseFileListingFast), anything else by
// parseFileListingTolerant through a JSON tree.
FileListing parseFileListing(const QByteArray &body);
FileListing parseFileListingTolerant(const QByteArray &body);

class RemoteCommandJob;
// A folder listed as root where AIO's list refused the sandbox user: `find` through `sudo -n`
// in the console's exec session (POST /v1/shell/exec, as make folder, rename and delete run),
// its output parsed into the rows POST /v1/file/list gives. Same contract as a job.
class SudoListFilesJob final : public QObject {
    Q_OBJECT
public:
    SudoListFilesJob(SandboxClient *client, const QString &path, ListOptions options = {});
    const QString &path() const { return m_path; }
    void start();
    void abort();
Q_SIGNALS:
    void finished();
    void succeeded(const QList<RemoteFileInfo> &files);
    void failed(const Status &status);

private:
    QString m_path;
    ListOptions m_options;
    QPointer<RemoteCommandJob> m_command;
};

// The shell command SudoListFilesJob runs (as root), and the parser of what it prints; exposed
// for tests. The entries come base64-encoded between two marker lines, so that no name (new
// lines, terminal controls) can break the output apart.
QString sudoListCommand(const QString &path, bool recursive);
FileListing parseSudoListing(const QString &output, const QString &path, bool showHidden);

// Starts the listing job options ask for (ListFilesJob, or SudoListFilesJob with sudo); exactly
// one of listed or failed runs later, in context, unless context goes away first.
// preview, when given, gets rows as the body arrives (ListFilesJob::rowsArriving), and sink
// every row on a worker (ListFilesJob::setRowSink: listed then has none when the sink heard they
// were whole); neither with sudo.
void startListing(SandboxClient *client, const QString &path, ListOptions options, QObject *context,
                  std::function<void(const QList<RemoteFileInfo> &)> listed,
                  std::function<void(const Status &)> failed,
                  std::function<void(const QList<RemoteFileInfo> &)> preview = {},
                  ListingSink sink = {});

} // namespace sbx
