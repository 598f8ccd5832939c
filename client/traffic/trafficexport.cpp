#include "client/traffic/trafficexport.h"

#include "client/traffic/redaction.h"

#include <QHash>
#include <QUrl>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {

// Inside "...": what the shell would expand or end the string at.
QString escapeDouble(const QString &text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == u'\\' || c == u'"' || c == u'`' || c == u'$')
            out += u'\\';
        out += c;
    }
    return out;
}

QString singleQuoted(const QString &text) {
    QString out = text;
    out.replace(u"'"_s, u"'\\''"_s);
    return u'\'' + out + u'\'';
}

// The variable that stands for a redacted value of this header or query item.
QString variableFor(QByteArrayView name) {
    const QByteArray n = name.toByteArray().toLower();
    if (n == "x-aio-api-key" || n == "api_key")
        return QString::fromLatin1(kCurlApiKeyVariable);
    if (n == "authorization")
        return QString::fromLatin1(kCurlJwtVariable);
    if (n == "ticket")
        return QString::fromLatin1(kCurlTicketVariable);
    if (n == "cookie")
        return u"SANDBOX_COOKIE"_s;
    return u"SANDBOX_SECRET"_s;
}

// A double-quoted shell word of text, each mask in it replaced by $variable.
QString withVariables(const QString &text, const QString &variable) {
    const QStringList parts = text.split(Redaction::maskText());
    QStringList escaped;
    escaped.reserve(parts.size());
    for (const QString &part : parts)
        escaped << escapeDouble(part);
    return u'"' + escaped.join(u'$' + variable) + u'"';
}

QString curlUrl(const TrafficEntry &entry) {
    QUrl url(entry.url);
    if (entry.kind == TrafficKind::Socket)
        url.setScheme(url.scheme() == u"wss"_s ? u"https"_s : u"http"_s);
    const QList<QPair<QString, QString>> items = QUrlQuery(url).queryItems(QUrl::FullyDecoded);
    QString text = escapeDouble(
        QString::fromUtf8(url.adjusted(QUrl::RemoveQuery).toEncoded(QUrl::FullyEncoded)));
    for (qsizetype i = 0; i < items.size(); ++i) {
        const auto &[name, value] = items.at(i);
        text +=
            (i == 0 ? u'?' : u'&') + QString::fromLatin1(QUrl::toPercentEncoding(name)) + u'=' +
            (value == Redaction::maskText() ? u'$' + variableFor(name.toUtf8())
                                            : QString::fromLatin1(QUrl::toPercentEncoding(value)));
    }
    return u'"' + text + u'"';
}

QString headerArgument(const QByteArray &name, const QByteArray &value) {
    const QString line = QString::fromUtf8(name) + u": "_s + QString::fromUtf8(value);
    return u"-H "_s + withVariables(line, variableFor(name));
}

json harHeaders(const RawHeaders &headers) {
    json out = json::array();
    for (const auto &[name, value] : headers)
        out.push_back({{"name", name.toStdString()}, {"value", value.toStdString()}});
    return out;
}

json harQuery(const QString &url) {
    json out = json::array();
    const QList<QPair<QString, QString>> items =
        QUrlQuery(QUrl(url)).queryItems(QUrl::FullyDecoded);
    for (const auto &[name, value] : items)
        out.push_back({{"name", name.toStdString()}, {"value", value.toStdString()}});
    return out;
}

std::string keptNote(const TrafficBody &body, bool detailsKept) {
    if (body.streamed)
        return "a file's bytes: streamed, not recorded";
    if (!detailsKept && body.size > 0)
        return "not kept (the inspector was closed, or its memory budget was reached)";
    if (body.size > body.kept.size())
        return "the first " + std::to_string(body.kept.size()) + " of " +
               std::to_string(body.size) + " bytes";
    return {};
}

json harContent(const TrafficBody &body, bool detailsKept) {
    json content{{"size", std::max<qint64>(body.size, 0)},
                 {"mimeType", body.mimeType.toStdString()}};
    if (!body.kept.isEmpty()) {
        if (isTextualBody(body.mimeType, body.kept)) {
            content["text"] = body.kept.toStdString();
        } else {
            content["text"] = body.kept.toBase64().toStdString();
            content["encoding"] = "base64";
        }
    }
    if (const std::string note = keptNote(body, detailsKept); !note.empty())
        content["comment"] = note;
    return content;
}

