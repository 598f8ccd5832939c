#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

namespace sbx {

class TerminalEmulation;

// Predictive local echo for a far sandbox, as mosh does: printable keys typed at a shell prompt
// are shown at once (the view underlines them) and confirmed, or dropped, when the server's echo
// arrives. Never in the alternate screen (a full-screen program), never while a command runs
// (the prompt markers say so), never with text right of the cursor, and never again on a line
// where an echo failed to come back (a password prompt) until Enter.
class TerminalPredictor final : public QObject {
    Q_OBJECT
public:
    enum class Mode { Off, Adaptive, Always };
    // Adaptive predicts above this round trip.
    static constexpr int kAdaptiveThresholdMs = 30;

    explicit TerminalPredictor(TerminalEmulation *emulation, QObject *parent = nullptr);

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // The link's measured round trip; -1 unknown.
    void setRoundTripMs(int ms) { m_roundTripMs = ms; }
    int roundTripMs() const { return m_roundTripMs; }
    // Whether keys are predicted now (the mode and the round trip).
    bool active() const;

    // Keys on their way to the server: predicted when they can be, else the predictions end.
    void keysSent(const QByteArray &bytes);
    // What is predicted and not yet confirmed, drawn at the cursor.
    QString predicted() const { return m_predicted; }
    // Predictions that the server's echo contradicted, since the start.
    int mispredictions() const { return m_mispredictions; }

Q_SIGNALS:
    void predictedChanged(const QString &text);

private:
    void onScreenChanged();
    void clear();
    void setPredicted(const QString &text);
    bool canPredict() const;

    TerminalEmulation *m_emulation;
    Mode m_mode = Mode::Adaptive;
    int m_roundTripMs = -1;
    QString m_predicted;
    int m_anchorRow = -1; // where the first unconfirmed character goes
    int m_anchorCol = -1;
    bool m_echoOff = false; // an echo did not come back on this line
    int m_mispredictions = 0;
    QTimer m_echoTimeout;
};

} // namespace sbx
