// Console cold start: from exec of sandbox-console to its main window shown, and to the local
// sandbox online. Timed from outside the process, so loading Qt's libraries counts. The peer,
// started in turns with it, is bench-bare-window: a bare QMainWindow, what Qt alone costs.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace Qt::StringLiterals;

namespace {
// Issue 14's goals, medians of the runs.
constexpr double kShownGoalMs = 50;
constexpr double kOnlineGoalMs = 250;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
// One cold start of program; false (with a reason on stderr) when it did not report both lines.
bool startOnce(const QString &program, double &shownMs, double &onlineMs) {
    QTemporaryDir home; // a cold start: no settings, no workspace yet
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    env.insert(u"SBX_NO_KEYCHAIN"_s, u"1"_s);
    env.insert(u"SBX_REPORT_STARTUP"_s, u"exit"_s);
    if (!env.contains(u"DISPLAY"_s))
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    QProcess process;
    process.setProcessEnvironment(env);
    QElapsedTimer clock;
    shownMs = onlineMs = -1;
    QByteArray pending;
    QObject::connect(&process, &QProcess::readyReadStandardError, &process, [&] {
        pending += process.readAllStandardError();
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QByteArray line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (line.startsWith("startup: window shown"))
                shownMs = clock.nsecsElapsed() / 1e6;
            else if (line.startsWith("startup: sandbox online"))
                onlineMs = clock.nsecsElapsed() / 1e6;
        }
    });
    clock.start();
    process.start(program, {});
    if (!process.waitForFinished(30000)) {
        std::fprintf(stderr, "%s did not reach online within 30 s\n", qPrintable(program));
        process.kill();
        return false;
    }
    QCoreApplication::processEvents();
    if (shownMs < 0 || onlineMs < 0) {
        std::fprintf(stderr, "%s: missing startup lines (exit %d)\n", qPrintable(program),
                     process.exitCode());
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench-console-startup PATH/TO/sandbox-console [runs]\n");
        return 2;
    }
    const int runs = args.size() > 2 ? args.at(2).toInt() : 7;
    // The peer, built beside this program: a bare QMainWindow, started in turns with the console.
    const QString peer = QCoreApplication::applicationDirPath() + u"/bench-bare-window"_s;
    std::vector<double> shown, online, peerShown;
    for (int i = 0; i < runs; ++i) {
        double shownMs = 0, onlineMs = 0, peerMs = 0, ignored = 0;
        if (!startOnce(args.at(1), shownMs, onlineMs) || !startOnce(peer, peerMs, ignored))
            return 1;
        shown.push_back(shownMs);
        online.push_back(onlineMs);
        peerShown.push_back(peerMs);
        std::printf("run %d: window shown %.0f ms, local sandbox online %.0f ms; a bare Qt window "
                    "%.0f ms\n",
                    i + 1, shownMs, onlineMs, peerMs);
    }
    const double shownMedian = median(shown);
    const double onlineMedian = median(online);
    const double peerMedian = median(peerShown);
    std::printf("console cold start (median of %d): window shown %.0f ms (goal < %.0f; a bare Qt "
                "window %.0f ms), local sandbox online %.0f ms (goal < %.0f)\n",
                runs, shownMedian, kShownGoalMs, peerMedian, onlineMedian, kOnlineGoalMs);
    std::printf("@summary\tconsole cold start, window shown ms\t%.0f\t%.0f (bare Qt window)\t"
                "%.2fx\t< %.0f ms\t%s\n",
                shownMedian, peerMedian, peerMedian > 0 ? shownMedian / peerMedian : 0.0,
                kShownGoalMs, shownMedian < kShownGoalMs ? "met" : "missed");
    std::printf(
        "@summary\tconsole cold start, local sandbox online ms\t%.0f\t-\t-\t< %.0f ms\t%s\n",
        onlineMedian, kOnlineGoalMs, onlineMedian < kOnlineGoalMs ? "met" : "missed");
    return 0;
}
