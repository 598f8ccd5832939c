#pragma once

#include "client/traffic/trafficentry.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <deque>

namespace sbx {

// Whom an entry is recorded for: the sandbox's display name, and the values to scrub from
// whatever is recorded (the client's key or token).
struct TrafficOrigin {
    QString sandbox;
    QList<QByteArray> secrets;
};

// The request half of an exchange, before redaction.
struct TrafficRequest {
    QByteArray method;
    QUrl url;
    RawHeaders headers;
    QByteArray body;
    qint64 bodySize = 0; // -1 when not known yet (a streamed upload)
    QByteArray mimeType;
    bool streamed = false; // sizes only: the body is a file
};

// What the end of an exchange adds, before redaction.
struct TrafficResponse {
    int status = 0;
    QByteArray statusText;
    QByteArray httpVersion;
    RawHeaders headers;
    QByteArray body;      // what was read of it; nothing of a streamed download
    qint64 bodySize = -1; // all of it, when known
    QByteArray mimeType;
    bool streamed = false;
    QString error; // from Status, empty when it got an answer it could use
};

// A WebSocket as its messages are recorded against it.
struct TrafficSocket {
    quint64 serial = 0; // the handshake's entry
    QString sandbox;
    QString path;
};

// The console's record of its API traffic with every sandbox: a bounded ring of entries, each
// redacted as it is recorded. Headers and bodies are kept only while a view wants them
// (setKeepDetails) and within a byte budget; otherwise an entry is its metadata alone and
// recording it copies no body.
class TrafficRecorder final : public QObject {
    Q_OBJECT
public:
    struct Limits {
        int maxEntries = 2000;
        qint64 detailBudget = 32 * 1024 * 1024; // headers and bodies over the whole ring
        int bodyBound = 64 * 1024;              // kept of each body; the rest is counted
    };

    explicit TrafficRecorder(QObject *parent = nullptr);
    ~TrafficRecorder() override;

    // Applies at once: a smaller ring drops its oldest entries.
    void setLimits(const Limits &limits);
    const Limits &limits() const { return m_limits; }
    // Off: the headers and bodies kept so far are dropped, and no more are recorded.
    void setKeepDetails(bool keep);
    bool keepsDetails() const { return m_keepDetails; }

    // The ring, oldest first.
    int size() const { return static_cast<int>(m_ring.size()); }
    const TrafficEntry &at(int index) const { return m_ring[static_cast<size_t>(index)]; }
    // The ring index of an entry, -1 once it has left the ring. O(1).
    int indexOf(quint64 serial) const;
    // Names of the sandboxes recorded since the start, in the order first seen.
    QStringList sandboxes() const { return m_sandboxes; }
    // Bytes of headers and bodies kept now.
    qint64 detailBytes() const { return m_detailBytes; }
    // An estimate of all the ring holds, metadata included.
    qint64 approximateBytes() const;
    void clear();

    // An HTTP exchange, or a socket's handshake (kind Socket); its serial.
    quint64 begin(const TrafficOrigin &origin, const TrafficRequest &request,
                  TrafficKind kind = TrafficKind::Http);
    void headersArrived(quint64 serial);
    // Bytes moved so far; -1 leaves a figure as it is.
    void progressed(quint64 serial, qint64 sent, qint64 received);
    void finish(quint64 serial, const TrafficOrigin &origin, const TrafficResponse &response);
    // Ends an exchange that will not finish (its reply was cancelled); no-op once finished.
    void abandon(quint64 serial, const QString &why);

    // One WebSocket message of size bytes; type is its frame's "type". frame: its bytes, given
    // only while details are kept.
    void socketMessage(const TrafficSocket &socket, const QList<QByteArray> &secrets,
                       TrafficDirection direction, const QByteArray &type, const QByteArray &frame,
                       qint64 size);
    // One frame of a kind summarised per second (terminal output and input): counted only.
    void socketFrames(const TrafficSocket &socket, TrafficDirection direction,
                      const QByteArray &type, qint64 bytes);
    // The socket ended: its open summaries are complete.
    void socketClosed(const TrafficSocket &socket);

Q_SIGNALS:
    void aboutToAppend();
    void appended();
    // The oldest count entries leave the ring.
    void aboutToDrop(int count);
    void dropped(int count);
    void changed(int index);
    // Every entry's headers and bodies were dropped (setKeepDetails(false)).
    void detailsDropped();
    void aboutToClear();
    void cleared();
    void sandboxSeen(const QString &name);

private:
    struct Bucket {
        quint64 serial = 0;
        qint64 startNs = 0;
    };
    TrafficEntry *find(quint64 serial);
    TrafficEntry &append(TrafficEntry entry);
    void dropOldest(int count);
    void noteSandbox(const QString &name);
    void addDetails(TrafficEntry &entry, qint64 bytes);
    void stripDetails(TrafficEntry &entry);
    void enforceBudget();
    void emitChanged(quint64 serial);
    // The first bytes of body, redacted; values masked by name are learned.
    QByteArray keptBody(const QByteArray &body, const QByteArray &mimeType,
                        const QList<QByteArray> &secrets);
    // The origin's secrets and the values learned from what was masked before.
    QList<QByteArray> secretsOf(const QList<QByteArray> &origin) const;
    RawHeaders keptHeaders(const RawHeaders &headers, const QList<QByteArray> &secrets) const;
    void closeExpiredBuckets();
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }

    Limits m_limits;
    bool m_keepDetails = false;
    std::deque<TrafficEntry> m_ring;
    quint64 m_nextSerial = 1;
    quint64 m_stripFrom = 1; // entries before this serial keep no details
    qint64 m_detailBytes = 0;
    QStringList m_sandboxes;
    // Values masked by name in recorded bodies (an env var's, a field's), scrubbed from what is
    // recorded after them wherever they appear: a command's output that prints its own key.
    QList<QByteArray> m_learned;
    QHash<quint64, Bucket> m_buckets; // key: socket serial * 2 + direction
    QTimer m_bucketTimer;
    QElapsedTimer m_clock;
};

} // namespace sbx
