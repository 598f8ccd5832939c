#pragma once

#include "client/transport/status.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QPointer>

#include <functional>
#include <memory>
#include <vector>

namespace sbx {

class ApiJob;
class SandboxClient;

// Every upload and download of one sandbox: queued, running (a bounded number at once), done,
// failed or cancelled, with bytes, rate, ETA and the reason of a failure.
class TransferQueueModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class State { Queued, Running, Done, Failed, Cancelled };
    enum class Direction { Upload, Download };
    enum Column { NameColumn, StateColumn, ProgressColumn, RateColumn, EtaColumn, ColumnCount };
    enum Role {
        StateRole = Qt::UserRole + 1,
        BytesDoneRole,
        BytesTotalRole,
        ErrorRole,
        LocalPathRole,
        RemotePathRole,
        DirectionRole,
        ErrorTypeRole, // AIO's error_type of a failure (permission_denied, ...)
        SudoRole,      // whether it runs as root (a download staged through sudo)
        FetchRole,     // a download that is not a sandbox file (enqueueFetch)
    };
    // Builds the job that downloads into localPath.
    using JobMaker = std::function<ApiJob *(SandboxClient *client, const QString &localPath)>;

    explicit TransferQueueModel(SandboxClient *client, QObject *parent = nullptr);
    ~TransferQueueModel() override;

    int enqueueUpload(const QString &localPath, const QString &remotePath);
    // now: start at once, beyond the parallel limit (a drag to the desktop waits for it).
    // sudo: read the file as root, for one the sandbox user may not read; AIO's download has no
    // sudo, so sudo copies it to /tmp for the user first (as uploads are staged the other way).
    int enqueueDownload(const QString &remotePath, const QString &localPath, bool now = false,
                        bool sudo = false);
    // A download of something other than a sandbox file (an observe report): label names it,
    // make builds its job, again on a retry.
    int enqueueFetch(const QString &label, const QString &localPath, JobMaker make);
    void cancel(int row);
    void retry(int row);
    // Forgets done and cancelled transfers (failed ones stay until retried or cancelled).
    void removeFinished();
    void setMaxParallel(int count);
    int maxParallel() const { return m_maxParallel; }
    State state(int row) const;
    QString error(int row) const;
    int activeCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

Q_SIGNALS:
    void transferFinished(int row, TransferQueueModel::State state);

private:
    struct Transfer;
    int enqueue(std::unique_ptr<Transfer> transfer);
    void startNext();
    void start(Transfer &transfer);
    void stage(Transfer &transfer);
    void run(Transfer &transfer, ApiJob *job);
    void removeStaged(Transfer &transfer);
    void changed(const Transfer &transfer);
    int rowOf(const Transfer &transfer) const;

    QPointer<SandboxClient> m_client;
    std::vector<std::unique_ptr<Transfer>> m_transfers;
    int m_maxParallel = 2;
};

} // namespace sbx
