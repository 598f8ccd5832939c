#include "widgets/shell/terminalpane.h"

#include "models/palette.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalpredictor.h"
#include "models/terminal/terminalsession.h"
#include "widgets/terminal/terminalview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Keys as the view shows them while they wait: printable text, Enter as ↵, other control keys
// and escape sequences (arrows, function keys) left out.
QString pendingText(const QByteArray &bytes) {
    const QString text = QString::fromUtf8(bytes);
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\x1b') {
            // CSI and SS3 end with a letter or ~; a lone ESC (Alt+key) takes the next key.
            qsizetype j = i + 1;
            if (j < text.size() && (text.at(j) == u'[' || text.at(j) == u'O')) {
                ++j;
                while (j < text.size() && !text.at(j).isLetter() && text.at(j) != u'~')
                    ++j;
            }
            i = j;
            continue;
        }
        if (c == u'\r' || c == u'\n')
            out += u'\u21b5';
        else if (c.unicode() >= 0x20 && c.unicode() != 0x7f)
            out += c;
    }
    return out;
}

} // namespace

TerminalPane::TerminalPane(SandboxClient *client, const QString &sessionId, QWidget *parent)
    : TerminalPane(new TerminalSession(client, sessionId), parent) {
    // This pane opened the session, so it owns it.
    m_session->setParent(this);
}

TerminalPane::TerminalPane(TerminalSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_view(new TerminalView(session->emulation(), this))
    , m_banner(new QFrame(this))
    , m_bannerText(new QLabel(m_banner))
    , m_newSession(new QPushButton(tr("New session"), m_banner))
    , m_reconnect(new QPushButton(tr("Reconnect now"), m_banner))
    , m_dismiss(new QPushButton(tr("Dismiss"), m_banner))
    , m_sendPending(new QPushButton(tr("Send them"), m_banner))
    , m_discardPending(new QPushButton(tr("Discard"), m_banner))
    , m_title(session->emulation()->title()) {
    m_banner->setObjectName(u"terminalBanner"_s);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 8, 4);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_reconnect);
    bannerLayout->addWidget(m_newSession);
    bannerLayout->addWidget(m_sendPending);
    bannerLayout->addWidget(m_discardPending);
    bannerLayout->addWidget(m_dismiss);
    m_banner->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_view, 1);
    setFocusProxy(m_view);

    // The session sizes the emulation from all of its views; this one only says what fits.
    m_view->setSizesEmulation(false);
    session->attachView(m_view);
    connect(m_view, &TerminalView::sendData, this, &TerminalPane::onInput);
    connect(
        m_view, &TerminalView::terminalSizeChanged, session,
        [session, view = m_view](int cols, int rows) { session->setViewSize(view, cols, rows); });
    connect(m_view, &TerminalView::titleChanged, this, [this](const QString &title) {
        m_title = title;
        Q_EMIT titleChanged(title);
    });
    TerminalChannel *channel = session->channel();
    connect(channel, &TerminalChannel::stateChanged, this, &TerminalPane::onStateChanged);
    connect(channel, &TerminalChannel::notice, this,
            [this](const QString &text) { showBanner(text, false, false, false); });
    connect(channel, &TerminalChannel::ended, this,
            [this](const QString &reason, int) { showBanner(reason, true, true, false); });
    connect(m_newSession, &QPushButton::clicked, this, &TerminalPane::startNewSession);
    connect(m_reconnect, &QPushButton::clicked, channel, &TerminalChannel::dropConnection);
    connect(m_dismiss, &QPushButton::clicked, m_banner, &QWidget::hide);
    connect(channel, &TerminalChannel::pendingChanged, this, &TerminalPane::onPendingChanged);
    connect(session->predictor(), &TerminalPredictor::predictedChanged, this,
            &TerminalPane::updateOverlay);
    connect(channel, &TerminalChannel::pendingHeld, this, [this](const QByteArray &pending) {
        showBanner(tr("A new session replaced the one these keys were typed for: send the "
                      "%n waiting byte(s) to it?",
                      nullptr, int(pending.size())),
                   true, false, false);
        m_sendPending->show();
        m_discardPending->show();
        m_dismiss->hide();
        m_bannerText->setProperty("pendingQuestion", true);
    });
    connect(m_sendPending, &QPushButton::clicked, channel, &TerminalChannel::sendPending);
    connect(m_discardPending, &QPushButton::clicked, channel, &TerminalChannel::discardPending);

    // The session may be under way already (it connects as it is made, or another pane
    // shows it): the banner starts from where it is.
    if (channel->state() == TerminalChannel::State::Ended)
        showBanner(session->endReason(), true, true, false);
    else
        onStateChanged(channel->state());
}

