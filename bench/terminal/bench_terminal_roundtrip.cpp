// Round trip of a typed character: from the key event delivered to a TerminalPane's view to
// the end of the viewport paint that shows its echo, over loopback to a sandbox-server shell.
// bench-terminal-roundtrip [SERVER_BINARY]
#include "bench/terminal/benchserver.h"
#include "client/sandboxclient.h"
#include "models/terminal/terminalemulation.h"
#include "models/terminal/terminalpredictor.h"
#include "tests/support/faultproxy.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/terminal/terminalview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QProcess>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sbx;
using namespace sbxbench;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

constexpr int Keys = 1000;
constexpr int ClearEvery = 100;
constexpr int Cols = 120;
constexpr int Rows = 40;
// Keys go out one frame apart at the least (50 keys/s, faster than anyone types): each echo is
// then the first update after a quiet moment, which the view paints at once.
constexpr int KeyGapMs = 20;

// Watches the viewport's paints; after one was handled, asks `done` whether the screen now
// shows what is awaited and, if so, notes the time and ends the wait.
class PaintWatcher final : public QObject {
public:
    explicit PaintWatcher(QWidget *viewport)
        : m_viewport(viewport) {
        viewport->installEventFilter(this);
    }

    // Runs the event loop until done() holds after a paint; returns the nanoseconds from
    // `start` to the end of that paint, or -1 after timeoutMs.
    qint64 waitForPaint(const QElapsedTimer &start, std::function<bool()> done, int timeoutMs) {
        m_done = std::move(done);
        m_start = &start;
        m_result = -1;
        QEventLoop loop;
        m_loop = &loop;
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        if (!m_done || !m_done()) // nothing to wait for when it already shows
            loop.exec();
        else
            m_result = 0;
        m_loop = nullptr;
        m_done = nullptr;
        return m_result;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (watched != m_viewport || event->type() != QEvent::Paint || m_inPaint)
            return false;
        // Filters installed later run first: hand the event on to the scroll area's own
        // filter (which paints) from here, so the check below runs after the paint.
        m_inPaint = true;
        QCoreApplication::sendEvent(m_viewport, event);
        m_inPaint = false;
        ++m_paints;
        if (m_loop && m_done && m_done()) {
            m_result = m_start->nsecsElapsed();
            m_done = nullptr;
            m_loop->quit();
        }
        return true;
    }

private:
    QWidget *m_viewport;
    std::function<bool()> m_done;
    const QElapsedTimer *m_start = nullptr;
    QEventLoop *m_loop = nullptr;
    qint64 m_result = -1;
    bool m_inPaint = false;
    int m_paints = 0;

public:
    int paints() const { return m_paints; }
};

bool atPrompt(const TerminalEmulation *emulation) {
    const QString text = emulation->screenText().trimmed();
    return text.endsWith(QLatin1Char('$')) || text.endsWith(QLatin1Char('#'));
}

void sendKey(TerminalView *view, int key, Qt::KeyboardModifiers mods, const QString &text) {
    QKeyEvent press(QEvent::KeyPress, key, mods, text);
    QCoreApplication::sendEvent(view, &press);
    QKeyEvent release(QEvent::KeyRelease, key, mods, text);
    QCoreApplication::sendEvent(view, &release);
}

double percentile(std::vector<double> sorted, double p) {
    std::sort(sorted.begin(), sorted.end());
    const size_t at = std::min(sorted.size() - 1, size_t(p * double(sorted.size() - 1) + 0.5));
    return sorted[at];
}

