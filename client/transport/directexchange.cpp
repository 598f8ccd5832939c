#include "client/transport/directexchange.h"

#include "client/transport/curlapi.h"

#include <QCoreApplication>
#include <QFile>
#include <QMetaObject>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

// A collected answer (an upload's envelope, an error) is short: anything far larger is not one.
constexpr qsizetype kMaxReplyBytes = 8 * 1024 * 1024;
// Read in large pieces: each one a sink takes costs a hand-over to another thread.
constexpr long kReceiveBufferBytes = 512 * 1024;
// Large reads keep the per-call cost of the file side small next to the socket's.
constexpr long kUploadBufferBytes = 1024 * 1024;

QNetworkReply::NetworkError networkError(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_CONNECT:
        return QNetworkReply::ConnectionRefusedError;
    case CURLE_COULDNT_RESOLVE_HOST:
        return QNetworkReply::HostNotFoundError;
    case CURLE_OPERATION_TIMEDOUT:
        return QNetworkReply::TimeoutError;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
        return QNetworkReply::RemoteHostClosedError;
    case CURLE_ABORTED_BY_CALLBACK:
        return QNetworkReply::OperationCanceledError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

// The file part's bytes, read as libcurl asks for them; a file that ends early fails the
// exchange instead of sending less than was announced.
struct FileSource {
    int fd = -1;
    qint64 size = 0;
    qint64 remaining = 0;
    bool failed = false;
};

size_t readFile(char *buffer, size_t size, size_t items, void *arg) {
    auto *source = static_cast<FileSource *>(arg);
    const size_t want = size_t(std::min<qint64>(qint64(size * items), source->remaining));
    if (want == 0)
        return 0;
    ssize_t n = 0;
    do
        n = ::read(source->fd, buffer, want);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        source->failed = true;
        return CURL_READFUNC_ABORT;
    }
    source->remaining -= n;
    return size_t(n);
}

int seekFile(void *arg, curl_off_t offset, int origin) {
    auto *source = static_cast<FileSource *>(arg);
    if (origin != SEEK_SET || offset < 0 || offset > source->size)
        return CURL_SEEKFUNC_CANTSEEK;
    if (::lseek(source->fd, off_t(offset), SEEK_SET) < 0)
        return CURL_SEEKFUNC_FAIL;
    source->remaining = source->size - offset;
    return CURL_SEEKFUNC_OK;
}

// Where the answer's body goes: a 2xx body to the request's sink when it has one, any other
// collected (bounded).
struct Receiver {
    DirectReply *reply;
    const DirectExchange::Request *request;
    const CurlApi *lib;
    CURL *curl;
    long status = -1; // read at the body's first bytes, once the headers are in
};

size_t receiveBody(char *data, size_t size, size_t items, void *arg) {
    auto *receiver = static_cast<Receiver *>(arg);
    DirectReply *reply = receiver->reply;
    const size_t n = size * items;
    if (receiver->status < 0)
        receiver->lib->easyGetinfo(receiver->curl, CURLINFO_RESPONSE_CODE, &receiver->status);
    const DirectExchange::Request &request = *receiver->request;
    if (request.sink && receiver->status >= 200 && receiver->status < 300) {
        request.sink(data, qsizetype(n));
        reply->sunk = std::max<qint64>(reply->sunk, 0) + qint64(n);
        if (reply->kept.size() < request.keepBytes)
            reply->kept.append(data,
                               std::min(qsizetype(n), request.keepBytes - reply->kept.size()));
        return n;
    }
    if (reply->body.size() + qsizetype(n) > kMaxReplyBytes)
        return 0; // libcurl ends with CURLE_WRITE_ERROR
    reply->body.append(data, qsizetype(n));
    return n;
}

size_t collectHeader(char *data, size_t size, size_t items, void *arg) {
    auto *reply = static_cast<DirectReply *>(arg);
    const size_t n = size * items;
    const QByteArray line = QByteArray(data, qsizetype(n)).trimmed();
    if (line.startsWith("HTTP/")) {
        // A new status line (after 100 Continue, say): the headers before it were another's.
        reply->headers.clear();
        const qsizetype first = line.indexOf(' ');
        const qsizetype second = first < 0 ? -1 : line.indexOf(' ', first + 1);
        reply->reason = second > 0 ? line.mid(second + 1) : QByteArray();
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        reply->headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    }
    return n;
}

} // namespace

// What the thread and the object share. The object may go first (a cancelled job): the
// thread then finishes on its own and tells nobody.
struct DirectExchange::Shared {
    std::atomic<bool> aborted{false};
    bool upload = false; // progress counts the bytes sent, else those received
    std::atomic<bool> progressQueued{false};
    std::atomic<qint64> sent{0};
    std::atomic<qint64> total{0};
    std::mutex mutex;
    DirectExchange *owner = nullptr; // guarded by mutex; null once the object is gone

