#include "widgets/files/dragout.h"

#include "models/files/transferqueuemodel.h"

#include <QEventLoop>
#include <QTimer>
#include <QUrl>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {
const QString kUriList = u"text/uri-list"_s;
// A drop that waits longer than this for 64 MiB has a network problem the queue will report.
constexpr int kFetchTimeoutMs = 120 * 1000;
} // namespace

RemoteDragData::RemoteDragData(TransferQueueModel *queue, QStringList localFiles)
    : m_queue(queue)
    , m_localFiles(std::move(localFiles)) {}

QStringList RemoteDragData::formats() const {
    QStringList out = QMimeData::formats();
    if (!out.contains(kUriList))
        out << kUriList;
    return out;
}

bool RemoteDragData::hasFormat(const QString &mimeType) const {
    return mimeType == kUriList || QMimeData::hasFormat(mimeType);
}

RemoteDragData::Progress RemoteDragData::progress() const {
    if (!m_queue)
        return Progress::Failed;
    for (const QString &local : m_localFiles) {
        int found = -1;
        for (int row = m_queue->rowCount() - 1; row >= 0 && found < 0; --row) {
            if (m_queue->index(row, 0).data(TransferQueueModel::LocalPathRole).toString() == local)
                found = row;
        }
        if (found < 0)
            return Progress::Failed; // cleared from the queue before it was fetched
        switch (m_queue->state(found)) {
        case TransferQueueModel::State::Done:
            break;
        case TransferQueueModel::State::Failed:
        case TransferQueueModel::State::Cancelled:
            return Progress::Failed;
        default:
            return Progress::Pending;
        }
    }
    return Progress::Ready;
}

QVariant RemoteDragData::retrieveData(const QString &mimeType, QMetaType type) const {
    if (mimeType != kUriList)
        return QMimeData::retrieveData(mimeType, type);
    if (progress() == Progress::Pending) {
        QEventLoop loop;
        QTimer timeout;
        timeout.setSingleShot(true);
        QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
        QObject::connect(m_queue, &TransferQueueModel::transferFinished, &loop, [this, &loop] {
            if (progress() != Progress::Pending)
                loop.quit();
        });
        QObject::connect(m_queue, &QObject::destroyed, &loop, &QEventLoop::quit);
        timeout.start(kFetchTimeoutMs);
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    }
    if (progress() != Progress::Ready)
        return {}; // the transfer panel says why
    QList<QUrl> urls;
    for (const QString &local : m_localFiles)
        urls << QUrl::fromLocalFile(local);
    if (type.id() == QMetaType::QByteArray || type.id() == QMetaType::QString) {
        QByteArray text;
        for (const QUrl &url : urls)
            text += url.toEncoded() + "\r\n";
        return type.id() == QMetaType::QString ? QVariant(QString::fromUtf8(text)) : QVariant(text);
    }
    QVariantList list;
    for (const QUrl &url : urls)
        list << url;
    return list;
}

} // namespace sbx