// Types keys one at a time and times each from its key event to the end of the paint that
// shows it: its echo, or with prediction a predicted character at the cursor. arrivedMs gets
// the times at which the echo reached the emulation.
std::vector<double> typeKeys(TerminalPane &pane, int keys, int gapMs, bool prediction,
                             std::vector<double> *arrivedMsOut, int *timeoutsOut) {
    TerminalView *view = pane.view();
    TerminalEmulation *emulation = view->emulation();
    const TerminalCursor home = emulation->cursor();
    PaintWatcher watcher(view->viewport());
    // Where the time goes: when the echo reached the emulation (the server, the shell and
    // the transport before it; the view's frame and paint after it).
    const QElapsedTimer *keyStart = nullptr;
    std::function<bool()> echoed;
    qint64 arrivedNs = -1;
    QObject::connect(emulation, &TerminalEmulation::screenChanged, &pane, [&] {
        if (arrivedNs < 0 && keyStart && echoed && echoed())
            arrivedNs = keyStart->nsecsElapsed();
    });
    std::vector<double> ms;
    std::vector<double> arrivedMs;
    ms.reserve(keys);
    int timeouts = 0;
    for (int i = 0; i < keys; ++i) {
        // Cleared before the line would wrap too: the prompt holds the workspace's path.
        const bool lineFull = emulation->cursor().col >= view->columns() - 1;
        if (i > 0 && (i % ClearEvery == 0 || lineFull)) {
            QElapsedTimer start;
            start.start();
            sendKey(view, Qt::Key_U, Qt::ControlModifier, QString(QChar(0x15)));
            watcher.waitForPaint(
                start,
                [&] {
                    const TerminalCursor c = emulation->cursor();
                    return c.row == home.row && c.col == home.col;
                },
                5000);
            idle(gapMs);
        }
        const TerminalCursor before = emulation->cursor();
        const char32_t ch = U'a' + char32_t(i % 26);
        QElapsedTimer start;
        const auto echoedNow = [&] {
            const TerminalCursor c = emulation->cursor();
            return c.row == before.row && c.col == before.col + 1 &&
                   emulation->cell(before.row, before.col).ch == ch;
        };
        // A painted frame after the key, showing it: the echo, or the prediction.
        const int paintsBefore = watcher.paints();
        const auto shows = [&] {
            return watcher.paints() > paintsBefore &&
                   (echoedNow() ||
                    (prediction && view->cursorOverlay().text.endsWith(QString::fromUcs4(&ch, 1))));
        };
        keyStart = &start;
        echoed = echoedNow;
        arrivedNs = -1;
        start.start();
        sendKey(view, Qt::Key_A + i % 26, Qt::NoModifier, QString(QChar(ch)));
        const qint64 ns = watcher.waitForPaint(start, shows, 5000);
        keyStart = nullptr;
        echoed = nullptr;
        if (ns >= 0 && arrivedNs >= 0)
            arrivedMs.push_back(double(arrivedNs) / 1e6);
        if (ns < 0) {
            ++timeouts;
            std::fprintf(stderr, "key %d: no echo at %d,%d; cursor %d,%d line '%s'\n", i,
                         before.row, before.col, emulation->cursor().row, emulation->cursor().col,
                         qPrintable(emulation->lineText(before.row)));
        } else
            ms.push_back(double(ns) / 1e6);
        // With prediction the echo still comes: the next key waits for it.
        waitFor(echoedNow, 5000);
        idle(gapMs);
    }
    *arrivedMsOut = arrivedMs;
    *timeoutsOut = timeouts;
    return ms;
}

