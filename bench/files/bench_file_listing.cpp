// Lists one folder through RemoteFileModel shown in a QTreeView (offscreen) and measures the time
// from setRootPath() until folderListed with every row in the model, and how long the GUI event
// loop stalled meanwhile: a 5 ms PreciseTimer ticks on the GUI thread, and the longest interval
// between two ticks minus 5 ms is the longest stall. bench/files/listing.sh builds the folder and
// runs it. Usage: bench-file-listing BASE_URL FOLDER EXPECTED_ROWS [plain|sorted]
// "sorted" sorts the view by name as the Files tab does (folders first, locale-aware names; the
// model keeps its rows in order itself), and at the end times a click on the Size header.
// "plain-refresh" and "sorted-refresh" list the folder first, then measure a refresh of it (every
// row already known: the model compares and keeps them). "phases" times the parts one after the
// other, without a model: the console's ListFilesJob (transfer and parse), the bare transfer
// through QNetworkAccessManager, the parse of that body, and the names' collation ranks the model
// computes (QCollator sort keys and a sort).
#include "client/api/filelistingparser.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"

#include <QApplication>
#include <QCollator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHeaderView>
#include <QNetworkAccessManager>
#include <QNetworkReply>
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

// The "phases" mode; prints one line of key=value pairs.
// As the console asks a sandbox this close (its probe under 20 ms): uncompressed. SBX_BENCH_FAR=1
// (far-listing.sh, through a delay line) asks for gzip, as the console does for a far one.
void askAsTheConsoleWould(SandboxClient &client) {
    client.setCompression(qEnvironmentVariableIntValue("SBX_BENCH_FAR") != 0);
}

int phases(const QString &base, const QString &folder) {
    SandboxClient client({QUrl(base), {}}, {});
    askAsTheConsoleWould(client);
    QElapsedTimer clock;
    QEventLoop loop;
    qsizetype rows = -1;
    clock.start();
    startListing(
        &client, folder, {}, &loop,
        [&](const QList<RemoteFileInfo> &files) {
            rows = files.size();
            loop.quit();
        },
        [&](const Status &status) {
            std::fprintf(stderr, "listing failed: %s\n", qPrintable(status.message));
            loop.quit();
        });
    loop.exec();
    const double jobS = clock.nsecsElapsed() / 1e9;
    if (rows < 0)
        return 1;

    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(base + u"/v1/file/list"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const QByteArray body = R"({"include_permissions":true,"include_size":true,"path":")" +
                            folder.toUtf8() + R"(","recursive":false,"show_hidden":true})";
    clock.restart();
    QNetworkReply *reply = nam.post(request, body);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray answer = reply->readAll();
    const double transferS = clock.nsecsElapsed() / 1e9;
    reply->deleteLater();

    clock.restart();
    QList<RemoteFileInfo> files;
    const bool fast = parseFileListingFast(answer, files);
    const double parseS = clock.nsecsElapsed() / 1e9;

    clock.restart();
    const QCollator collator;
    std::vector<QCollatorSortKey> keys;
    keys.reserve(static_cast<std::size_t>(files.size()));
    for (const RemoteFileInfo &f : std::as_const(files))
        keys.push_back(collator.sortKey(f.name));
    const double keysS = clock.nsecsElapsed() / 1e9;
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return keys[a].compare(keys[b]) < 0; });
    const double collateS = clock.nsecsElapsed() / 1e9;
    std::printf("mode=phases rows=%lld job_s=%.3f transfer_s=%.3f bytes=%lld parse_s=%.3f "
                "fast=%d keys_s=%.3f collate_s=%.3f\n",
                static_cast<long long>(rows), jobS, transferS,
                static_cast<long long>(answer.size()), parseS, fast ? 1 : 0, keysS, collateS);
    return 0;
}

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
    if (mode == u"phases"_s && args.size() >= 3)
        return phases(args.at(1), args.at(2));
    bool countOk = false;
    const int expected = args.value(3).toInt(&countOk);
    if (args.size() < 4 || args.size() > 5 || !countOk ||
        (mode != u"plain"_s && mode != u"sorted"_s)) {
        std::fprintf(stderr, "usage: bench-file-listing BASE_URL FOLDER EXPECTED_ROWS "
                             "[plain|sorted|plain-refresh|sorted-refresh|phases]\n");
        return 2;
    }
    const QString folder = args.at(2);

    SandboxClient client({QUrl(args.at(1)), {}}, {});
    askAsTheConsoleWould(client);
    RemoteFileModel model(&client);
    QTreeView view;
    view.setUniformRowHeights(true);
    view.setModel(&model);
    if (mode == u"sorted"_s) {
        view.setSortingEnabled(true);
        view.sortByColumn(RemoteFileModel::NameColumn, Qt::AscendingOrder);
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

    // A click on the Size header once every row is in: the model reorders 100 000 rows and the
    // view lays them out again, all on the GUI thread.
    double sizeSortMs = -1;
    if (mode == u"sorted"_s) {
        QElapsedTimer sortClock;
        sortClock.start();
        view.sortByColumn(RemoteFileModel::SizeColumn, Qt::DescendingOrder);
        QCoreApplication::processEvents();
        view.viewport()->repaint();
        sizeSortMs = sortClock.nsecsElapsed() / 1e6;
    }

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
                "stalls_over_50ms_with_tail=%d top_stalls=%s ticks=%zu size_sort_ms=%.1f goal=%s\n",
                qPrintable(shownMode), model.rowCount(), listedNs / 1e9, firstRowsNs / 1e6,
                lastRowsNs / 1e6, longest, at / 1e6, over, longestAll, atAll / 1e6, overAll,
                qPrintable(top.join(QLatin1Char(','))), ticks.size(), sizeSortMs,
                longestAll < stallGoalMs ? "met" : "missed");
    return 0;
}
