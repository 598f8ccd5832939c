// The log engine on one file, for bench/logs/run.sh: bench-log-index FILE FIXED REGEX prints
// the time to index the whole file and read its last line, the index's bytes per line, the
// process's RSS with the file open, and the time of a whole-log fixed-string and regex search
// (the number of matching lines with each, to check against grep -c).
#include "models/logs/logdata.h"
#include "models/logs/logsearch.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>

#include <cstdio>

using namespace sbx;

namespace {

long rssKb() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    }
    return -1;
}

// Seconds for one whole-log search, and the lines it found.
std::pair<double, qint64> timedSearch(LogData &data, const LogQuery &query) {
    LogSearch search(&data);
    QEventLoop loop;
    QObject::connect(&search, &LogSearch::finished, &loop, &QEventLoop::quit);
    QElapsedTimer timer;
    timer.start();
    if (!search.start(query)) {
        std::fprintf(stderr, "bad pattern: %s\n", qPrintable(search.errorText()));
        return {-1, -1};
    }
    if (search.isRunning())
        loop.exec();
    return {timer.nsecsElapsed() / 1e9, search.matches().count()};
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench-log-index FILE FIXED REGEX\n");
        return 2;
    }
    LogData data;
    QEventLoop loop;
    QObject::connect(&data, &LogData::indexed, &loop, &QEventLoop::quit);
    QElapsedTimer timer;
    timer.start();
    if (!data.openFile(QString::fromLocal8Bit(argv[1]))) {
        std::fprintf(stderr, "%s\n", qPrintable(data.errorText()));
        return 1;
    }
    if (data.isIndexing())
        loop.exec();
    const QByteArray last = data.line(data.lineCount() - 1);
    const double indexSeconds = timer.nsecsElapsed() / 1e9;
    std::printf("lines %lld\n", data.lineCount());
    std::printf("index_s %.3f\n", indexSeconds);
    std::printf("last_line_bytes %lld\n", qint64(last.size()));
    std::printf("bytes_per_line %.2f\n",
                double(data.indexMemoryBytes()) / double(std::max<qint64>(1, data.lineCount())));
    std::printf("rss_mb %.1f\n", rssKb() / 1024.0);
    LogQuery fixed;
    fixed.pattern = QString::fromLocal8Bit(argv[2]);
    fixed.caseSensitive = true;
    const auto [fixedSeconds, fixedLines] = timedSearch(data, fixed);
    std::printf("search_fixed_s %.3f\nmatches %lld\n", fixedSeconds, fixedLines);
    LogQuery regex;
    regex.pattern = QString::fromLocal8Bit(argv[3]);
    regex.regex = true;
    regex.caseSensitive = true;
    const auto [regexSeconds, regexLines] = timedSearch(data, regex);
    std::printf("search_regex_s %.3f\nmatches_regex %lld\n", regexSeconds, regexLines);
    std::printf("rss_after_search_mb %.1f\n", rssKb() / 1024.0);
    return 0;
}