// A sandbox 50 ms away (25 ms each way through the test proxy): keys with local echo off and
// on, then how long a silent link takes to show as lost.
int farSandbox(const QUrl &url) {
    constexpr int FarKeys = 100;
    constexpr int OneWayMs = 25;
    FaultProxy proxy(quint16(url.port()));
    if (!proxy.listen())
        return 1;
    proxy.setLatency(OneWayMs);
    SandboxClient client({proxy.url(), {}}, {});
    TerminalPane pane(&client);
    pane.resize(1000, 600);
    pane.show();
    TerminalEmulation *emulation = pane.view()->emulation();
    if (!waitFor([&] { return pane.channel()->state() == TerminalChannel::State::Live; }, 10000) ||
        !waitFor([&] { return atPrompt(emulation); }, 10000)) {
        std::fprintf(stderr, "the far terminal did not come up\n");
        return 1;
    }
    idle(500);
    pane.view()->setFocus();
    TerminalPredictor *predictor = pane.session()->predictor();
    std::printf("\nat %d ms round trip (proxy, %d ms each way), %d keys each:\n", 2 * OneWayMs,
                OneWayMs, FarKeys);
    double medians[2] = {-1, -1};
    for (const bool on : {false, true}) {
        predictor->setMode(on ? TerminalPredictor::Mode::Always : TerminalPredictor::Mode::Off);
        std::vector<double> arrived;
        int timeouts = 0;
        const std::vector<double> ms = typeKeys(pane, FarKeys, 20, on, &arrived, &timeouts);
        if (ms.empty())
            return 1;
        medians[on] = percentile(ms, 0.5);
        std::printf("  local echo %-3s key to paint: median %.2f ms  p99 %.2f ms (%d timed out)\n",
                    on ? "on" : "off", medians[on], percentile(ms, 0.99), timeouts);
    }
    std::printf(
        "@summary\tkey to paint at 50 ms RTT, local echo off, median ms\t%.2f\t-\t-\t-\t-\n",
        medians[0]);
    std::printf("@summary\tkey to paint at 50 ms RTT, local echo on, median ms\t%.2f\t%.2f (off)"
                "\t%.2fx\t< 5 ms\t%s\n",
                medians[1], medians[0], medians[0] / std::max(0.01, medians[1]),
                medians[1] < 5 ? "met" : "missed");

    // Link loss: nothing delivered, nothing refused, from a moment of quiet.
    idle(1000);
    QElapsedTimer lost;
    proxy.setBlackhole(true);
    lost.start();
    const bool noticed =
        waitFor([&] { return pane.bannerText().contains(u"reconnecting"_s); }, 30000);
    const double seconds = double(lost.elapsed()) / 1000;
    proxy.setBlackhole(false);
    std::printf("link loss to the \"reconnecting\" banner: %.2f s (pings every 5 s, dead after "
                "10 s of silence; before: up to 45 s)\n",
                noticed ? seconds : -1.0);
    std::printf(
        "@summary\tlink loss to reconnecting banner s\t%.2f\t45 (before)\t-\t<= 10.5 s\t%s\n",
        seconds, noticed && seconds <= 10.5 ? "met" : "missed");
    pane.terminateSession();
    idle(100);
    return noticed ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const QString binary = args.size() > 1 ? args.at(1) : QStringLiteral(SBX_SERVER_BINARY);
    QTemporaryDir workspace;
    QProcess server;
    const QUrl url = startServer(server, binary, workspace.path());
    if (!url.isValid()) {
        std::fprintf(stderr, "sandbox-server (%s) did not start: %s\n", qPrintable(binary),
                     server.readAllStandardError().constData());
        return 1;
    }

    int status = 0;
    {
        SandboxClient client({url, {}}, {});
        TerminalPane pane(&client);
        TerminalView *view = pane.view();
        const QSizeF cell = view->cellSize();
        pane.resize(int(Cols * cell.width()) + view->verticalScrollBar()->sizeHint().width() + 1,
                    int(Rows * cell.height()));
        pane.show();
        if (!waitFor([&] { return pane.channel()->state() == TerminalChannel::State::Live; },
                     10000)) {
            std::fprintf(stderr, "the terminal did not connect\n");
            return 1;
        }
        // The connecting banner goes once live: size the pane again for the view alone.
        idle(100);
        pane.resize(pane.width() + int((Cols - view->columns()) * cell.width()),
                    pane.height() + (Rows - view->rows()) * int(cell.height()));
        idle(200);
        TerminalEmulation *emulation = view->emulation();
        if (!waitFor([&] { return atPrompt(emulation); }, 10000)) {
            std::fprintf(stderr, "no shell prompt:\n%s\n", qPrintable(emulation->screenText()));
            return 1;
        }
        idle(300); // the resize reaches the PTY; a prompt redraw would look like an echo
        view->setFocus();

        std::vector<double> arrivedMs;
        int timeouts = 0;
        const std::vector<double> ms = typeKeys(pane, Keys, KeyGapMs, false, &arrivedMs, &timeouts);
        if (ms.empty()) {
            std::fprintf(stderr, "no echo was seen\n");
            status = 1;
        } else {
            std::printf("round trip, key event to the end of the paint showing its echo, %dx%d, "
                        "loopback sandbox-server, %zu keys (%d timed out), %d ms apart\n",
                        view->columns(), view->rows(), ms.size(), timeouts, KeyGapMs);
            const double median = percentile(ms, 0.5);
            std::printf("median %.2f ms  p99 %.2f ms  min %.2f ms  max %.2f ms  goal median < 1 "
                        "ms: %s\n",
                        median, percentile(ms, 0.99), percentile(ms, 0.0), percentile(ms, 1.0),
                        median < 1 ? "met" : "MISSED");
            if (!arrivedMs.empty())
                std::printf("of which to the echo reaching the emulation: median %.2f ms  p99 "
                            "%.2f ms (server, shell, WebSocket); the rest is the view's\n",
                            percentile(arrivedMs, 0.5), percentile(arrivedMs, 0.99));
            std::printf(
                "peer: none (xterm.js headless has no renderer and no transport to time)\n");
            std::printf("@summary\tterminal key echo median ms\t%.2f\t-\t-\t< 1 ms\t%s\n", median,
                        median < 1 ? "met" : "missed");
        }
        pane.terminateSession();
        idle(100);
    }
    if (status == 0)
        status = farSandbox(url);
    server.terminate();
    server.waitForFinished(10000);
    return status;
}
