// Cell round trip through the console's own path: a notebook cell `1+1` run through
// NotebookRunner and NotebookModel (JupyterExecuteJob over QNetworkAccessManager, the answer
// parsed, the cell's outputs and count set), each timed from run() to the cell's end. No widget.
//   bench-code-roundtrip BASE_URL [RUNS]   20 unmeasured runs (the first starts the kernel), then
//                                          RUNS, and the median and p99 printed as
//                                          bench/agent/jupyter.sh prints its figures.
//   bench-code-roundtrip BASE_URL --serve  one run per line read on stdin, its milliseconds
//                                          printed on a line: jupyter.sh takes it in turns
//                                          with its other contenders.
#include "client/sandboxclient.h"
#include "models/code/notebookmodel.h"
#include "models/code/notebookrunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench-code-roundtrip BASE_URL [RUNS]\n");
        return 2;
    }
    const QUrl url(QString::fromLocal8Bit(argv[1]));
    const bool serve = argc > 2 && std::string(argv[2]) == "--serve";
    const int runs = argc > 2 && !serve ? std::max(1, std::atoi(argv[2])) : 200;
    constexpr int kWarmup = 20;

    SandboxClient client(Endpoint{url, {}}, Credentials{});
    NotebookModel model;
    model.setSource(0, u"1+1"_s);
    NotebookRunner runner(&client, &model);
    // One run: its milliseconds, or -1 (said on stderr) when the cell did not answer 2.
    const auto once = [&] {
        QEventLoop loop;
        QObject::connect(&runner, &NotebookRunner::cellFinished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        QElapsedTimer clock;
        clock.start();
        runner.run(0);
        loop.exec();
        const double ms = clock.nsecsElapsed() / 1e6;
        const NotebookCell *cell = model.cell(0);
        if (cell->state != CellState::Done || cell->outputs.size() != 1 ||
            cell->outputs.first().data.value("text/plain", std::string()) != "2") {
            std::fprintf(stderr, "unexpected answer: %s\n",
                         qPrintable(cell->note.isEmpty() ? u"wrong output"_s : cell->note));
            return -1.0;
        }
        return ms;
    };
    if (serve) {
        for (std::string line; std::getline(std::cin, line);) {
            const double ms = once();
            std::printf("%.6f\n", ms);
            std::fflush(stdout);
            if (ms < 0)
                return 1;
        }
        return 0;
    }
    std::vector<double> samples;
    samples.reserve(runs);
    for (int i = 0; i < kWarmup + runs; ++i) {
        const double ms = once();
        if (ms < 0)
            return 1;
        if (i >= kWarmup)
            samples.push_back(ms);
    }
    std::sort(samples.begin(), samples.end());
    const double median = samples.size() % 2
                              ? samples[samples.size() / 2]
                              : (samples[samples.size() / 2 - 1] + samples[samples.size() / 2]) / 2;
    // The same rank as the peer's script: round(0.99 * (n - 1)).
    const double p99 = samples[std::min<std::size_t>(
        samples.size() - 1, static_cast<std::size_t>(std::lround(0.99 * (samples.size() - 1))))];
    std::printf("%-50s median %7.2f ms   p99 %7.2f ms   (%zu runs)\n",
                "console, NotebookRunner + JupyterExecuteJob:", median, p99, samples.size());
    return 0;
}
