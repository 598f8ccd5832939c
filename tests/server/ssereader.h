#pragma once

#include <QByteArray>
#include <QList>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace sbxtest {

struct SseFrame {
    QByteArray id;
    QByteArray event;
    QByteArray data;
    bool comment = false;
};

// Reads an SSE response (GET with Accept: text/event-stream) as it arrives and splits it into
// frames on blank lines, for the suites of the server's streams.
class SseReader final {
public:
    SseReader(QNetworkAccessManager &manager, const QUrl &url, const QByteArray &lastEventId = {});
    ~SseReader();
    SseReader(const SseReader &) = delete;
    SseReader &operator=(const SseReader &) = delete;

    QNetworkReply &reply() { return *m_reply; }
    const QList<SseFrame> &frames() const { return m_frames; }
    // The file_change frames.
    QList<SseFrame> changes() const;
    bool has(const QByteArray &event) const;
    int heartbeats() const;

private:
    void parse();

    std::unique_ptr<QNetworkReply> m_reply;
    QByteArray m_buffer;
    QList<SseFrame> m_frames;
};

} // namespace sbxtest
