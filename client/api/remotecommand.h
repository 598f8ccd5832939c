#pragma once

#include "client/api/job.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace sbx {

class SandboxClient;
class ApiJob;

// Quotes text for bash as one $'...' word: every byte stays literal and the command stays on one
// line, whatever the name holds (spaces, quotes, newlines, a leading dash).
QString shellQuote(const QString &text);

// A file operation AIO has no endpoint for (make folder, rename, delete), run through
// /v1/shell/exec in a session the console keeps for this, so it works against the real AIO too.
// A Job: finished(), then succeeded() or failed(Status); deletes itself.
class RemoteCommandJob final : public Job {
    Q_OBJECT
public:
    // description names the operation for messages, e.g. "create folder /a/b".
    RemoteCommandJob(SandboxClient *client, QString command, QString description);

    static RemoteCommandJob *makeDirectory(SandboxClient *client, const QString &path);
    static RemoteCommandJob *rename(SandboxClient *client, const QString &from, const QString &to);
    static RemoteCommandJob *remove(SandboxClient *client, const QStringList &paths);

    // Runs the command through `sudo -n` (AIO's user has sudo); set before start().
    void setSudo(bool sudo) { m_sudo = sudo; }
    void start() override;
    const QString &command() const { return m_command; }
    // What the command printed; set before succeeded().
    const QString &output() const { return m_output; }

Q_SIGNALS:
    void succeeded();

protected:
    void emitSucceeded() override { Q_EMIT succeeded(); }
    void cancelWork() override;

private:
    void exec(bool mayCreateSession);

    QPointer<SandboxClient> m_client;
    QString m_command;
    QString m_description;
    QString m_output;
    QPointer<ApiJob> m_current;
    bool m_sudo = false;
};

} // namespace sbx
