#include "models/logs/logexport.h"

#include "models/logs/logdata.h"
#include "models/logs/logtext.h"

#include <QSaveFile>

namespace sbx {

namespace {

constexpr qint64 kCopyChunk = 4 * 1024 * 1024;

} // namespace

LogExport::LogExport(QObject *parent)
    : QObject(parent) {}

LogExport::~LogExport() {
    cancel();
}

void LogExport::cancel() {
    if (m_cancel)
        m_cancel->store(true);
    if (m_worker.joinable())
        m_worker.join();
}

void LogExport::start(const LogData *data, const QString &path, std::optional<LineSet> lines) {
    cancel();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelled = m_cancel;
    const LogData::Snapshot snapshot = data->snapshot();
    m_worker = std::thread([this, data, path, lines = std::move(lines), snapshot, cancelled] {
        // QSaveFile writes beside the target and renames at commit: never a torn file.
        QSaveFile out(path);
        QString error;
        const auto post = [this](qint64 done, qint64 total) {
            QMetaObject::invokeMethod(
                this, [this, done, total] { Q_EMIT progress(done, total); }, Qt::QueuedConnection);
        };
        if (!out.open(QIODevice::WriteOnly)) {
            error = tr("Cannot write %1: %2").arg(path, out.errorString());
        } else if (!lines) {
            for (qint64 at = 0; at < snapshot.bytes && !cancelled->load(); at += kCopyChunk) {
                const QByteArray chunk =
                    data->readBytes(at, std::min(kCopyChunk, snapshot.bytes - at));
                if (out.write(chunk) != chunk.size()) {
                    error = tr("Writing %1 failed: %2").arg(path, out.errorString());
                    break;
                }
                post(at + chunk.size(), snapshot.bytes);
            }
        } else {
            const qint64 total = lines->count();
            for (qint64 k = 0; k < total && !cancelled->load(); ++k) {
                const qint64 line = lines->at(k);
                const QByteArray text =
                    plainLogBytes(data->line(line, std::max<qint64>(1, data->lineLength(line)))) +
                    '\n';
                if (out.write(text) != text.size()) {
                    error = tr("Writing %1 failed: %2").arg(path, out.errorString());
                    break;
                }
                if (k % 65536 == 0)
                    post(k, total);
            }
        }
        if (cancelled->load()) {
            out.cancelWriting();
            error = tr("Cancelled");
        } else if (error.isEmpty() && !out.commit()) {
            error = tr("Writing %1 failed: %2").arg(path, out.errorString());
        } else if (!error.isEmpty()) {
            out.cancelWriting();
        }
        QMetaObject::invokeMethod(
            this,
            [this, error] {
                if (m_worker.joinable())
                    m_worker.join();
                Q_EMIT finished(error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace sbx