    // Runs call(object) on the object's thread, if the object is still there.
    template <typename Call> void post(Call call) {
        const std::lock_guard lock(mutex);
        if (owner)
            QMetaObject::invokeMethod(
                owner, [self = owner, call = std::move(call)] { call(self); },
                Qt::QueuedConnection);
    }

    void postProgress() {
        if (progressQueued.exchange(true))
            return; // the last one is not delivered yet; it will read the newest figures
        post([this](DirectExchange *self) {
            progressQueued = false;
            Q_EMIT self->progress(sent, total);
        });
    }
};

namespace {

int onTransfer(void *arg, curl_off_t downTotal, curl_off_t downNow, curl_off_t upTotal,
               curl_off_t upNow) {
    auto *shared = static_cast<DirectExchange::Shared *>(arg);
    if (shared->aborted)
        return 1;
    const curl_off_t total = shared->upload ? upTotal : downTotal;
    const curl_off_t now = shared->upload ? upNow : downNow;
    if (now != shared->sent || total != shared->total) {
        shared->sent = now;
        shared->total = total;
        shared->postProgress();
    }
    return 0;
}

// The form's file opened, or why not in reply.
bool openSource(const MultipartForm &form, FileSource &source, DirectReply &reply) {
    source.fd = ::open(QFile::encodeName(form.localPath).constData(), O_RDONLY | O_CLOEXEC);
    struct stat info {};
    if (source.fd < 0 || ::fstat(source.fd, &info) != 0) {
        reply.localReadFailed = true;
        reply.error = QNetworkReply::UnknownContentError;
        if (source.fd >= 0)
            ::close(source.fd);
        source.fd = -1;
        return false;
    }
    source.size = source.remaining = info.st_size;
    ::posix_fadvise(source.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return true;
}

curl_mime *formBody(const CurlApi *lib, CURL *curl, const MultipartForm &form, FileSource &source) {
    curl_mime *mime = lib->mimeInit(curl);
    for (const auto &[name, value] : form.fields) {
        curl_mimepart *part = lib->mimeAddpart(mime);
        lib->mimeName(part, name.constData());
        lib->mimeData(part, value.constData(), size_t(value.size()));
    }
    curl_mimepart *filePart = lib->mimeAddpart(mime);
    lib->mimeName(filePart, form.fileField.constData());
    lib->mimeFilename(filePart, form.fileName.constData());
    lib->mimeType(filePart, form.contentType.constData());
    lib->mimeDataCb(filePart, curl_off_t(source.size), readFile, seekFile, nullptr, &source);
    return mime;
}

DirectReply perform(const DirectExchange::Request &request, DirectExchange::Shared *shared) {
    DirectReply reply;
    FileSource source;
    if (request.form && !openSource(*request.form, source, reply))
        return reply;
    const CurlApi *lib = curlApi();
    CURL *curl = lib ? lib->easyInit() : nullptr;
    if (!curl) {
        reply.error = QNetworkReply::UnknownNetworkError;
        if (source.fd >= 0)
            ::close(source.fd);
        return reply;
    }
    curl_mime *mime = request.form ? formBody(lib, curl, *request.form, source) : nullptr;

    curl_slist *headers = nullptr;
    for (const auto &[name, value] : request.headers) {
        const QByteArray lower = name.toLower();
        // libcurl writes these itself (the form's type, the length, the codings it decodes).
        if ((mime && lower == "content-type") || lower == "content-length" ||
            lower == "accept-encoding")
            continue;
        headers = lib->slistAppend(headers, QByteArray(name + ": " + value).constData());
    }

    const QByteArray url = request.url.toEncoded();
    const long silence = std::max(1L, long(request.silenceMs / 1000));
    Receiver receiver{&reply, &request, lib, curl};
    lib->easySetopt(curl, CURLOPT_URL, url.constData());
    if (mime) {
        lib->easySetopt(curl, CURLOPT_MIMEPOST, mime);
        lib->easySetopt(curl, CURLOPT_UPLOAD_BUFFERSIZE, kUploadBufferBytes);
    } else if (!request.body.isEmpty() || request.verb == "POST") {
        lib->easySetopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
        lib->easySetopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    }
    const bool asPosted = mime || !request.body.isEmpty() || request.verb == "POST";
    const QByteArray custom =
        request.verb == (asPosted ? "POST" : "GET") ? QByteArray() : request.verb;
    lib->easySetopt(curl, CURLOPT_CUSTOMREQUEST, custom.isEmpty() ? nullptr : custom.constData());
    if (request.compressed)
        lib->easySetopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every coding libcurl decodes
    lib->easySetopt(curl, CURLOPT_HTTPHEADER, headers);
    lib->easySetopt(curl, CURLOPT_PROTOCOLS_STR, "http");
    lib->easySetopt(curl, CURLOPT_NOPROXY, "*"); // as the console's network manager: no proxy
    lib->easySetopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib->easySetopt(curl, CURLOPT_BUFFERSIZE, kReceiveBufferBytes);
    lib->easySetopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(request.silenceMs, 30000)));
    lib->easySetopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    lib->easySetopt(curl, CURLOPT_LOW_SPEED_TIME, silence);
    lib->easySetopt(curl, CURLOPT_WRITEFUNCTION, receiveBody);
    lib->easySetopt(curl, CURLOPT_WRITEDATA, &receiver);
    lib->easySetopt(curl, CURLOPT_HEADERFUNCTION, collectHeader);
    lib->easySetopt(curl, CURLOPT_HEADERDATA, &reply);
    lib->easySetopt(curl, CURLOPT_NOPROGRESS, 0L);
    lib->easySetopt(curl, CURLOPT_XFERINFOFUNCTION, onTransfer);
    lib->easySetopt(curl, CURLOPT_XFERINFODATA, shared);

