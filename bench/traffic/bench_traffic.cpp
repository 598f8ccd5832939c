// The traffic inspector's cost. `download BASE_URL REMOTE LOCAL MODE`: one DownloadJob with the
// recorder absent (none), attached with the inspector closed (closed: metadata only) or open
// (open: headers and bodies kept, the inspector's models attached). `requests BASE_URL N`:
// N GET /v1/sandbox with the inspector open, then the ring's bytes and this process's RSS growth,
// and again once it is closed. bench/traffic/run.sh runs both against sandbox-server.
#include "client/api/filetransfer.h"
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "client/traffic/trafficrecorder.h"
#include "models/traffic/trafficfiltermodel.h"
#include "models/traffic/trafficmodel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <cstdio>
#include <functional>
#include <memory>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// A line of /proc/self/status in KiB ("VmRSS:", "VmHWM:").
qint64 statusKb(const QByteArray &field) {
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(field.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

// What the dock adds over the recorder: its model and filter (no view: nothing is painted).
struct Inspector {
    explicit Inspector(TrafficRecorder *recorder)
        : model(recorder)
        , filter(&model) {}
    TrafficModel model;
    TrafficFilterModel filter;
};

int download(const QStringList &args) {
    const QString mode = args.value(5);
    SandboxClient client({QUrl(args.at(2)), {}}, {});
    TrafficRecorder recorder;
    std::unique_ptr<Inspector> inspector;
    if (mode != u"none"_s) {
        client.setTrafficRecorder(&recorder, u"bench"_s);
        recorder.setKeepDetails(mode == u"open"_s);
        if (mode == u"open"_s)
            inspector = std::make_unique<Inspector>(&recorder);
    }
    auto *job = new DownloadJob(&client, args.at(3), args.at(4));
    int rc = 1;
    qint64 bytes = 0;
    QObject::connect(job, &DownloadJob::succeeded, job, [&](qint64 size) {
        rc = 0;
        bytes = size;
    });
    QObject::connect(job, &ApiJob::failed, job, [](const Status &s) {
        std::fprintf(stderr, "download failed: %s\n", qPrintable(s.message));
    });
    QObject::connect(job, &ApiJob::finished, qApp, &QCoreApplication::quit, Qt::QueuedConnection);
    QElapsedTimer clock;
    clock.start();
    job->start();
    QCoreApplication::exec();
    const double seconds = clock.nsecsElapsed() / 1e9;
    if (rc == 0)
        std::printf("download mode=%s bytes=%lld seconds=%.3f MBps=%.1f entries=%d "
                    "vmhwm_kb=%lld\n",
                    qPrintable(mode), static_cast<long long>(bytes), seconds, bytes / 1e6 / seconds,
                    recorder.size(), static_cast<long long>(statusKb("VmHWM:")));
    return rc;
}

int requests(const QStringList &args) {
    const int total = args.value(3).toInt();
    const bool withRecorder = args.value(4) != u"none"_s;
    SandboxClient client({QUrl(args.at(2)), {}}, {});
    TrafficRecorder recorder;
    if (withRecorder)
        client.setTrafficRecorder(&recorder, u"bench"_s);
    recorder.setKeepDetails(true);
    Inspector inspector(&recorder);
    // A first request so that the connection, TLS-less as it is, and Qt's caches exist before the
    // baseline.
    {
        auto *warm = new GetContextJob(&client);
        QObject::connect(warm, &ApiJob::finished, qApp, &QCoreApplication::quit,
                         Qt::QueuedConnection);
        warm->start();
        QCoreApplication::exec();
    }
    recorder.clear();
    const qint64 rssBefore = statusKb("VmRSS:");
    constexpr int kInFlight = 6; // Qt's connections per host
    int started = 0, done = 0, failed = 0;
    std::function<void()> next = [&] {
        if (started >= total)
            return;
        ++started;
        auto *job = new GetContextJob(&client);
        QObject::connect(job, &ApiJob::failed, job, [&failed](const Status &) { ++failed; });
        QObject::connect(job, &ApiJob::finished, job, [&] {
            if (++done == total)
                QMetaObject::invokeMethod(qApp, &QCoreApplication::quit, Qt::QueuedConnection);
            else
                QMetaObject::invokeMethod(qApp, next, Qt::QueuedConnection);
        });
        job->start();
    };
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < kInFlight; ++i)
        next();
    QCoreApplication::exec();
    const double seconds = clock.nsecsElapsed() / 1e9;
    const qint64 rssOpen = statusKb("VmRSS:");
    std::printf("requests mode=%s count=%d failed=%d seconds=%.2f entries=%d ring_kib=%lld "
                "details_kib=%lld "
                "rss_growth_kib=%lld\n",
                withRecorder ? "open" : "none", total, failed, seconds, recorder.size(),
                static_cast<long long>(recorder.approximateBytes() / 1024),
                static_cast<long long>(recorder.detailBytes() / 1024),
                static_cast<long long>(rssOpen - rssBefore));
    recorder.setKeepDetails(false);
    std::printf("closed: entries=%d ring_kib=%lld details_kib=%lld\n", recorder.size(),
                static_cast<long long>(recorder.approximateBytes() / 1024),
                static_cast<long long>(recorder.detailBytes() / 1024));
    return failed == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString mode = args.value(1);
    if (mode == u"download"_s && args.size() == 6)
        return download(args);
    if (mode == u"requests"_s && args.size() == 5)
        return requests(args);
    std::fprintf(stderr, "usage: bench-traffic download BASE_URL REMOTE LOCAL none|closed|open\n"
                         "       bench-traffic requests BASE_URL COUNT open|none\n");
    return 2;
}
