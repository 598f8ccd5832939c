#include "models/terminal/terminalpredictor.h"

#include "models/terminal/terminalemulation.h"

namespace sbx {

namespace {

// One key of plain text: printable characters, each one cell wide, no control or escape.
bool printableText(const QString &text) {
    if (text.isEmpty())
        return false;
    for (const char32_t ch : text.toUcs4()) {
        if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0) || ch > 0x2fff)
            return false;
    }
    return true;
}

} // namespace

TerminalPredictor::TerminalPredictor(TerminalEmulation *emulation, QObject *parent)
    : QObject(parent)
    , m_emulation(emulation) {
    m_echoTimeout.setSingleShot(true);
    connect(&m_echoTimeout, &QTimer::timeout, this, [this] {
        if (m_predicted.isEmpty())
            return;
        // Nothing came back for what was typed: echo is off (a password), stop here.
        m_echoOff = true;
        clear();
    });
    connect(emulation, &TerminalEmulation::screenChanged, this,
            &TerminalPredictor::onScreenChanged);
}

void TerminalPredictor::setMode(Mode mode) {
    m_mode = mode;
    if (!active())
        clear();
}

bool TerminalPredictor::active() const {
    switch (m_mode) {
    case Mode::Off:
        return false;
    case Mode::Always:
        return true;
    case Mode::Adaptive:
        return m_roundTripMs > kAdaptiveThresholdMs;
    }
    return false;
}

bool TerminalPredictor::canPredict() const {
    if (!active() || m_echoOff || m_emulation->altScreen() ||
        m_emulation->shellPhase() == TerminalState::ShellPhase::Running)
        return false;
    const TerminalCursor cursor = m_emulation->cursor();
    // The predictions continue where they end; a fresh one starts at the cursor, at the end of
    // what the line holds.
    const int row = m_predicted.isEmpty() ? cursor.row : m_anchorRow;
    const int col = (m_predicted.isEmpty() ? cursor.col : m_anchorCol) + int(m_predicted.size());
    if (col >= m_emulation->columns() - 1)
        return false;
    for (int c = col; c < m_emulation->columns(); ++c) {
        const char32_t ch = m_emulation->cell(row, c).ch;
        if (ch != 0 && ch != U' ')
            return false;
    }
    return true;
}

void TerminalPredictor::keysSent(const QByteArray &bytes) {
    const QString text = QString::fromUtf8(bytes);
    if (text == u"\r" || text == u"\n") {
        m_echoOff = false; // a new line may echo again
        clear();
        return;
    }
    if ((text == u"\x7f" || text == u"\b") && !m_predicted.isEmpty()) {
        setPredicted(m_predicted.chopped(1));
        return;
    }
    if (!printableText(text) || !canPredict()) {
        clear();
        return;
    }
    if (m_predicted.isEmpty()) {
        const TerminalCursor cursor = m_emulation->cursor();
        m_anchorRow = cursor.row;
        m_anchorCol = cursor.col;
    }
    setPredicted(m_predicted + text);
    if (!m_echoTimeout.isActive())
        m_echoTimeout.start(qMax(400, 2 * qMax(0, m_roundTripMs) + 250));
}

void TerminalPredictor::onScreenChanged() {
    if (m_predicted.isEmpty())
        return;
    const TerminalCursor cursor = m_emulation->cursor();
    if (m_emulation->altScreen() || cursor.row != m_anchorRow || cursor.col < m_anchorCol) {
        clear(); // the program did something else with the screen
        return;
    }
    const int echoed = qMin(int(m_predicted.size()), cursor.col - m_anchorCol);
    for (int i = 0; i < echoed; ++i) {
        if (m_emulation->cell(m_anchorRow, m_anchorCol + i).ch !=
            char32_t(m_predicted.at(i).unicode())) {
            // The server echoed something else: its screen is the truth.
            ++m_mispredictions;
            clear();
            return;
        }
    }
    if (echoed == 0)
        return;
    m_anchorCol += echoed;
    setPredicted(m_predicted.mid(echoed));
    if (m_predicted.isEmpty())
        m_echoTimeout.stop();
    else
        m_echoTimeout.start(); // the echo comes: wait for the rest as long again
}

void TerminalPredictor::clear() {
    m_echoTimeout.stop();
    setPredicted({});
}

void TerminalPredictor::setPredicted(const QString &text) {
    if (text == m_predicted)
        return;
    m_predicted = text;
    Q_EMIT predictedChanged(text);
}

} // namespace sbx
