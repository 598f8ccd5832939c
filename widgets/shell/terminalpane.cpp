#include "widgets/shell/terminalpane.h"

#include "client/api/shelljobs.h"
#include "models/palette.h"
#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

TerminalPane::TerminalPane(SandboxClient *client, const QString &sessionId, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_channel(new TerminalChannel(client, this))
    , m_view(new TerminalView(this))
    , m_banner(new QFrame(this))
    , m_bannerText(new QLabel(m_banner))
    , m_newSession(new QPushButton(tr("New session"), m_banner))
    , m_reconnect(new QPushButton(tr("Reconnect now"), m_banner))
    , m_dismiss(new QPushButton(tr("Dismiss"), m_banner)) {
    m_banner->setObjectName(QStringLiteral("terminalBanner"));
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 8, 4);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_reconnect);
    bannerLayout->addWidget(m_newSession);
    bannerLayout->addWidget(m_dismiss);
    m_banner->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_view, 1);
    setFocusProxy(m_view);

    connect(m_view, &TerminalView::sendData, this,
            [this](const QByteArray &bytes) { m_channel->sendInput(bytes); });
    connect(m_view, &TerminalView::terminalSizeChanged, m_channel, &TerminalChannel::resize);
    connect(m_view, &TerminalView::titleChanged, this, [this](const QString &title) {
        m_title = title;
        Q_EMIT titleChanged(title);
    });
    connect(m_channel, &TerminalChannel::output, m_view, &TerminalView::feed);
    connect(m_channel, &TerminalChannel::replayStarting, this, [this] {
        // The server resends what the screen should show: start from a clean terminal.
        m_view->emulation()->reset();
    });
    connect(m_channel, &TerminalChannel::stateChanged, this, &TerminalPane::onStateChanged);
    connect(m_channel, &TerminalChannel::notice, this,
            [this](const QString &text) { showBanner(text, false, false, false); });
    connect(m_channel, &TerminalChannel::ended, this,
            [this](const QString &reason, int) { showBanner(reason, true, true, false); });
    connect(m_newSession, &QPushButton::clicked, this, &TerminalPane::startNewSession);
    connect(m_reconnect, &QPushButton::clicked, m_channel, &TerminalChannel::dropConnection);
    connect(m_dismiss, &QPushButton::clicked, m_banner, &QWidget::hide);

    m_channel->resize(m_view->columns(), m_view->rows());
    m_channel->open(sessionId);
}

TerminalPane::~TerminalPane() {
    // The session lives on in the sandbox; only this view of it goes.
    m_channel->disconnect(this);
    m_channel->detach();
}

bool TerminalPane::isRunning() const {
    return m_channel->state() != TerminalChannel::State::Ended &&
           m_channel->state() != TerminalChannel::State::Idle;
}

QString TerminalPane::bannerText() const {
    return m_banner->isHidden() ? QString() : m_bannerText->text();
}

void TerminalPane::startNewSession() {
    m_banner->hide();
    m_view->emulation()->reset();
    m_channel->open();
}

void TerminalPane::terminateSession() {
    const QString id = m_channel->sessionId();
    if (m_client && !id.isEmpty() && m_channel->state() != TerminalChannel::State::Ended)
        (new DeleteShellSessionJob(m_client, id))->start();
    m_channel->detach();
}

void TerminalPane::focusInEvent(QFocusEvent *event) {
    QWidget::focusInEvent(event);
    m_view->setFocus();
}

void TerminalPane::onStateChanged(TerminalChannel::State state) {
    switch (state) {
    case TerminalChannel::State::Connecting:
        showBanner(tr("Connecting…"), false, false, false);
        break;
    case TerminalChannel::State::Reconnecting:
        showBanner(tr("Connection lost: reconnecting to the session…"), true, false, true);
        break;
    case TerminalChannel::State::Live:
        // A notice shown during the reconnect (output may be missing) stays until dismissed.
        if (m_bannerText->property("transient").toBool())
            m_banner->hide();
        break;
    default:
        break;
    }
}

void TerminalPane::showBanner(const QString &text, bool error, bool offerNewSession,
                              bool offerReconnect) {
    const bool transient = !offerNewSession && (text.endsWith(QStringLiteral("…")));
    m_bannerText->setProperty("transient", transient);
    m_bannerText->setText(text);
    m_banner->setStyleSheet(Palette::bannerStyle(QStringLiteral("terminalBanner"), error));
    m_newSession->setVisible(offerNewSession);
    m_reconnect->setVisible(offerReconnect);
    m_dismiss->setVisible(!offerNewSession && !transient);
    m_banner->show();
}
