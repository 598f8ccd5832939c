#pragma once

#include "models/files/remotefileoperations.h"

#include <QMimeData>
#include <QPointer>
#include <QStringList>

namespace sbx {

class TransferQueueModel;

// What a drag of remote files to the desktop carries: the remote description at once, and the
// local copies (queued for download when the drag starts) once the drop target asks for them.
// Asking waits, with the event loop running, until the queue has fetched them.
class RemoteDragData final : public QMimeData {
public:
    // Drags carry small files only; larger ones go through Download…
    static constexpr qint64 kMaxFileSize = RemoteFileOperations::kMaxDragSize;

    RemoteDragData(TransferQueueModel *queue, QStringList localFiles);
    QStringList formats() const override;
    bool hasFormat(const QString &mimeType) const override;
    const QStringList &localFiles() const { return m_localFiles; }

protected:
    QVariant retrieveData(const QString &mimeType, QMetaType type) const override;

private:
    enum class Progress { Pending, Ready, Failed };
    Progress progress() const;

    QPointer<TransferQueueModel> m_queue; // the tab may close while a drop waits
    QStringList m_localFiles;
};

} // namespace sbx
