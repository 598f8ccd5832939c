#include "models/traffic/trafficformat.h"

#include <QCoreApplication>
#include <QLocale>

#include <nlohmann/json.hpp>

namespace sbx::TrafficFormat {

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kHexBytes = 256; // of a binary body, dumped

QString arrow(TrafficDirection direction) {
    return direction == TrafficDirection::Sent ? u"↑"_s : u"↓"_s;
}

QString hexDump(const QByteArray &bytes) {
    QString out;
    for (qsizetype row = 0; row < bytes.size(); row += 16) {
        out += u"%1 "_s.arg(qlonglong(row), 8, 16, QChar(u'0'));
        QString ascii;
        for (qsizetype i = row; i < row + 16; ++i) {
            if (i < bytes.size()) {
                const auto c = static_cast<unsigned char>(bytes[i]);
                out += u" %1"_s.arg(uint(c), 2, 16, QChar(u'0'));
                ascii += (c >= 0x20 && c < 0x7f) ? QChar(char16_t(c)) : QChar(u'.');
            } else {
                out += u"   "_s;
            }
        }
        out += u"  |"_s + ascii + u"|\n"_s;
    }
    return out;
}

bool looksLikeJson(const TrafficBody &body) {
    if (body.mimeType.toLower().contains("json"))
        return true;
    const QByteArray start = body.kept.left(16).trimmed();
    return start.startsWith('{') || start.startsWith('[');
}

QString headerLines(const RawHeaders &headers) {
    QString out;
    for (const auto &[name, value] : headers)
        out += QString::fromUtf8(name) + u": "_s + QString::fromUtf8(value) + u'\n';
    return out.isEmpty() ? QCoreApplication::translate("sbx::TrafficFormat", "(none)") + u'\n'
                         : out;
}

} // namespace

QString size(qint64 bytes) {
    if (bytes < 0)
        return u"?"_s;
    return QLocale().formattedDataSize(bytes, bytes < 1024 ? 0 : 1, QLocale::DataSizeIecFormat);
}

QString duration(qint64 ms) {
    if (ms < 0)
        return {};
    if (ms < 1000)
        return QCoreApplication::translate("sbx::TrafficFormat", "%1 ms").arg(ms);
    return QCoreApplication::translate("sbx::TrafficFormat", "%1 s")
        .arg(QLocale().toString(double(ms) / 1000.0, 'f', ms < 10000 ? 2 : 1));
}

QString status(const TrafficEntry &e) {
    if (e.isMessage())
        return {};
    if (!e.finished)
        return u"…"_s;
    if (e.status > 0)
        return QString::number(e.status);
    return QCoreApplication::translate("sbx::TrafficFormat", "failed");
}

QString path(const TrafficEntry &e) {
    switch (e.kind) {
    case TrafficKind::Http:
    case TrafficKind::Socket:
        return e.path;
    case TrafficKind::SocketMessage:
        return e.path + u"  "_s + arrow(e.direction) + u' ' + QString::fromUtf8(e.messageType);
    case TrafficKind::SocketFrames: {
        const qint64 bytes =
            e.direction == TrafficDirection::Sent ? e.request.size : e.response.size;
        return e.path + u"  "_s + arrow(e.direction) + u' ' +
               QCoreApplication::translate("sbx::TrafficFormat", "%1: %n frame(s), %2 in 1 s",
                                           nullptr, e.frames)
                   .arg(QString::fromUtf8(e.messageType), size(bytes));
    }
    }
    return e.path;
}

QString summary(const TrafficEntry &e) {
    QString what = e.isMessage()
                       ? QCoreApplication::translate("sbx::TrafficFormat", "WebSocket %1 %2")
                             .arg(arrow(e.direction), path(e))
                       : QString::fromLatin1(e.method) + u' ' + e.url;
    QString outcome;
    if (e.isMessage()) {
        outcome.clear();
    } else if (!e.finished) {
        outcome = QCoreApplication::translate("sbx::TrafficFormat", "in flight");
    } else if (e.status > 0) {
        outcome =
            QString(QString::number(e.status) + u' ' + QString::fromLatin1(e.statusText)).trimmed();
        if (!e.error.isEmpty())
            outcome += u" — "_s + e.error;
    } else {
        outcome = QCoreApplication::translate("sbx::TrafficFormat", "failed: %1").arg(e.error);
    }
    QStringList parts{what};
    if (!outcome.isEmpty())
        parts << outcome;
    if (e.finished && e.elapsedMs >= 0 && !e.isMessage())
        parts << duration(e.elapsedMs);
    parts << QCoreApplication::translate("sbx::TrafficFormat", "sandbox %1").arg(e.sandbox);
    parts << QLocale().toString(e.started.toLocalTime().time(), u"HH:mm:ss.zzz"_s);
    return parts.join(u" · "_s);
}

