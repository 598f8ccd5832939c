// File events: bench-file-events BASE_URL FOLDER [FILES] lists FOLDER (empty) through
// RemoteFileModel, watches it through FileWatch with a 50 ms debounce (as the Files tab does),
// then creates FILES files (default 10 000) in one burst on this machine and prints how many
// reached the tree through events, whether the watch overflowed (the tree is then listed again),
// and the delay from each file's creation to its row in the model: p50, p99, max.
#include "client/api/filewatch.h"
#include "client/sandboxclient.h"
#include "models/files/remotefilemodel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: bench-file-events BASE_URL FOLDER [FILES]\n");
        return 2;
    }
    const QString folder = args.at(2);
    const int files = args.value(3, u"10000"_s).toInt();
    SandboxClient client({QUrl(args.at(1)), {}}, {});
    // As the console's registry sets it for a sandbox that answers within 20 ms (loopback).
    client.setCompression(false);
    RemoteFileModel model(&client);
    FileWatch watch(&client, folder);
    watch.setDebounceMs(50);

    QElapsedTimer clock;
    clock.start();
    // The burst runs on a thread of its own, as an agent's process would: the GUI thread only
    // sees the events. Each file's creation time is written before the file is made.
    QStringList paths;
    QHash<QString, int> indexOf;
    for (int i = 0; i < files; ++i) {
        paths << folder + u"/event-%1.txt"_s.arg(i, 6, 10, QLatin1Char('0'));
        indexOf.insert(paths.last(), i);
    }
    std::vector<std::atomic<qint64>> createdNs(static_cast<std::size_t>(files));
    std::vector<char> counted(static_cast<std::size_t>(files), 0);
    std::thread burster;
    bool started = false;
    std::vector<double> delays;
    delays.reserve(static_cast<std::size_t>(files));
    int viaEvents = 0;
    bool overflow = false;
    const auto seen = [&](const QString &path) {
        const int i = indexOf.value(path, -1);
        if (i < 0 || counted[static_cast<std::size_t>(i)])
            return;
        counted[static_cast<std::size_t>(i)] = 1;
        delays.push_back((clock.nsecsElapsed() - createdNs[static_cast<std::size_t>(i)].load()) /
                         1e6);
        if (static_cast<int>(delays.size()) == files)
            QTimer::singleShot(0, &app, &QCoreApplication::quit);
    };
    QObject::connect(
        &model, &QAbstractItemModel::rowsInserted, &app,
        [&](const QModelIndex &parent, int first, int last) {
            for (int row = first; row <= last; ++row)
                seen(model.index(row, 0, parent).data(RemoteFileModel::PathRole).toString());
        });
    QObject::connect(&watch, &FileWatch::changes, &app, [&](const QList<FileChange> &changes) {
        viaEvents +=
            static_cast<int>(std::count_if(changes.begin(), changes.end(), [](const FileChange &c) {
                return c.type == "create"_L1;
            }));
        model.applyChanges(changes);
    });
    QObject::connect(&watch, &FileWatch::overflowed, &app, [&] {
        overflow = true;
        model.refreshListed();
    });
    const auto burst = [&] {
        burster = std::thread([&] {
            for (int i = 0; i < files; ++i) {
                createdNs[static_cast<std::size_t>(i)] = clock.nsecsElapsed();
                const QByteArray local = paths.at(i).toLocal8Bit();
                const int fd = ::open(local.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (fd >= 0)
                    ::close(fd);
            }
        });
    };
    QObject::connect(&watch, &FileWatch::stateChanged, &app, [&] {
        if (watch.state() == FileWatch::State::Live && !started) {
            started = true;
            QTimer::singleShot(200, &app, burst); // the watch is in place: go
        }
        if (watch.state() == FileWatch::State::Unavailable) {
            std::fprintf(stderr, "no watch: %s\n", qPrintable(watch.problem()));
            app.exit(1);
        }
    });
    QObject::connect(&model, &RemoteFileModel::folderListed, &app, [&](const QString &path) {
        if (path == folder && watch.state() == FileWatch::State::Starting)
            watch.start();
    });
    QTimer::singleShot(120000, &app, [&] { app.exit(3); });
    model.setRootPath(folder);
    const int rc = app.exec();
    if (burster.joinable())
        burster.join();
    std::sort(delays.begin(), delays.end());
    const auto pct = [&](double p) {
        return delays.empty() ? 0.0
                              : delays[std::min(delays.size() - 1,
                                                static_cast<std::size_t>(p * delays.size()))];
    };
    std::printf(
        "files=%d in_tree=%zu via_events=%d overflow=%s p50_ms=%.1f p99_ms=%.1f max_ms=%.1f%s\n",
        files, delays.size(), viaEvents, overflow ? "yes" : "no", pct(0.5), pct(0.99),
        delays.empty() ? 0.0 : delays.back(), rc == 3 ? " (timed out)" : "");
    return rc;
}
