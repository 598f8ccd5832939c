#include "client/api/bashrun.h"

#include "client/sandboxclient.h"

#include <QCoreApplication>
#include <QTimer>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// A long-poll's wait: the server answers at once when output comes, so this only bounds
// how long a silent command keeps one request open.
constexpr int kWaitSeconds = 25;
// A drop that lasts this long in a row ends the run's following (the command may go on).
constexpr int kGiveUpFailures = 120;
constexpr char kStderrStart[] = "\x1b[31m";
constexpr char kStderrEnd[] = "\x1b[0m";

} // namespace

BashRun::BashRun(SandboxClient *client, BashExecRequest request, QObject *parent)
    : LogSource(parent)
    , m_client(client)
    , m_request(std::move(request))
    , m_retry(new QTimer(this)) {
    m_state.command = m_request.command;
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &BashRun::poll);
    // Back, as the list's probe or a terminal found: no need to sit out the backoff.
    if (client)
        connect(client, &SandboxClient::reachabilityChanged, this, [this](bool reachable) {
            if (reachable && m_phase == Phase::Reconnecting && m_retry->isActive()) {
                m_retry->stop();
                poll();
            }
        });
}

BashRun::BashRun(SandboxClient *client, const BashCommandState &existing, QObject *parent)
    : BashRun(client, BashExecRequest{existing.command, existing.sessionId, {}, {}, true, 0},
              parent) {
    m_state = existing;
    m_attached = true;
}

BashRun::~BashRun() {
    if (m_poll)
        m_poll->abort();
}

void BashRun::start() {
    if (!m_client)
        return fail(tr("The sandbox is not connected."));
    m_startedAt = QDateTime::currentDateTime();
    m_clock.start();
    if (m_attached) {
        setPhase(Phase::Running);
        poll();
        return;
    }
    auto *job = new BashExecJob(m_client, m_request);
    connect(job, &BashExecJob::succeeded, this, [this](const BashCommandState &state) {
        m_state = state;
        setPhase(Phase::Running);
        poll();
    });
    connect(job, &BashExecJob::failed, this, [this](const Status &status) {
        m_noBashApi = status.kind == Status::Kind::NotFound;
        fail(m_noBashApi ? tr("This sandbox has no /v1/bash API, so commands cannot run here as "
                              "runs. Use a terminal instead.")
                         : tr("The command did not start: %1").arg(status.message));
    });
    job->start();
}

QString BashRun::stateText() const {
    switch (m_phase) {
    case Phase::Starting:
        return tr("starting");
    case Phase::Running:
        return tr("running");
    case Phase::Reconnecting:
        return tr("reconnecting");
    case Phase::Failed:
        return tr("failed");
    case Phase::Finished:
        break;
    }
    const QString code = m_state.exitCode ? QString::number(*m_state.exitCode) : u"?"_s;
    if (m_state.status == "timed_out"_L1)
        return tr("timed out (exit %1)").arg(code);
    if (m_state.status == "killed"_L1)
        return tr("stopped (exit %1)").arg(code);
    return tr("exit %1").arg(code);
}

qint64 BashRun::durationMs() const {
    if (m_finishedMs >= 0)
        return m_finishedMs;
    return m_clock.isValid() ? m_clock.elapsed() : 0;
}

QString BashRun::nextStopSignal() const {
    return m_stops == 0 ? u"SIGINT"_s : m_stops == 1 ? u"SIGTERM"_s : u"SIGKILL"_s;
}

void BashRun::stop() {
    if (!m_client || !active() || m_state.commandId.isEmpty())
        return;
    const QString signal = nextStopSignal();
    ++m_stops;
    auto *job = BashActionJob::kill(m_client, m_state.sessionId, m_state.commandId, signal);
    connect(job, &BashActionJob::succeeded, this, [this, signal] {
        Q_EMIT notice(m_stops < 3
                          ? tr("Sent %1; Stop again sends %2.").arg(signal, nextStopSignal())
                          : tr("Sent %1.").arg(signal));
    });
    connect(job, &BashActionJob::failed, this, [this, signal](const Status &status) {
        Q_EMIT notice(tr("%1 was not sent: %2").arg(signal, status.message));
    });
    job->start();
    Q_EMIT changed();
}

void BashRun::write(const QString &text) {
    if (!m_client || !active() || m_state.commandId.isEmpty())
        return;
    auto *job = BashActionJob::write(m_client, m_state.sessionId, m_state.commandId, text);
    connect(job, &BashActionJob::failed, this, [this](const Status &status) {
        Q_EMIT notice(tr("The input was not sent: %1").arg(status.message));
    });
    job->start();
}

