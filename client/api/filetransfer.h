#pragma once

#include "client/api/apijob.h"

#include <QFile>
#include <QPointer>

#include <memory>

namespace sbx {

class PartWriter;

// POST /v1/file/upload: streams a local file from disk (never whole in memory) as the multipart
// `file` part with its target `path`. Not retried: a second upload is a second write.
class UploadJob final : public ApiJob {
    Q_OBJECT
public:
    UploadJob(SandboxClient *client, const QString &localPath, const QString &remotePath);
    const QString &localPath() const { return m_localPath; }
    const QString &remotePath() const { return m_remotePath; }
Q_SIGNALS:
    void succeeded(qint64 size);

protected:
    Status preflight() override;
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_size); }

private:
    QString m_localPath;
    QString m_remotePath;
    qint64 m_size = 0;
};

// GET /v1/file/download into `<target>.part`, renamed onto the target only when complete and
// as long as Content-Length said. After a dropped connection it resumes with Range + If-Range
// where the server lists `download-range`, so two versions of a file are never spliced.
// The GUI thread only copies bytes out of the reply; a writer thread of the job's own writes
// them, with a bounded queue between the two.
class DownloadJob final : public ApiJob {
    Q_OBJECT
public:
    // abortOnChange: AIO's change_policy=abort; a file that changes fails the download.
    DownloadJob(SandboxClient *client, const QString &remotePath, const QString &localPath,
                bool abortOnChange = true);
    // Any other GET whose body is a file (an observe report, ...); label names it in messages.
    DownloadJob(SandboxClient *client, ApiRequest request, const QString &label,
                const QString &localPath);
    ~DownloadJob() override;
    const QString &localPath() const { return m_localPath; }
    // Attempts that resumed where the last one stopped (for tests and the transfer panel).
    int resumes() const { return m_resumes; }
Q_SIGNALS:
    void succeeded(qint64 size);

protected:
    Status preflight() override;
    void prepareReply(QNetworkReply *reply) override;
    void onBodyData(QNetworkReply *reply) override;
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    bool parseReplyAsync(const QByteArray &body) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_received); }
    bool shouldRetry(const Status &status) override;

private:
    bool startBody(QNetworkReply *reply);
    void readBody(QNetworkReply *reply);
    void queue(QByteArray bytes);
    void onWriterEvent();
    Status commit();
    void discardPart();

    QString m_remotePath;
    QString m_localPath;
    bool m_abortOnChange;
    QFile m_part;
    std::unique_ptr<PartWriter> m_writer;
    QPointer<QNetworkReply> m_reply; // this attempt's
    bool m_finishing = false;        // the body is all queued; commit once it is written
    qint64 m_received = 0;
    qint64 m_expected = -1;
    QByteArray m_etag;
    bool m_bodyStarted = false;
    bool m_committed = false;
    int m_resumes = 0;
};

} // namespace sbx
