#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>

namespace sbx {

// What one row of the traffic inspector is.
enum class TrafficKind {
    Http,          // a REST exchange
    Socket,        // a WebSocket handshake (and the socket's life)
    SocketMessage, // one WebSocket message
    SocketFrames,  // terminal output or input frames summarised over one second
};

enum class TrafficDirection { Sent, Received };

// How the request authenticated, kept with the metadata so that "Copy as curl" can name the
// environment variable even when no header was kept.
enum class TrafficAuth { None, ApiKeyHeader, Bearer, TicketQuery };

// Header names and values as they went over the wire (redacted once recorded).
using RawHeaders = QList<QPair<QByteArray, QByteArray>>;

// A request or response body as the inspector keeps it: its first bytes at most, redacted.
struct TrafficBody {
    QByteArray kept;
    qint64 size = 0; // of the whole body; -1 when unknown
    QByteArray mimeType;
    // A file transfer's body: never buffered for the inspector, only counted.
    bool streamed = false;

    bool complete() const { return !streamed && size == kept.size(); }
};

// One exchange, socket or message between the console and a sandbox, as recorded: everything in
// it was redacted when it was recorded, so whatever shows or exports it cannot leak a secret.
struct TrafficEntry {
    quint64 serial = 0;
    TrafficKind kind = TrafficKind::Http;
    QDateTime started; // UTC
    QString sandbox;   // the sandbox's display name
    QByteArray method; // GET, POST, ...; "WS" for socket messages and frames
    QString url;       // redacted, decoded for reading
    QString path;      // the URL's path
    TrafficAuth auth = TrafficAuth::None;
    // Socket messages and frames: which way, the frame's "type", and the socket's entry.
    TrafficDirection direction = TrafficDirection::Sent;
    QByteArray messageType;
    quint64 socketSerial = 0;
    int frames = 0; // SocketFrames: the messages summarised

    bool finished = false;
    int status = 0; // HTTP status; 101 for an opened socket; 0 without one
    QByteArray statusText;
    QString error;          // why it failed, from Status (never Qt's errorString)
    QByteArray httpVersion; // "HTTP/1.1", "HTTP/2"
    qint64 elapsedMs = -1;  // send to last byte; -1 while in flight
    qint64 waitMs = -1;     // send to the response's headers

    // Kept only while the inspector is open and within its byte budget.
    bool detailsKept = false;
    RawHeaders requestHeaders;
    RawHeaders responseHeaders;
    TrafficBody request;
    TrafficBody response;

    qint64 startNs = 0; // the recorder's monotonic clock

    // Ended without an HTTP status (refused, timed out, cancelled).
    bool failed() const { return finished && status == 0 && !isMessage(); }
    bool isMessage() const {
        return kind == TrafficKind::SocketMessage || kind == TrafficKind::SocketFrames;
    }
};

// Whether body bytes of this type are text (JSON, text/*, XML, ...) rather than binary.
bool isTextualBody(const QByteArray &mimeType, const QByteArray &bytes);

} // namespace sbx
