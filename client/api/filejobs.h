#pragma once

#include "client/api/apijob.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>

template <typename T> class QFutureWatcher;

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
    bool sudo = false;
};

// Whether a refused file operation may be retried with AIO's `sudo`: the AIO container runs as a
// user with sudo (and lists no extensions); sandbox-server says so with `file-sudo`.
bool sudoAvailable(const QStringList &extensions);

// POST /v1/file/list of one folder. Large listings are parsed off the GUI thread.
class ListFilesJob final : public ApiJob {
    Q_OBJECT
public:
    ListFilesJob(SandboxClient *client, const QString &path, ListOptions options = {});
    const QString &path() const { return m_path; }
Q_SIGNALS:
    void succeeded(const QList<RemoteFileInfo> &files);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_files); }

private:
    QString m_path;
    QList<RemoteFileInfo> m_files;
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
FileListing parseFileListing(const QByteArray &body);