void BashRun::poll() {
    if (!m_client)
        return fail(tr("The sandbox is not connected."));
    m_poll = new BashOutputJob(m_client, m_state.sessionId, m_state.commandId, m_offset,
                               m_stderrOffset, kWaitSeconds);
    connect(m_poll, &BashOutputJob::succeeded, this, &BashRun::onChunk);
    connect(m_poll, &BashOutputJob::failed, this, &BashRun::onPollFailed);
    m_poll->start();
}

void BashRun::onChunk(const BashOutputChunk &chunk) {
    if (m_phase == Phase::Reconnecting) {
        Q_EMIT notice(tr("Connection back; the output goes on from where it was."));
        setPhase(Phase::Running);
    }
    m_failures = 0;
    // An offset that went back means the server lost what we had (a restart reusing the id):
    // keep what is shown and take only what is new.
    const bool forward = chunk.offset >= m_offset && chunk.stderrOffset >= m_stderrOffset;
    if (forward) {
        m_offset = chunk.offset;
        m_stderrOffset = chunk.stderrOffset;
    }
    if (chunk.hasCommand) {
        const QString sessionId = m_state.sessionId;
        m_state = chunk.command;
        if (m_state.sessionId.isEmpty())
            m_state.sessionId = sessionId;
    }
    const bool quiet = chunk.stdoutBytes.isEmpty() && chunk.stderrBytes.isEmpty();
    const bool done = !chunk.hasCommand || (!m_state.running() && quiet);
    // The next piece is asked for before this one goes into the log, so the transfer and the
    // log's indexing overlap.
    if (!done)
        poll();
    if (forward) {
        emitStream(chunk.stdoutBytes, false);
        emitStream(chunk.stderrBytes, true);
    }
    if (done) {
        flushOpenLine();
        m_finishedMs = m_clock.elapsed();
        setPhase(Phase::Finished);
        Q_EMIT ended(stateText());
        return;
    }
    Q_EMIT changed();
}

void BashRun::onPollFailed(const Status &status) {
    if (status.kind == Status::Kind::Cancelled)
        return;
    if (status.kind == Status::Kind::NotFound)
        return fail(tr("The sandbox no longer has this command (it restarted, or the output "
                       "expired): %1")
                        .arg(status.message));
    if (!status.transient() && status.kind != Status::Kind::Server)
        return fail(tr("Reading the output failed: %1").arg(status.message));
    if (++m_failures > kGiveUpFailures)
        return fail(tr("The sandbox stayed unreachable; the command may still run there."));
    const int delay = m_retryDelays.isEmpty()
                          ? 1000
                          : m_retryDelays.at(qMin(m_failures - 1, int(m_retryDelays.size()) - 1));
    if (m_phase != Phase::Reconnecting) {
        setPhase(Phase::Reconnecting);
        Q_EMIT notice(tr("Connection lost (%1); retrying every few seconds.").arg(status.message));
    }
    m_retry->start(delay);
}

void BashRun::emitStream(const QByteArray &bytes, bool isStderr) {
    if (bytes.isEmpty())
        return;
    if (!isStderr && !(m_lineOpen && m_lineIsStderr)) {
        // The common case, stdout after stdout: the bytes as they came, shared, not copied.
        m_lineIsStderr = false;
        m_lineOpen = !bytes.endsWith('\n');
        Q_EMIT this->bytes(bytes);
        return;
    }
    QByteArray out;
    out.reserve(bytes.size() + (isStderr ? 64 : 1));
    // A line the other stream left open ends here: lines keep their stream.
    if (m_lineOpen && m_lineIsStderr != isStderr) {
        if (m_lineIsStderr)
            out += kStderrEnd;
        out += '\n';
        m_lineOpen = false;
    }
    if (!isStderr) {
        out += bytes;
    } else {
        qsizetype start = 0;
        while (start < bytes.size()) {
            qsizetype nl = bytes.indexOf('\n', start);
            const qsizetype end = nl < 0 ? bytes.size() : nl;
            if (!m_lineOpen)
                out += kStderrStart;
            out += QByteArrayView(bytes).sliced(start, end - start);
            if (nl >= 0) {
                out += kStderrEnd;
                out += '\n';
                m_lineOpen = false;
            } else {
                m_lineOpen = true;
            }
            start = end + 1;
        }
    }
    m_lineIsStderr = isStderr;
    m_lineOpen = !bytes.endsWith('\n');
    Q_EMIT this->bytes(out);
}

void BashRun::flushOpenLine() {
    if (!m_lineOpen)
        return;
    Q_EMIT bytes(m_lineIsStderr ? QByteArray(kStderrEnd) + '\n' : QByteArray("\n"));
    m_lineOpen = false;
}

void BashRun::setPhase(Phase phase) {
    m_phase = phase;
    Q_EMIT changed();
}

void BashRun::fail(const QString &why) {
    m_error = why;
    if (m_clock.isValid())
        m_finishedMs = m_clock.elapsed();
    flushOpenLine();
    setPhase(Phase::Failed);
    Q_EMIT ended(why);
}

} // namespace sbx
