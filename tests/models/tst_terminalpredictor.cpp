// TerminalPredictor on a real emulation fed the bytes a shell would send: what it predicts,
// confirms, corrects and refuses to guess. (The same over a real sandbox and a slow link is in
// tests/app/tst_terminal.cpp.)
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalpredictor.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {
// sandbox-server's prompt marker, then a prompt.
const QByteArray kPrompt = "\x1b]6973;prompt;0\x07$ ";
} // namespace

class TestTerminalPredictor final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void predictsThenConfirms();
    void correctsWhenTheEchoDiffers();
    void modesAndRoundTrip();
    void notInFullScreenOrWhileACommandRuns();
    void stopsWhereNoEchoComesBack();
    void backspaceAndOtherKeys();
};

void TestTerminalPredictor::predictsThenConfirms() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    predictor.setMode(TerminalPredictor::Mode::Always);
    emulation.feed(kPrompt);
    predictor.keysSent("l");
    predictor.keysSent("s");
    QCOMPARE(predictor.predicted(), u"ls"_s);
    emulation.feed("l"); // the first echo
    QCOMPARE(predictor.predicted(), u"s"_s);
    emulation.feed("s");
    QCOMPARE(predictor.predicted(), QString());
    QCOMPARE(predictor.mispredictions(), 0);
}

void TestTerminalPredictor::correctsWhenTheEchoDiffers() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    predictor.setMode(TerminalPredictor::Mode::Always);
    emulation.feed(kPrompt);
    predictor.keysSent("a");
    predictor.keysSent("b");
    emulation.feed("A"); // a terminal in olcuc mode echoes upper case
    QCOMPARE(predictor.predicted(), QString());
    QCOMPARE(predictor.mispredictions(), 1);
    QCOMPARE(emulation.lineText(0).trimmed(), u"$ A"_s);
}

void TestTerminalPredictor::modesAndRoundTrip() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    emulation.feed(kPrompt);
    QCOMPARE(predictor.mode(), TerminalPredictor::Mode::Adaptive);
    predictor.setRoundTripMs(5); // a near sandbox: the echo is quicker than the eye
    predictor.keysSent("x");
    QCOMPARE(predictor.predicted(), QString());
    predictor.setRoundTripMs(80);
    QVERIFY(predictor.active());
    predictor.keysSent("x");
    QCOMPARE(predictor.predicted(), u"x"_s);
    predictor.setMode(TerminalPredictor::Mode::Off);
    QCOMPARE(predictor.predicted(), QString());
    predictor.keysSent("y");
    QCOMPARE(predictor.predicted(), QString());
}

void TestTerminalPredictor::notInFullScreenOrWhileACommandRuns() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    predictor.setMode(TerminalPredictor::Mode::Always);
    emulation.feed(kPrompt + "read -s\r\n\x1b]6973;start\x07");
    predictor.keysSent("p");
    QCOMPARE(predictor.predicted(), QString()); // a command reads the keys, maybe unechoed
    emulation.feed("\r\n" + kPrompt + "vim\r\n\x1b]6973;start\x07\x1b[?1049h");
    predictor.keysSent("i");
    QCOMPARE(predictor.predicted(), QString()); // vim owns the screen
    emulation.feed("\x1b[?1049l\r\n" + kPrompt);
    predictor.keysSent("i");
    QCOMPARE(predictor.predicted(), u"i"_s);
    // Text right of the cursor (editing in the middle of a line) is not guessed at.
    emulation.feed("\x1b[2K\r$ echo hi\x1b[3D");
    predictor.keysSent("\r");
    predictor.keysSent("z");
    QCOMPARE(predictor.predicted(), QString());
}

// Without prompt markers (the real AIO) a password prompt is noticed by the missing echo.
void TestTerminalPredictor::stopsWhereNoEchoComesBack() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    predictor.setMode(TerminalPredictor::Mode::Always);
    predictor.setRoundTripMs(50);
    emulation.feed("Password: ");
    QSignalSpy changed(&predictor, &TerminalPredictor::predictedChanged);
    predictor.keysSent("s");
    QCOMPARE(predictor.predicted(), u"s"_s);
    QTRY_COMPARE_WITH_TIMEOUT(predictor.predicted(), QString(), 2000);
    predictor.keysSent("e");
    QCOMPARE(predictor.predicted(), QString());
    // Enter ends the line; the next one may echo again.
    predictor.keysSent("\r");
    emulation.feed("\r\n$ ");
    predictor.keysSent("o");
    QCOMPARE(predictor.predicted(), u"o"_s);
}

void TestTerminalPredictor::backspaceAndOtherKeys() {
    TerminalEmulation emulation(40, 5);
    TerminalPredictor predictor(&emulation);
    predictor.setMode(TerminalPredictor::Mode::Always);
    emulation.feed(kPrompt);
    predictor.keysSent("ab");
    predictor.keysSent("\x7f");
    QCOMPARE(predictor.predicted(), u"a"_s);
    predictor.keysSent("\x1b[D"); // cursor left: the server's answer decides
    QCOMPARE(predictor.predicted(), QString());
}

QTEST_GUILESS_MAIN(TestTerminalPredictor)
#include "tst_terminalpredictor.moc"