QString headers(const TrafficEntry &e) {
    if (e.kind == TrafficKind::SocketMessage || e.kind == TrafficKind::SocketFrames)
        return QCoreApplication::translate(
            "sbx::TrafficFormat",
            "WebSocket messages have no headers; see the socket's handshake.");
    if (!e.detailsKept)
        return QCoreApplication::translate(
            "sbx::TrafficFormat",
            "Headers are kept only while the inspector is open, and within its memory "
            "budget.");
    QString out = QCoreApplication::translate("sbx::TrafficFormat", "Request headers") + u'\n' +
                  headerLines(e.requestHeaders);
    out += u'\n' + QCoreApplication::translate("sbx::TrafficFormat", "Response headers") + u'\n';
    if (!e.finished)
        out += QCoreApplication::translate("sbx::TrafficFormat", "(in flight)") + u'\n';
    else if (e.kind == TrafficKind::Socket && e.status == 101)
        out += QCoreApplication::translate(
                   "sbx::TrafficFormat",
                   "(the socket opened; its response headers are not available)") +
               u'\n';
    else
        out += headerLines(e.responseHeaders);
    return out;
}

QString body(const TrafficEntry &e, TrafficDirection which) {
    const TrafficBody &b = which == TrafficDirection::Sent ? e.request : e.response;
    if (e.kind == TrafficKind::SocketFrames) {
        if (which != e.direction)
            return QCoreApplication::translate("sbx::TrafficFormat", "(none)");
        return QCoreApplication::translate(
                   "sbx::TrafficFormat",
                   "%n %1 frame(s), %2 in 1 s. Terminal output and input are summarised per "
                   "second; their contents are not recorded.",
                   nullptr, e.frames)
            .arg(QString::fromUtf8(e.messageType), size(b.size));
    }
    if (e.isMessage() && which != e.direction)
        return QCoreApplication::translate("sbx::TrafficFormat", "(none)");
    if (b.streamed)
        return QCoreApplication::translate(
                   "sbx::TrafficFormat",
                   "%1, streamed: a file's bytes are counted, never recorded.")
            .arg(b.size >= 0 ? size(b.size)
                             : QCoreApplication::translate("sbx::TrafficFormat", "size unknown"));
    if (b.size == 0 && b.kept.isEmpty())
        return which == TrafficDirection::Received && !e.finished
                   ? QCoreApplication::translate("sbx::TrafficFormat", "(in flight)")
                   : QCoreApplication::translate("sbx::TrafficFormat", "(no body)");
    if (!e.detailsKept || b.kept.isEmpty())
        return QCoreApplication::translate(
                   "sbx::TrafficFormat",
                   "%1. Bodies are kept only while the inspector is open, and within its memory "
                   "budget.")
            .arg(size(b.size));
    const bool cut = b.size > b.covered;
    const QString rest =
        cut ? u"\n\n"_s + QCoreApplication::translate(
                              "sbx::TrafficFormat", "… %1 more not kept (the first %2 are shown).")
                              .arg(size(b.size - b.covered), size(b.covered))
            : QString();
    if (!isTextualBody(b.mimeType, b.kept)) {
        return QCoreApplication::translate("sbx::TrafficFormat",
                                           "%1 of binary data (%2). The first %3:")
                   .arg(size(b.size), QString::fromUtf8(b.mimeType))
                   .arg(size(std::min(kHexBytes, b.kept.size()))) +
               u"\n\n"_s + hexDump(b.kept.left(kHexBytes));
    }
    if (!cut && looksLikeJson(b)) {
        // ordered_json: the fields in the order the server sent them.
        const auto json = nlohmann::ordered_json::parse(b.kept.toStdString(), nullptr, false);
        if (!json.is_discarded())
            return QString::fromStdString(
                json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    }
    return QString::fromUtf8(b.kept) + rest;
}

} // namespace sbx::TrafficFormat