    const CURLcode code = lib->easyPerform(curl);
    long status = 0;
    lib->easyGetinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    reply.httpStatus = code == CURLE_OK ? int(status) : 0;
    if (code != CURLE_OK) {
        reply.error = networkError(code);
        reply.timedOut = code == CURLE_OPERATION_TIMEDOUT;
        reply.localReadFailed = source.failed;
    }
    lib->slistFreeAll(headers);
    if (mime)
        lib->mimeFree(mime);
    lib->easyCleanup(curl);
    if (source.fd >= 0)
        ::close(source.fd);
    return reply;
}

} // namespace

DirectExchange::DirectExchange(Request request, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
    , m_shared(std::make_shared<Shared>()) {
    m_shared->owner = this;
    m_shared->upload = m_request.form.has_value();
}

DirectExchange::~DirectExchange() {
    {
        const std::lock_guard lock(m_shared->mutex);
        m_shared->owner = nullptr;
    }
    m_shared->aborted = true;
    // Not joined: a connect under way would hold the GUI up to the next progress call.
    if (m_thread.joinable())
        m_thread.detach();
}

bool DirectExchange::handles(const QUrl &url) {
    // Without libcurl (not installed, too old) the exchange goes by Qt's stack: slower, not lost.
    return url.scheme() == QLatin1String("http") && curlApi() != nullptr;
}

void DirectExchange::loadAhead() {
    QThreadPool::globalInstance()->start([] { (void)curlApi(); });
}

namespace {
// The exchange threads still running. An aborted one ends at libcurl's next call back, perhaps
// after its object and its job are gone; the process waits for them as its application object
// goes (a post routine), since what they hold and call (the pipe a listing feeds, libcurl's and
// OpenSSL's globals) is torn down after that: a listing cut by the end of a test corrupted the
// heap there.
struct Running {
    std::mutex mutex;
    std::condition_variable ended;
    int count = 0;
};

Running &running() {
    static auto *threads = new Running; // never destroyed: used while the process ends
    return *threads;
}

void awaitRunning() {
    Running &r = running();
    std::unique_lock lock(r.mutex);
    // Aborted, they end within libcurl's next progress call (a second at most); a hung one is
    // not waited for past this.
    r.ended.wait_for(lock, std::chrono::seconds(5), [&r] { return r.count == 0; });
}
} // namespace

void DirectExchange::start() {
    if (m_thread.joinable())
        return;
    static const bool awaited = [] {
        qAddPostRoutine(awaitRunning);
        return true;
    }();
    Q_UNUSED(awaited);
    {
        const std::scoped_lock lock(running().mutex);
        ++running().count;
    }
    m_thread = std::thread([request = std::move(m_request), shared = m_shared]() mutable {
        DirectReply reply = perform(request, shared.get());
        if (!shared->aborted) {
            shared->post([shared, reply = std::move(reply)](DirectExchange *self) {
                if (!shared->aborted)
                    Q_EMIT self->finished(reply);
            });
        }
        // What the request holds (a listing's pipe) goes before the thread is counted out.
        request = {};
        shared.reset();
        Running &r = running();
        const std::scoped_lock lock(r.mutex);
        --r.count;
        r.ended.notify_all();
    });
}

void DirectExchange::abort() {
    m_shared->aborted = true;
}

} // namespace sbx
