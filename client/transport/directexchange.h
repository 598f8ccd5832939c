#pragma once

#include <QByteArray>
#include <QList>
#include <QNetworkReply>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace sbx {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// A multipart form body: text fields, then one file part read from disk as it is sent.
struct MultipartForm {
    HeaderList fields; // name, value
    QByteArray fileField;
    QString localPath;
    QByteArray fileName; // for the part's header: printable, no quote (the caller encodes)
    QByteArray contentType = "application/octet-stream";
};

// How a direct exchange ended: a transport error in Qt's terms (so that one mapping turns
// every exchange into a Status), or the server's answer.
struct DirectReply {
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    bool timedOut = false;
    bool localReadFailed = false; // the file could not be read to its end while it was sent
    int httpStatus = 0;
    QByteArray reason;
    HeaderList headers;
    QByteArray body; // none of a 2xx body given to a sink
    // A 2xx body given to the request's sink: how many bytes, and the first of them (up to
    // Request::keepBytes, for the traffic inspector). -1: no sink took any.
    qint64 sunk = -1;
    QByteArray kept;
};

// One request sent by libcurl on a thread of its own: Qt's HTTP stack moves an upload at about
// a third of curl's rate on a fast link (bench/files/run.sh) and a 20 MB listing at three
// quarters of it (bench/files/listing.sh), libcurl at curl's. Either a multipart body streamed
// from a file, or a body in memory whose answer may be large: its bytes then go to a sink on
// the exchange's thread as they come, without a copy on the GUI thread. Plain http only: TLS
// endpoints keep Qt's stack and its certificate pinning. finished() comes exactly once, unless
// abort() came first.
class DirectExchange final : public QObject {
    Q_OBJECT
public:
    // Takes a 2xx answer's body bytes as they arrive, on the exchange's thread.
    using BodySink = std::function<void(const char *data, qsizetype size)>;

    struct Request {
        QUrl url;
        QByteArray verb = "POST";
        HeaderList headers; // sent as given (authentication among them)
        std::optional<MultipartForm> form;
        QByteArray body;         // without a form
        bool compressed = false; // asks for gzip or deflate, and decodes it
        BodySink sink;           // else the body is collected into DirectReply::body
        qsizetype keepBytes = 0; // of what the sink took, kept in DirectReply::kept
        int silenceMs = 60000;   // no byte moving for this long fails the exchange as a timeout
    };

    explicit DirectExchange(Request request, QObject *parent = nullptr);
    ~DirectExchange() override; // aborts; the thread ends on its own, telling nobody
    void start();
    void abort();

    // Whether libcurl can carry a request to url: its scheme is plain http and libcurl loads
    // (the first call loads it).
    static bool handles(const QUrl &url);
    // Loads libcurl on a worker now, so that the first exchange does not wait for it (15-25 ms
    // on the GUI thread, measured).
    static void loadAhead();

    struct Shared; // what the object and its thread share (directexchange.cpp)

Q_SIGNALS:
    // The body's bytes sent (a form) or received so far.
    void progress(qint64 done, qint64 total);
    void finished(const sbx::DirectReply &reply);

private:
    Request m_request; // handed to the thread at start()
    std::shared_ptr<Shared> m_shared;
    std::thread m_thread;
};

} // namespace sbx
