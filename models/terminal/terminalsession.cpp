#include "models/terminal/terminalsession.h"

#include "client/api/shelljobs.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalpredictor.h"

#include <algorithm>

namespace sbx {

TerminalSession::TerminalSession(SandboxClient *client, const QString &sessionId, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_channel(new TerminalChannel(client, this))
    , m_emulation(new TerminalEmulation(kDefaultColumns, kDefaultRows, this))
    , m_predictor(new TerminalPredictor(m_emulation, this)) {
    connect(m_channel, &TerminalChannel::output, m_emulation, &TerminalEmulation::feed);
    connect(m_channel, &TerminalChannel::replayStarting, m_emulation, [this] {
        // The server resends what the screen should show: start from a clean terminal.
        m_emulation->reset();
    });
    connect(m_channel, &TerminalChannel::ended, this,
            [this](const QString &reason, int) { m_endReason = reason; });
    connect(m_channel, &TerminalChannel::sessionStarted, this, [this] { m_endReason.clear(); });
    // The emulation's answers to the program (cursor reports, device attributes) go out here,
    // once, not through each view.
    connect(m_emulation, &TerminalEmulation::sendData, m_channel, &TerminalChannel::sendInput);

    m_channel->resize(m_size.width(), m_size.height());
    m_channel->open(sessionId);
}

TerminalSession::~TerminalSession() {
    m_channel->disconnect(this);
    m_channel->detach();
}

bool TerminalSession::isRunning() const {
    return m_channel->state() != TerminalChannel::State::Ended &&
           m_channel->state() != TerminalChannel::State::Idle;
}

void TerminalSession::attachView(QObject *view) {
    if (!view || m_viewSizes.contains(view))
        return;
    m_viewSizes.insert(view, QSize());
    // Only the pointer is used as a key once destroyed() is emitted.
    connect(view, &QObject::destroyed, this, [this, view] { detachView(view); });
}

void TerminalSession::detachView(QObject *view) {
    if (!m_viewSizes.remove(view))
        return;
    disconnect(view, &QObject::destroyed, this, nullptr);
    negotiateSize();
}

void TerminalSession::setViewSize(QObject *view, int cols, int rows) {
    const auto it = m_viewSizes.find(view);
    if (it == m_viewSizes.end() || cols <= 0 || rows <= 0)
        return;
    it.value() = QSize(cols, rows);
    negotiateSize();
}

void TerminalSession::negotiateSize() {
    int cols = 0;
    int rows = 0;
    for (const QSize &size : std::as_const(m_viewSizes)) {
        if (!size.isValid())
            continue;
        cols = cols == 0 ? size.width() : std::min(cols, size.width());
        rows = rows == 0 ? size.height() : std::min(rows, size.height());
    }
    // With no view that told its size the PTY keeps the last one: a shell whose last view
    // closed need not redraw for a size nobody sees.
    if (cols == 0 || QSize(cols, rows) == m_size)
        return;
    m_size = QSize(cols, rows);
    m_emulation->resize(cols, rows);
    m_channel->resize(cols, rows);
    Q_EMIT sizeChanged(cols, rows);
}

bool TerminalSession::sendInput(const QByteArray &bytes) {
    // Predicted only what goes to a live session at once; waiting keys show as waiting.
    if (m_channel->state() == TerminalChannel::State::Live && m_channel->pendingInput().isEmpty()) {
        m_predictor->setRoundTripMs(m_channel->roundTripMs());
        m_predictor->keysSent(bytes);
    }
    return m_channel->sendInput(bytes);
}

void TerminalSession::startNew() {
    m_endReason.clear();
    m_emulation->reset();
    m_channel->open();
}

void TerminalSession::terminate() {
    const QString id = m_channel->sessionId();
    if (m_client && !id.isEmpty() && m_channel->state() != TerminalChannel::State::Ended)
        (new DeleteShellSessionJob(m_client, id))->start();
    m_channel->detach();
}

} // namespace sbx