TerminalPane::~TerminalPane() {
    // Only this view goes; the session lives on for its other panes, or in the sandbox. The
    // view goes first, whatever the order of children: it must never outlive its emulation.
    if (m_session) {
        m_session->channel()->disconnect(this);
        m_session->detachView(m_view);
    }
    delete m_view;
}

TerminalChannel *TerminalPane::channel() const {
    return m_session->channel();
}

QString TerminalPane::sessionId() const {
    return m_session->sessionId();
}

bool TerminalPane::isRunning() const {
    return m_session && m_session->isRunning();
}

QString TerminalPane::bannerText() const {
    return m_banner->isHidden() ? QString() : m_bannerText->text();
}

void TerminalPane::startNewSession() {
    m_banner->hide();
    m_session->startNew();
}

void TerminalPane::terminateSession() {
    m_session->terminate();
}

void TerminalPane::focusInEvent(QFocusEvent *event) {
    QWidget::focusInEvent(event);
    m_view->setFocus();
}

void TerminalPane::onInput(const QByteArray &bytes) {
    if (m_session->sendInput(bytes))
        return;
    // Keys and pastes never vanish without a word.
    const TerminalChannel::State state = channel()->state();
    if (state == TerminalChannel::State::Connecting ||
        state == TerminalChannel::State::Reconnecting)
        showBanner(tr("Not sent: more than %1 KiB typed while the connection is down.")
                       .arg(TerminalChannel::kMaxPendingBytes / 1024),
                   true, false, true);
    else
        showBanner(tr("Not sent: the terminal is not connected."), true,
                   state == TerminalChannel::State::Ended, false);
}

void TerminalPane::updateOverlay() {
    // Keys waiting for the link, else characters predicted before their echo (underlined).
    const QByteArray pending = channel()->pendingInput();
    if (!pending.isEmpty())
        m_view->setCursorOverlay({pendingText(pending), false});
    else
        m_view->setCursorOverlay({m_session->predictor()->predicted(), true});
}

void TerminalPane::onPendingChanged(const QByteArray &pending) {
    updateOverlay();
    if (pending.isEmpty()) {
        m_sendPending->hide();
        m_discardPending->hide();
        if (m_bannerText->property("pendingQuestion").toBool())
            m_banner->hide();
    }
    if (channel()->state() == TerminalChannel::State::Reconnecting)
        onStateChanged(TerminalChannel::State::Reconnecting);
}

void TerminalPane::onStateChanged(TerminalChannel::State state) {
    const qsizetype pending = channel()->pendingInput().size();
    switch (state) {
    case TerminalChannel::State::Connecting:
        showBanner(tr("Connecting…"), false, false, false);
        break;
    case TerminalChannel::State::Reconnecting:
        showBanner(pending > 0 ? tr("Connection lost: reconnecting to the session… %n byte(s) "
                                    "typed meanwhile will be sent when it is back…",
                                    nullptr, int(pending))
                               : tr("Connection lost: reconnecting to the session…"),
                   true, false, true);
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
    const bool transient = !offerNewSession && (text.endsWith(u"…"_s));
    m_bannerText->setProperty("transient", transient);
    m_bannerText->setText(text);
    m_banner->setStyleSheet(Palette::bannerStyle(u"terminalBanner"_s, error));
    m_newSession->setVisible(offerNewSession);
    m_reconnect->setVisible(offerReconnect);
    m_dismiss->setVisible(!offerNewSession && !transient);
    m_sendPending->hide();
    m_discardPending->hide();
    m_bannerText->setProperty("pendingQuestion", false);
    m_banner->show();
}

} // namespace sbx
