#pragma once

#include <QByteArray>
#include <QList>
#include <QNetworkReply>
#include <QObject>
#include <QPair>
#include <QString>
#include <QUrl>

#include <memory>
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
    QByteArray body;
};

// One request with a multipart body streamed from a file, sent by libcurl on a thread of its
// own: Qt's HTTP stack moves an upload at about a third of curl's rate on a fast link
// (bench/files/run.sh), libcurl at curl's. Plain http only: TLS endpoints keep Qt's stack and
// its certificate pinning. finished() comes exactly once, unless abort() came first.
class DirectUpload final : public QObject {
    Q_OBJECT
public:
    struct Request {
        QUrl url;
        QByteArray verb = "POST";
        HeaderList headers; // sent as given (authentication among them)
        MultipartForm form;
        int silenceMs = 60000; // no byte moving for this long fails the exchange as a timeout
    };

    explicit DirectUpload(Request request, QObject *parent = nullptr);
    ~DirectUpload() override; // aborts and waits for the thread
    void start();
    void abort();

    // Whether libcurl can carry a request to url: its scheme is plain http and libcurl loads
    // (the first call loads it).
    static bool handles(const QUrl &url);

    struct Shared; // what the object and its thread share (directupload.cpp)

Q_SIGNALS:
    void progress(qint64 sent, qint64 total);
    void finished(const sbx::DirectReply &reply);

private:
    Request m_request; // handed to the thread at start()
    std::shared_ptr<Shared> m_shared;
    std::thread m_thread;
};

} // namespace sbx
