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
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
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
    RemoteFileModel model(&client);
    FileWatch watch(&client, folder);
    watch.setDebounceMs(50);

    QElapsedTimer clock;
    clock.start();
    QHash<QString, qint64> created; // path -> ns
    std::vector<double> delays;
    delays.reserve(static_cast<std::size_t>(files));
    int viaEvents = 0;
    bool overflow = false;
    const auto seen = [&](const QString &path) {
        auto it = created.find(path);
        if (it == created.end() || it.value() < 0)
            return;
        delays.push_back((clock.nsecsElapsed() - it.value()) / 1e6);
        it.value() = -1;
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
        for (int i = 0; i < files; ++i) {
            const QString path = folder + u"/event-%1.txt"_s.arg(i, 6, 10, QLatin1Char('0'));
            created.insert(path, clock.nsecsElapsed());
            const int fd =
                ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0)
                ::close(fd);
        }
    };
    QObject::connect(&watch, &FileWatch::stateChanged, &app, [&] {
        if (watch.state() == FileWatch::State::Live && created.isEmpty())
            QTimer::singleShot(200, &app, burst); // the watch is in place: go
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
