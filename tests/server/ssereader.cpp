#include "tests/server/ssereader.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace sbxtest {

SseReader::SseReader(QNetworkAccessManager &manager, const QUrl &url,
                     const QByteArray &lastEventId) {
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "text/event-stream");
    if (!lastEventId.isEmpty())
        request.setRawHeader("Last-Event-ID", lastEventId);
    m_reply.reset(manager.get(request));
    QObject::connect(m_reply.get(), &QNetworkReply::readyRead, m_reply.get(), [this] {
        m_buffer += m_reply->readAll();
        parse();
    });
}

SseReader::~SseReader() {
    if (m_reply)
        m_reply->abort();
}

QList<SseFrame> SseReader::changes() const {
    QList<SseFrame> out;
    for (const SseFrame &frame : m_frames) {
        if (frame.event == "file_change")
            out << frame;
    }
    return out;
}

bool SseReader::has(const QByteArray &event) const {
    for (const SseFrame &frame : m_frames) {
        if (frame.event == event)
            return true;
    }
    return false;
}

int SseReader::heartbeats() const {
    int n = 0;
    for (const SseFrame &frame : m_frames)
        n += frame.comment && frame.data.contains("heartbeat") ? 1 : 0;
    return n;
}

void SseReader::parse() {
    for (;;) {
        const qsizetype end = m_buffer.indexOf("\n\n");
        if (end < 0)
            return;
        const QByteArray block = m_buffer.left(end);
        m_buffer.remove(0, end + 2);
        SseFrame frame;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith(':')) {
                frame.comment = true;
                frame.data += line.mid(1).trimmed();
            } else if (line.startsWith("id: ")) {
                frame.id = line.mid(4);
            } else if (line.startsWith("event: ")) {
                frame.event = line.mid(7);
            } else if (line.startsWith("data: ")) {
                frame.data += line.mid(6);
            }
        }
        m_frames << frame;
    }
}

} // namespace sbxtest
