#include "client/api/remotecommand.h"

#include "client/api/shelljobs.h"
#include "client/sandboxclient.h"

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
// One session for all of the console's file commands: exec without an id would leave a new
// shell behind on every call.
const QString kSessionId = u"sandbox-console-files"_s;
} // namespace

QString shellQuote(const QString &text) {
    QString out = u"$'"_s;
    const QByteArray utf8 = text.toUtf8();
    for (const char c : utf8) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '\\':
            out += u"\\\\"_s;
            break;
        case '\'':
            out += u"\\'"_s;
            break;
        case '\n':
            out += u"\\n"_s;
            break;
        case '\t':
            out += u"\\t"_s;
            break;
        case '\r':
            out += u"\\r"_s;
            break;
        default:
            if (byte < 0x20 || byte == 0x7f)
                out += u"\\x%1"_s.arg(byte, 2, 16, QLatin1Char('0'));
            else if (byte < 0x80)
                out += QLatin1Char(c);
            else
                out += u"\\x%1"_s.arg(byte, 2, 16, QLatin1Char('0'));
        }
    }
    return out + QLatin1Char('\'');
}

RemoteCommandJob::RemoteCommandJob(SandboxClient *client, QString command, QString description)
    : Job(client)
    , m_client(client)
    , m_command(std::move(command))
    , m_description(std::move(description)) {}

RemoteCommandJob *RemoteCommandJob::makeDirectory(SandboxClient *client, const QString &path) {
    return new RemoteCommandJob(client, u"mkdir -p -- "_s + shellQuote(path),
                                u"create folder %1"_s.arg(path));
}

RemoteCommandJob *RemoteCommandJob::rename(SandboxClient *client, const QString &from,
                                           const QString &to) {
    // -T: renaming onto an existing folder must not move the source inside it; -n: never
    // overwrite silently (the UI asks first and deletes explicitly).
    // Subshells only: this runs in an interactive shell, where `exit` would end the session.
    const QString command =
        u"(mv -n -T -- %1 %2 && test ! -e %1) || (echo %3 already exists >&2; false)"_s.arg(
            shellQuote(from), shellQuote(to), shellQuote(to));
    return new RemoteCommandJob(client, command, u"rename %1 to %2"_s.arg(from, to));
}

RemoteCommandJob *RemoteCommandJob::remove(SandboxClient *client, const QStringList &paths) {
    QStringList quoted;
    for (const QString &p : paths)
        quoted << shellQuote(p);
    return new RemoteCommandJob(client, u"rm -rf -- "_s + quoted.join(QLatin1Char(' ')),
                                u"delete %1"_s.arg(paths.join(u", "_s)));
}

void RemoteCommandJob::start() {
    if (beginStart())
        exec(true);
}

void RemoteCommandJob::exec(bool mayCreateSession) {
    if (!m_client) {
        complete(Status::error(Status::Kind::Cancelled, tr("The sandbox was closed")));
        return;
    }
    ShellExecRequest request;
    // -n: a password prompt would hang the console's shell session until the hard timeout.
    request.command =
        m_sudo ? QString(u"sudo -n -- bash -c "_s + shellQuote(m_command)) : m_command;
    request.sessionId = kSessionId;
    request.hardTimeoutSeconds = 120;
    auto *job = new ShellExecJob(m_client, request);
    m_current = job;
    connect(job, &ShellExecJob::succeeded, this, [this](const ShellCommandResult &r) {
        if (r.completed() && r.exitCode == 0) {
            m_output = r.output;
            complete(Status::success());
            return;
        }
        QString why = r.output.trimmed().section(QLatin1Char('\n'), -1);
        if (!r.completed())
            why = r.message.isEmpty() ? u"the command did not finish (%1)"_s.arg(r.status)
                                      : r.message;
        Status status =
            Status::error(Status::Kind::Server, tr("Could not %1: %2").arg(m_description, why));
        // Same meaning as AIO's file error, so the console can offer the same remedy (sudo).
        if (r.output.contains(QLatin1String("Permission denied")) ||
            r.output.contains(QLatin1String("Operation not permitted")))
            status.errorType = u"permission_denied"_s;
        complete(status);
    });
    connect(job, &ApiJob::failed, this, [this, mayCreateSession](const Status &s) {
        if (s.kind != Status::Kind::NotFound || !mayCreateSession) {
            Status status = s;
            status.message = tr("Could not %1: %2").arg(m_description, s.message);
            complete(status);
            return;
        }
        auto *create = new CreateShellSessionJob(m_client, kSessionId);
        m_current = create;
        connect(create, &CreateShellSessionJob::succeeded, this, [this] { exec(false); });
        connect(create, &ApiJob::failed, this, [this](const Status &status) { complete(status); });
        create->start();
    });
    job->start();
}

void RemoteCommandJob::cancelWork() {
    if (m_current)
        m_current->abort();
}

} // namespace sbx
