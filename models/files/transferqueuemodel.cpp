#include "models/files/transferqueuemodel.h"

#include "client/api/filetransfer.h"
#include "client/api/remotecommand.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <QUuid>

namespace sbx {

using namespace Qt::StringLiterals;

struct TransferQueueModel::Transfer {
    Direction direction = Direction::Upload;
    QString localPath;
    QString remotePath;
    State state = State::Queued;
    qint64 done = 0;
    qint64 total = -1;
    double rate = 0; // bytes per second, smoothed
    QString error;
    QString errorType;
    // A download as root: sudo copies the file to `staged` in /tmp for the sandbox user, since
    // AIO's download has no sudo; that copy is downloaded, then removed.
    bool sudo = false;
    QString staged;
    QPointer<RemoteCommandJob> staging;
    JobMaker make; // set for a fetch; remotePath then holds its label
    QPointer<ApiJob> job;
    QElapsedTimer clock;
    qint64 lastDone = 0;
    qint64 lastMs = 0;
};

namespace {
QString formatEta(qint64 seconds) {
    if (seconds < 60)
        return QCoreApplication::translate("sbx::TransferQueueModel", "%1 s").arg(seconds);
    if (seconds < 3600)
        return QCoreApplication::translate("sbx::TransferQueueModel", "%1 min %2 s")
            .arg(seconds / 60)
            .arg(seconds % 60);
    return QCoreApplication::translate("sbx::TransferQueueModel", "%1 h %2 min")
        .arg(seconds / 3600)
        .arg(seconds % 3600 / 60);
}
} // namespace

TransferQueueModel::TransferQueueModel(SandboxClient *client, QObject *parent)
    : QAbstractTableModel(parent)
    , m_client(client) {}

TransferQueueModel::~TransferQueueModel() {
    for (const auto &t : m_transfers) {
        if (t->staging)
            t->staging->abort();
        if (t->job)
            t->job->abort();
        // The copy is the sandbox user's: quitting must not leave it in /tmp.
        removeStaged(*t);
    }
}

int TransferQueueModel::enqueueUpload(const QString &localPath, const QString &remotePath) {
    auto t = std::make_unique<Transfer>();
    t->direction = Direction::Upload;
    t->localPath = localPath;
    t->remotePath = remotePath;
    t->total = QFileInfo(localPath).size();
    return enqueue(std::move(t));
}

int TransferQueueModel::enqueueDownload(const QString &remotePath, const QString &localPath,
                                        bool now, bool sudo) {
    auto t = std::make_unique<Transfer>();
    t->direction = Direction::Download;
    t->sudo = sudo;
    t->localPath = localPath;
    t->remotePath = remotePath;
    if (!now)
        return enqueue(std::move(t));
    // Ahead of the queue: a drop on the desktop is waiting for it.
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_transfers.push_back(std::move(t));
    endInsertRows();
    start(*m_transfers.back());
    return row;
}

int TransferQueueModel::enqueueFetch(const QString &label, const QString &localPath,
                                     JobMaker make) {
    auto t = std::make_unique<Transfer>();
    t->direction = Direction::Download;
    t->localPath = localPath;
    t->remotePath = label;
    t->make = std::move(make);
    return enqueue(std::move(t));
}

int TransferQueueModel::enqueue(std::unique_ptr<Transfer> transfer) {
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_transfers.push_back(std::move(transfer));
    endInsertRows();
    startNext();
    return row;
}

int TransferQueueModel::activeCount() const {
    int running = 0;
    for (const auto &t : m_transfers)
        running += t->state == State::Running ? 1 : 0;
    return running;
}

void TransferQueueModel::setMaxParallel(int count) {
    m_maxParallel = qMax(1, count);
    startNext();
}

void TransferQueueModel::startNext() {
    for (const auto &t : m_transfers) {
        if (activeCount() >= m_maxParallel)
            return;
        if (t->state == State::Queued)
            start(*t);
    }
}

void TransferQueueModel::start(Transfer &t) {
    if (!m_client)
        return;
    t.state = State::Running;
    t.done = 0;
    t.rate = 0;
    t.error.clear();
    t.errorType.clear();
    t.clock.start();
    t.lastDone = 0;
    t.lastMs = 0;
    if (t.direction == Direction::Download && t.sudo) {
        stage(t);
        return;
    }
    if (t.make) {
        run(t, t.make(m_client, t.localPath));
        return;
    }
    run(t, t.direction == Direction::Upload
               ? static_cast<ApiJob *>(new UploadJob(m_client, t.localPath, t.remotePath))
               : new DownloadJob(m_client, t.remotePath, t.localPath));
}

void TransferQueueModel::stage(Transfer &t) {
    const QString staged =
        u"/tmp/.sandbox-console-download-"_s + QUuid::createUuid().toString(QUuid::WithoutBraces);
    // As root: a private copy owned by the user sudo was asked by (root itself without sudo's
    // variables), which the sandbox's download then reads.
    auto *copy = new RemoteCommandJob(
        m_client,
        u"cp -- %1 %2 && chown \"${SUDO_UID:-$(id -u)}:${SUDO_GID:-$(id -g)}\" -- %2 "
        u"&& chmod 600 -- %2"_s.arg(shellQuote(t.remotePath), shellQuote(staged)),
        tr("copy %1 with sudo for the download").arg(t.remotePath));
    copy->setSudo(true);
    t.staging = copy;
    Transfer *tp = &t;
    connect(copy, &RemoteCommandJob::succeeded, this, [this, tp, staged] {
        tp->staged = staged;
        if (tp->state != State::Running || !m_client) {
            removeStaged(*tp);
            return;
        }
        run(*tp, new DownloadJob(m_client, staged, tp->localPath));
    });
    connect(copy, &RemoteCommandJob::failed, this, [this, tp](const Status &status) {
        if (tp->state != State::Running)
            return;
        tp->state = State::Failed;
        tp->error = status.message;
        tp->errorType = status.errorType;
        changed(*tp);
        Q_EMIT transferFinished(rowOf(*tp), tp->state);
        startNext();
    });
    changed(t);
    copy->start();
}

void TransferQueueModel::removeStaged(Transfer &t) {
    if (t.staged.isEmpty() || !m_client)
        return;
    auto *remove = new RemoteCommandJob(m_client, u"rm -f -- "_s + shellQuote(t.staged),
                                        tr("remove the copy made for the download"));
    remove->setSudo(true);
    remove->start();
    t.staged.clear();
}

void TransferQueueModel::run(Transfer &t, ApiJob *job) {
    t.job = job;
    Transfer *tp = &t;
    connect(job, &ApiJob::progress, this, [this, tp](qint64 done, qint64 total) {
        // An upload's progress counts the multipart envelope too: the file's size stays the total.
        if (tp->direction == Direction::Download && total > 0)
            tp->total = total;
        tp->done = tp->total > 0 ? qMin(done, tp->total) : done;
        const qint64 now = tp->clock.elapsed();
        if (now - tp->lastMs >= 250) { // a rate from a quarter second is steady enough to read
            const double instant = double(done - tp->lastDone) * 1000.0 / double(now - tp->lastMs);
            tp->rate = tp->rate > 0 ? 0.7 * tp->rate + 0.3 * instant : instant;
            tp->lastDone = done;
            tp->lastMs = now;
        }
        changed(*tp);
    });
    connect(job, &ApiJob::failed, this, [tp](const Status &status) {
        tp->error = status.message;
        tp->errorType = status.errorType;
    });
    connect(job, &ApiJob::finished, this, [this, tp, job] {
        if (tp->state == State::Running) {
            const Status status = job->status();
            tp->state = status.ok()                              ? State::Done
                        : status.kind == Status::Kind::Cancelled ? State::Cancelled
                                                                 : State::Failed;
            if (tp->state == State::Done && tp->total >= 0)
                tp->done = tp->total;
            // finished comes before failed: take the reason from the job's status here.
            if (tp->state == State::Failed) {
                if (tp->error.isEmpty())
                    tp->error = status.message;
                tp->errorType = status.errorType;
            }
        }
        removeStaged(*tp);
        changed(*tp);
        Q_EMIT transferFinished(rowOf(*tp), tp->state);
        startNext();
    });
    changed(t);
    job->start();
}

void TransferQueueModel::cancel(int row) {
    if (row < 0 || row >= rowCount())
        return;
    Transfer &t = *m_transfers[static_cast<std::size_t>(row)];
    if (t.state != State::Queued && t.state != State::Running)
        return;
    const bool wasRunning = t.state == State::Running;
    t.state = State::Cancelled;
    if (wasRunning && t.job) {
        t.job->abort(); // emits finished, which starts the next one
    } else if (wasRunning && t.staging) {
        t.staging->abort(); // a copy it may have made is removed when it reports
        changed(t);
        Q_EMIT transferFinished(row, t.state);
        startNext();
    } else {
        changed(t);
    }
}

void TransferQueueModel::retry(int row) {
    if (row < 0 || row >= rowCount())
        return;
    Transfer &t = *m_transfers[static_cast<std::size_t>(row)];
    if (t.state != State::Failed && t.state != State::Cancelled)
        return;
    t.state = State::Queued;
    t.error.clear();
    changed(t);
    startNext();
}

void TransferQueueModel::removeFinished() {
    // Contiguous runs are removed together so that views see few changes.
    for (int row = rowCount() - 1; row >= 0;) {
        const State s = m_transfers[static_cast<std::size_t>(row)]->state;
        if (s != State::Done && s != State::Cancelled) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0) {
            const State before = m_transfers[static_cast<std::size_t>(first - 1)]->state;
            if (before != State::Done && before != State::Cancelled)
                break;
            --first;
        }
        beginRemoveRows({}, first, row);
        m_transfers.erase(m_transfers.begin() + first, m_transfers.begin() + row + 1);
        endRemoveRows();
        row = first - 1;
    }
}

