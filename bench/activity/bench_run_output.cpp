// Run output: bench-run-output BASE_URL [MB] runs `head -c MB M /dev/zero | tr '\0' x | fold -w
// 100` through BashRun (as the Runs tab does) into an offscreen LogView that follows the end,
// and prints the MB/s the view took in and the longest stall of the GUI event loop meanwhile
// (goal under 50 ms): a 5 ms PreciseTimer ticks, and the longest gap minus 5 ms is the stall.
// Then the same finished output is read again by a BashRun following it from byte 0 (the
// transfer alone, no producer in the way), and its session and command ids are printed for the
// curl peer in run.sh, which reads the same output through /v1/bash/output.
#include "client/api/bashrun.h"
#include "client/sandboxclient.h"
#include "models/logs/logdata.h"
#include "widgets/logs/logview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTickMs = 5;

struct Result {
    double seconds = 0;
    qint64 bytes = 0;
    qint64 lines = 0;
    double stallMs = 0;
    double stallAtS = 0; // when the longest stall began, since the run started
    BashCommandState state;
};

Result follow(QApplication &app, BashRun *run) {
    LogView view;
    view.resize(1200, 800);
    view.show();
    view.attach(run);
    std::vector<qint64> ticks;
    ticks.reserve(1 << 20);
    QElapsedTimer clock;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTickMs);
    QObject::connect(&ticker, &QTimer::timeout, &app,
                     [&] { ticks.push_back(clock.nsecsElapsed()); });
    Result result;
    QObject::connect(run, &BashRun::ended, &app, [&] {
        result.seconds = clock.nsecsElapsed() / 1e9;
        QTimer::singleShot(100, &app, &QCoreApplication::quit);
    });
    clock.start();
    ticker.start();
    run->start();
    app.exec();
    for (std::size_t i = 1; i < ticks.size(); ++i) {
        const double stall = (ticks[i] - ticks[i - 1]) / 1e6 - kTickMs;
        if (stall > result.stallMs) {
            result.stallMs = stall;
            result.stallAtS = ticks[i - 1] / 1e9;
        }
    }
    result.bytes = run->stdoutBytes();
    result.lines = view.data()->lineCount();
    result.state = run->state();
    return result;
}

} // namespace

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench-run-output BASE_URL [MB]\n");
        return 2;
    }
    const int mb = args.value(2, u"1024"_s).toInt();
    SandboxClient client({QUrl(args.at(1)), {}}, {});
    // As the console's registry sets it for a sandbox that answers within 20 ms (loopback).
    client.setCompression(false);

    BashExecRequest request;
    request.command = u"head -c %1M /dev/zero | tr '\\0' x | fold -w 100"_s.arg(mb);
    auto *live = new BashRun(&client, request, &app);
    const Result first = follow(app, live);
    if (first.state.status != "completed"_L1) {
        std::fprintf(stderr, "the run ended as %s: %s\n", qPrintable(live->stateText()),
                     qPrintable(live->error()));
        return 1;
    }
    std::printf("live run: %.1f MB in %.2f s = %.1f MB/s, %lld lines, longest stall %.1f ms "
                "(at %.2f s)\n",
                first.bytes / 1e6, first.seconds, first.bytes / 1e6 / first.seconds,
                static_cast<long long>(first.lines), first.stallMs, first.stallAtS);

    auto *again = new BashRun(&client, live->state(), &app);
    const Result second = follow(app, again);
    std::printf("re-read: %.1f MB in %.2f s = %.1f MB/s, longest stall %.1f ms\n",
                second.bytes / 1e6, second.seconds, second.bytes / 1e6 / second.seconds,
                second.stallMs);
    // The jobs alone, no log behind them: what the transfer and parsing cost by themselves.
    {
        QElapsedTimer jobsClock;
        jobsClock.start();
        qint64 offset = 0;
        qint64 total = 0;
        bool more = true;
        qint64 networkMs = 0;
        int jobs = 0;
        while (more) {
            auto *job = new BashOutputJob(&client, live->state().sessionId, live->state().commandId,
                                          offset, 0, 0);
            QObject::connect(job, &BashOutputJob::succeeded, &app, [&](const BashOutputChunk &c) {
                total += c.stdoutBytes.size();
                more = !c.stdoutBytes.isEmpty();
                offset = c.offset;
            });
            QObject::connect(job, &BashOutputJob::failed, &app, [&] { more = false; });
            QObject::connect(job, &Job::finished, &app, [&, job] {
                networkMs += job->elapsedMs();
                ++jobs;
                QCoreApplication::quit();
            });
            job->start();
            app.exec();
        }
        std::printf("jobs alone: %.1f MB/s; %d answers, %.1f ms each of which %.1f ms send to last "
                    "byte\n",
                    total / 1e6 / (jobsClock.nsecsElapsed() / 1e9), jobs,
                    jobsClock.nsecsElapsed() / 1e6 / jobs, double(networkMs) / jobs);
    }
    std::printf("ours_mbps=%.1f stall_ms=%.1f live_mbps=%.1f live_stall_ms=%.1f bytes=%lld\n",
                second.bytes / 1e6 / second.seconds, second.stallMs,
                first.bytes / 1e6 / first.seconds, first.stallMs,
                static_cast<long long>(second.bytes));
    std::printf("session_id=%s command_id=%s\n", qPrintable(live->state().sessionId),
                qPrintable(live->state().commandId));
    std::fflush(stdout);
    return first.lines > 0 ? 0 : 1;
}
