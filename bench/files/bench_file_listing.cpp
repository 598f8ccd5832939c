// Lists one folder through RemoteFileModel shown in a QTreeView (offscreen) and measures the time
// from setRootPath() until folderListed with every row in the model, and how long the GUI event
// loop stalled meanwhile: a 5 ms PreciseTimer ticks on the GUI thread, and the longest interval
// between two ticks minus 5 ms is the longest stall. bench/files/listing.sh builds the folder and
// runs it. Usage: bench-file-listing BASE_URL FOLDER EXPECTED_ROWS [plain|sorted]
// "sorted" puts a QSortFilterProxyModel like the Files tab's (folders first, locale-aware names)
// between the model and the view. "plain-refresh" and "sorted-refresh" list the folder first,
// then measure a refresh of it (every row already known: the model compares and keeps them).
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"
#include "models/files/remotefilesortproxy.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

constexpr int tickMs = 5;
constexpr double stallGoalMs = 50;
// The view lays its items out on a timer after the last insertion: keep ticking a little
// after folderListed so that work is counted too.
constexpr int tailMs = 300;

} // namespace

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    QString mode = args.value(4, u"plain"_s);
    const bool refresh = mode.endsWith(u"-refresh"_s);
    const QString shownMode = mode;
    if (refresh)
        mode.chop(8);
    bool countOk = false;
    const int expected = args.value(3).toInt(&countOk);
    if (args.size() < 4 || args.size() > 5 || !countOk ||
        (mode != u"plain"_s && mode != u"sorted"_s)) {
        std::fprintf(stderr, "usage: bench-file-listing BASE_URL FOLDER EXPECTED_ROWS "
                             "[plain|sorted|plain-refresh|sorted-refresh]\n");
        return 2;
    }
    const QString folder = args.at(2);

    SandboxClient client({QUrl(args.at(1)), {}}, {});
    RemoteFileModel model(&client);
    RemoteFileSortProxy proxy;
    QTreeView view;
    view.setUniformRowHeights(true);
    if (mode == u"sorted"_s) {
        proxy.setSourceModel(&model);
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.sortByColumn(RemoteFileModel::NameColumn, Qt::AscendingOrder);
    } else {
        view.setModel(&model);
    }
    view.header()->setSectionResizeMode(RemoteFileModel::NameColumn, QHeaderView::Stretch);
    view.resize(1000, 700);
    view.show();

    QElapsedTimer clock;
    std::vector<qint64> ticks; // ns since setRootPath
    ticks.reserve(4096);
    qint64 firstRowsNs = -1;
    qint64 lastRowsNs = -1;
    qint64 listedNs = -1;
    bool refreshStarted = false;
    int rc = 1;

    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(tickMs);
    QObject::connect(&ticker, &QTimer::timeout, &app,
                     [&] { ticks.push_back(clock.nsecsElapsed()); });
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, &app, [&] {
        lastRowsNs = clock.nsecsElapsed();
        if (firstRowsNs < 0)
            firstRowsNs = lastRowsNs;
    });
    QObject::connect(&model, &RemoteFileModel::folderListed, &app, [&](const QString &path) {
        if (path != folder)
            return;
        if (refresh && !refreshStarted) {
            // The first listing only fills the model: the clock measures the refresh.
            refreshStarted = true;
            QTimer::singleShot(tailMs, &app, [&] {
                ticks.clear();
                firstRowsNs = lastRowsNs = -1;
                clock.start();
                ticks.push_back(0);
                model.refresh();
            });
            return;
        }
        listedNs = clock.nsecsElapsed();
        if (model.rowCount() == expected) {
            rc = 0;
        } else {
            std::fprintf(stderr, "folderListed with %d rows, expected %d\n", model.rowCount(),
                         expected);
        }
        QTimer::singleShot(tailMs, &app, &QCoreApplication::quit);
    });
    QObject::connect(&model, &RemoteFileModel::listingFailed, &app,
                     [&](const QString &, const Status &status) {
                         std::fprintf(stderr, "listing failed: %s\n", qPrintable(status.message));
                         QCoreApplication::exit(1);
                     });

    // Let the view show itself before the clock starts.
    QTimer::singleShot(100, &app, [&] {
        clock.start();
        ticks.push_back(0);
        ticker.start();
        model.setRootPath(folder);
    });
    const int exitCode = QApplication::exec();
    ticker.stop();
    if (exitCode != 0 || rc != 0)
        return 1;

    auto stalls = [&](qint64 untilNs, double *longestMs, qint64 *atNs) {
        int over = 0;
        *longestMs = 0;
        *atNs = 0;
        for (std::size_t i = 1; i < ticks.size() && ticks[i - 1] < untilNs; ++i) {
            const double stall = (ticks[i] - ticks[i - 1]) / 1e6 - tickMs;
            if (stall > *longestMs) {
                *longestMs = stall;
                *atNs = ticks[i - 1];
            }
            if (stall > stallGoalMs)
                ++over;
        }
        return over;
    };
    double longest = 0;
    double longestAll = 0;
    qint64 at = 0;
    qint64 atAll = 0;
    const int over = stalls(listedNs, &longest, &at);
    const int overAll = stalls(ticks.back() + 1, &longestAll, &atAll);
    // The three longest stalls as STALL@START (ms), to place them against the rows' arrival.
    std::vector<std::pair<double, double>> gaps;
    for (std::size_t i = 1; i < ticks.size(); ++i)
        gaps.emplace_back((ticks[i] - ticks[i - 1]) / 1e6 - tickMs, ticks[i - 1] / 1e6);
    std::sort(gaps.begin(), gaps.end(), std::greater<>());
    QStringList top;
    for (std::size_t i = 0; i < gaps.size() && i < 3; ++i)
        top << u"%1@%2"_s.arg(gaps[i].first, 0, 'f', 1).arg(gaps[i].second, 0, 'f', 1);
    std::printf("mode=%s rows=%d seconds=%.3f first_rows_ms=%.1f last_rows_ms=%.1f "
                "longest_stall_ms=%.1f stall_at_ms=%.1f stalls_over_50ms=%d "
                "longest_stall_with_tail_ms=%.1f tail_stall_at_ms=%.1f "
                "stalls_over_50ms_with_tail=%d top_stalls=%s ticks=%zu goal=%s\n",
                qPrintable(shownMode), model.rowCount(), listedNs / 1e9, firstRowsNs / 1e6,
                lastRowsNs / 1e6, longest, at / 1e6, over, longestAll, atAll / 1e6, overAll,
                qPrintable(top.join(QLatin1Char(','))), ticks.size(),
                longestAll < stallGoalMs ? "met" : "missed");
    return 0;
}