json harEntry(const TrafficEntry &e) {
    const qint64 elapsed = std::max<qint64>(0, e.elapsedMs);
    const qint64 wait = e.waitMs >= 0 ? std::min(e.waitMs, elapsed) : elapsed;
    const qint64 receive = elapsed - wait;
    json request{{"method", e.method.toStdString()},
                 {"url", e.url.toStdString()},
                 {"httpVersion", "HTTP/1.1"},
                 {"cookies", json::array()},
                 {"headers", harHeaders(e.requestHeaders)},
                 {"queryString", harQuery(e.url)},
                 {"headersSize", -1},
                 {"bodySize", e.request.size}};
    if (e.request.size > 0) {
        json post{{"mimeType", e.request.mimeType.toStdString()}, {"params", json::array()}};
        post["text"] = isTextualBody(e.request.mimeType, e.request.kept)
                           ? e.request.kept.toStdString()
                           : e.request.kept.toBase64().toStdString();
        if (const std::string note = keptNote(e.request, e.detailsKept); !note.empty())
            post["comment"] = note;
        request["postData"] = std::move(post);
    }
    QByteArray location;
    for (const auto &[name, value] : e.responseHeaders) {
        if (name.compare("Location", Qt::CaseInsensitive) == 0)
            location = value;
    }
    json response{{"status", e.status},
                  {"statusText", e.statusText.toStdString()},
                  {"httpVersion", e.httpVersion.toStdString()},
                  {"cookies", json::array()},
                  {"headers", harHeaders(e.responseHeaders)},
                  {"content", harContent(e.response, e.detailsKept)},
                  {"redirectURL", location.toStdString()},
                  {"headersSize", -1},
                  {"bodySize", e.response.size}};
    json entry{{"startedDateTime", e.started.toString(Qt::ISODateWithMs).toStdString()},
               {"time", elapsed},
               {"request", std::move(request)},
               {"response", std::move(response)},
               {"cache", json::object()},
               {"timings", {{"send", 0}, {"wait", wait}, {"receive", receive}}},
               {"_sandbox", e.sandbox.toStdString()}};
    if (!e.error.isEmpty())
        entry["_error"] = e.error.toStdString();
    else if (!e.finished)
        entry["_error"] = "in progress when exported";
    return entry;
}

json harMessage(const TrafficEntry &m) {
    const TrafficBody &body = m.direction == TrafficDirection::Sent ? m.request : m.response;
    return {{"type", m.direction == TrafficDirection::Sent ? "send" : "receive"},
            {"time", double(m.started.toMSecsSinceEpoch()) / 1000.0},
            {"opcode", 1},
            {"data", body.kept.toStdString()}};
}

} // namespace

QString curlCommand(const TrafficEntry &entry) {
    if (entry.isMessage() || entry.url.isEmpty())
        return {};
    QStringList notes;
    QStringList args{u"curl -sS"_s};
    const bool hasBody = entry.request.size > 0 || entry.request.streamed;
    if (entry.kind == TrafficKind::Socket) {
        args << u"-i -N"_s << u"-H \"Connection: Upgrade\""_s << u"-H \"Upgrade: websocket\""_s
             << u"-H \"Sec-WebSocket-Version: 13\""_s
             << u"-H \"Sec-WebSocket-Key: $(openssl rand -base64 16)\""_s;
    } else if (entry.method != "GET" || hasBody) {
        args << u"-X "_s + QString::fromLatin1(entry.method);
    }
    if (entry.detailsKept) {
        for (const auto &[name, value] : entry.requestHeaders)
            args << headerArgument(name, value);
    } else {
        if (entry.auth == TrafficAuth::ApiKeyHeader)
            args << headerArgument("X-AIO-API-Key", Redaction::mask());
        else if (entry.auth == TrafficAuth::Bearer)
            args << headerArgument("Authorization", "Bearer " + Redaction::mask());
        if (hasBody && !entry.request.mimeType.isEmpty())
            args << headerArgument("Content-Type", entry.request.mimeType);
    }
    if (hasBody) {
        const TrafficBody &body = entry.request;
        if (entry.detailsKept && body.complete() && isTextualBody(body.mimeType, body.kept)) {
            args << u"--data-binary "_s + singleQuoted(QString::fromUtf8(body.kept));
            if (body.kept.contains(Redaction::mask()))
                notes << u"# Values shown as %1 were redacted when the request was recorded."_s.arg(
                    Redaction::maskText());
        } else {
            notes << u"# The request body (%1) was not recorded: save it as request-body.bin."_s
                         .arg(body.size >= 0 ? u"%1 bytes"_s.arg(body.size) : u"streamed"_s);
            args << u"--data-binary @request-body.bin"_s;
        }
    }
    if (entry.auth == TrafficAuth::TicketQuery)
        notes << u"# A ticket is good for one use: mint $%1 with POST /tickets."_s.arg(
            QString::fromLatin1(kCurlTicketVariable));
    args << curlUrl(entry);
    QString text = notes.join(u'\n');
    if (!text.isEmpty())
        text += u'\n';
    return text + args.join(u" \\\n  "_s);
}

QByteArray harDocument(const QList<TrafficEntry> &entries, const QString &creatorVersion) {
    QHash<quint64, json> messages; // by the handshake's serial
    for (const TrafficEntry &e : entries) {
        if (e.kind == TrafficKind::SocketMessage && e.socketSerial != 0)
            messages[e.socketSerial].push_back(harMessage(e));
    }
    json list = json::array();
    for (const TrafficEntry &e : entries) {
        if (e.isMessage())
            continue;
        json entry = harEntry(e);
        if (e.kind == TrafficKind::Socket)
            entry["_webSocketMessages"] =
                messages.contains(e.serial) ? messages.value(e.serial) : json::array();
        list.push_back(std::move(entry));
    }
    const json har{
        {"log",
         {{"version", "1.2"},
          {"creator", {{"name", "Sandbox Console"}, {"version", creatorVersion.toStdString()}}},
          {"entries", std::move(list)}}}};
    // Replacement characters for bytes a cut body split: a HAR must be valid UTF-8.
    return QByteArray::fromStdString(har.dump(2, ' ', false, json::error_handler_t::replace));
}

} // namespace sbx
