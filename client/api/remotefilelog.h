#pragma once

#include "client/providers/sandboxprovider.h"

#include <QByteArray>
#include <QPointer>
#include <QString>

class QTimer;

namespace sbx {

class SandboxClient;

// A file in a sandbox followed as a log: its bytes, then what is appended, polled. Where the
// sandbox announces download-range: GET /v1/file/download with a Range that starts a few bytes
// before the end already read, in bounded pieces (the overlap proves it is still the same
// file). Against AIO's documented endpoints only: the download once, then POST /v1/file/read
// from the last whole line read. A file truncated or replaced starts again (restarted says
// which), never spliced onto the old one.
class RemoteFileLog final : public LogSource {
    Q_OBJECT
public:
    static constexpr int kDefaultPollMs = 1000;

    RemoteFileLog(SandboxClient *client, QString path, QObject *parent = nullptr);
    ~RemoteFileLog() override;

    void start() override;
    void setPollInterval(int ms);
    const QString &path() const { return m_path; }
    bool usesRange() const;

private:
    void poll();
    void readRange();
    void downloadWhole();
    void emitFile(const QString &local);
    void readLines();
    void accept(const QByteArray &bytes);
    void startOver(const QString &why);
    void schedule();
    void fail(const QString &why);

    QPointer<SandboxClient> m_client;
    QString m_path;
    QTimer *m_timer;
    bool m_busy = false;
    bool m_ended = false;
    qint64 m_have = 0;     // bytes delivered
    QByteArray m_tailKept; // the last bytes delivered (the overlap to compare)
    // AIO only: whole lines delivered, and the last whole line with what follows it.
    qint64 m_lines = 0;
    QByteArray m_lastLine;
    QByteArray m_open;
    bool m_downloaded = false;
};

} // namespace sbx
