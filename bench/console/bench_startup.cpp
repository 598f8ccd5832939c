// Console cold start: from exec of sandbox-console to its main window shown, and to the local
// sandbox online. Timed from outside the process, so loading Qt's libraries counts.
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
} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench-console-startup PATH/TO/sandbox-console [runs]\n");
        return 2;
    }
    const int runs = args.size() > 2 ? args.at(2).toInt() : 7;
    std::vector<double> shown, online;
    for (int i = 0; i < runs; ++i) {
        QTemporaryDir home; // a cold start: no settings, no workspace yet
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
        env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
        env.insert(u"SBX_NO_KEYCHAIN"_s, u"1"_s);
        env.insert(u"SBX_REPORT_STARTUP"_s, u"exit"_s);
        if (!env.contains(u"DISPLAY"_s))
            env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        QProcess console;
        console.setProcessEnvironment(env);
        QElapsedTimer clock;
        double shownMs = -1, onlineMs = -1;
        QByteArray pending;
        QObject::connect(&console, &QProcess::readyReadStandardError, &console, [&] {
            pending += console.readAllStandardError();
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
        console.start(args.at(1), {});
        if (!console.waitForFinished(30000)) {
            std::fprintf(stderr, "run %d: the console did not reach online within 30 s\n", i + 1);
            console.kill();
            return 1;
        }
        QCoreApplication::processEvents();
        if (shownMs < 0 || onlineMs < 0) {
            std::fprintf(stderr, "run %d: missing startup lines (exit %d)\n", i + 1,
                         console.exitCode());
            return 1;
        }
        shown.push_back(shownMs);
        online.push_back(onlineMs);
        std::printf("run %d: window shown %.0f ms, local sandbox online %.0f ms\n", i + 1, shownMs,
                    onlineMs);
    }
    const double shownMedian = median(shown);
    const double onlineMedian = median(online);
    std::printf("console cold start (median of %d): window shown %.0f ms (goal < %.0f), "
                "local sandbox online %.0f ms (goal < %.0f)\n",
                runs, shownMedian, kShownGoalMs, onlineMedian, kOnlineGoalMs);
    std::printf("@summary\tconsole cold start, window shown ms\t%.0f\t-\t-\t< %.0f ms\t%s\n",
                shownMedian, kShownGoalMs, shownMedian < kShownGoalMs ? "met" : "missed");
    std::printf(
        "@summary\tconsole cold start, local sandbox online ms\t%.0f\t-\t-\t< %.0f ms\t%s\n",
        onlineMedian, kOnlineGoalMs, onlineMedian < kOnlineGoalMs ? "met" : "missed");
    return 0;
}
