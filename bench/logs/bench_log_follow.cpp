// Follow: bench-log-follow GENERATOR [LINES] runs `GENERATOR --append - LINES` (the lines written
// as fast as a local process can) into an offscreen LogView that follows the end, as a log
// source's bytes reach it, and prints the lines per second the view took in and the longest
// stall of its event loop meanwhile (goal under 50 ms): a 5 ms PreciseTimer ticks on the GUI
// thread, and the longest gap between two ticks minus 5 ms is the longest stall.
#include "models/logs/logdata.h"
#include "widgets/logs/loglinesview.h"
#include "widgets/logs/logview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QScrollBar>
#include <QTimer>

#include <cstdio>
#include <vector>

using namespace sbx;

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench-log-follow GENERATOR [LINES]\n");
        return 2;
    }
    const QString lines = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("1000000");
    constexpr int kTickMs = 5;
    LogView view;
    view.resize(1200, 800);
    view.show();
    QCoreApplication::processEvents();

    std::vector<qint64> ticks;
    ticks.reserve(1 << 20);
    QElapsedTimer clock;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(kTickMs);
    QObject::connect(&ticker, &QTimer::timeout, &app,
                     [&] { ticks.push_back(clock.nsecsElapsed()); });

    QProcess writer;
    writer.setProcessChannelMode(QProcess::SeparateChannels);
    QObject::connect(&writer, &QProcess::readyReadStandardOutput, &app,
                     [&] { view.data()->append(writer.readAllStandardOutput()); });
    qint64 doneNs = 0;
    QObject::connect(&writer, &QProcess::finished, &app, [&] {
        view.data()->append(writer.readAllStandardOutput());
        doneNs = clock.nsecsElapsed();
        // Let the view paint what it has, then stop.
        QTimer::singleShot(100, &app, &QCoreApplication::quit);
    });
    clock.start();
    ticker.start();
    writer.start(QString::fromLocal8Bit(argv[1]),
                 {QStringLiteral("--append"), QStringLiteral("-"), lines});
    app.exec();

    double longest = 0;
    for (size_t i = 1; i < ticks.size(); ++i)
        longest = std::max(longest, (ticks[i] - ticks[i - 1]) / 1e6 - kTickMs);
    const qint64 shown = view.data()->lineCount();
    const bool atEnd =
        view.lines()->isFollowing() &&
        view.lines()->verticalScrollBar()->value() == view.lines()->verticalScrollBar()->maximum();
    std::printf("follow_lines %lld\n", shown);
    std::printf("follow_lines_per_s %.0f\n", shown / (doneNs / 1e9));
    std::printf("follow_longest_stall_ms %.1f\n", longest);
    std::printf("follow_at_end %s\n", atEnd ? "yes" : "no");
    std::printf("follow_goal %s\n", longest < 50 ? "met" : "missed");
    return 0;
}