TransferQueueModel::State TransferQueueModel::state(int row) const {
    return m_transfers.at(static_cast<std::size_t>(row))->state;
}

QString TransferQueueModel::error(int row) const {
    return m_transfers.at(static_cast<std::size_t>(row))->error;
}

int TransferQueueModel::rowOf(const Transfer &transfer) const {
    for (std::size_t i = 0; i < m_transfers.size(); ++i) {
        if (m_transfers[i].get() == &transfer)
            return static_cast<int>(i);
    }
    return -1;
}

void TransferQueueModel::changed(const Transfer &transfer) {
    const int row = rowOf(transfer);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int TransferQueueModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_transfers.size());
}

int TransferQueueModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TransferQueueModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Transfer &t = *m_transfers[static_cast<std::size_t>(index.row())];
    const QLocale locale;
    switch (role) {
    case StateRole:
        return static_cast<int>(t.state);
    case BytesDoneRole:
        return t.done;
    case BytesTotalRole:
        return t.total;
    case ErrorRole:
        return t.error;
    case LocalPathRole:
        return t.localPath;
    case RemotePathRole:
        return t.remotePath;
    case DirectionRole:
        return static_cast<int>(t.direction);
    case ErrorTypeRole:
        return t.errorType;
    case SudoRole:
        return t.sudo;
    case FetchRole:
        return bool(t.make);
    case Qt::ToolTipRole:
        return QString((t.direction == Direction::Upload ? t.localPath + u" → "_s + t.remotePath
                                                         : t.remotePath + u" → "_s + t.localPath) +
                       (t.error.isEmpty() ? QString() : QString(QLatin1Char('\n') + t.error)));
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return QString(
                (t.direction == Direction::Upload ? u"↑ "_s : u"↓ "_s) +
                QFileInfo(t.direction == Direction::Upload || t.make ? t.localPath : t.remotePath)
                    .fileName());
        case StateColumn:
            switch (t.state) {
            case State::Queued:
                return tr("queued");
            case State::Running:
                return tr("running");
            case State::Done:
                return tr("done");
            case State::Failed:
                return tr("failed: %1").arg(t.error);
            case State::Cancelled:
                return tr("cancelled");
            }
            return {};
        case ProgressColumn:
            return t.total > 0 ? tr("%1 of %2")
                                     .arg(locale.formattedDataSize(t.done),
                                          locale.formattedDataSize(t.total))
                               : locale.formattedDataSize(t.done);
        case RateColumn:
            return t.state == State::Running && t.rate > 0
                       ? tr("%1/s").arg(locale.formattedDataSize(static_cast<qint64>(t.rate)))
                       : QString();
        case EtaColumn:
            if (t.state != State::Running || t.rate <= 0 || t.total <= 0)
                return QString();
            return formatEta(qMax<qint64>(0, static_cast<qint64>((t.total - t.done) / t.rate)));
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant TransferQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("File");
    case StateColumn:
        return tr("State");
    case ProgressColumn:
        return tr("Progress");
    case RateColumn:
        return tr("Rate");
    case EtaColumn:
        return tr("ETA");
    default:
        return {};
    }
}

} // namespace sbx
