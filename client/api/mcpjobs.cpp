#include "client/api/mcpjobs.h"

#include "client/api/envelope.h"

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// A server starts on first use, after npm installed it (sandbox-server waits up to 40 s for npm
// before it answers "still being installed").
constexpr int kToolsTimeoutMs = 120000;
// A tool runs as long as it runs (sandbox-server's own per-call bound is 60 s unless
// configured); the user can cancel.
constexpr int kCallTimeoutMs = 600000;

// envelope.h's tolerant readers, for the order-keeping JSON of MCP.
const McpJson &child(const McpJson &j, const char *key) {
    static const McpJson null;
    if (!j.is_object())
        return null;
    const auto it = j.find(key);
    return it == j.end() ? null : *it;
}

QString text(const McpJson &j, const char *key, const QString &fallback = {}) {
    const McpJson &v = child(j, key);
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : fallback;
}

std::optional<bool> optBool(const McpJson &j, const char *key) {
    const McpJson &v = child(j, key);
    return v.is_boolean() ? std::optional<bool>(v.get<bool>()) : std::nullopt;
}

// The envelope's status from parseEnvelope; its data kept in order.
Status parseOrdered(const QByteArray &body, const QString &what, McpJson *data,
                    QString *message = nullptr) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what, &envelope); !s.ok())
        return s;
    if (message)
        *message = envelope.message;
    McpJson whole = McpJson::parse(body.begin(), body.end(), nullptr, false);
    *data = child(whole, "data");
    return Status::success();
}

Status noData(const QString &what) {
    return Status::error(
        Status::Kind::BadResponse,
        QCoreApplication::translate("sbx::McpJob", "%1: the reply had no data").arg(what));
}

// Base64 as MCP sends it; a value that does not decode is kept as not valid, not dropped.
QByteArray decoded(const McpJson &item, const char *key, bool *valid) {
    const QByteArray base64 = text(item, key).toLatin1();
    auto result = QByteArray::fromBase64Encoding(base64, QByteArray::AbortOnBase64DecodingErrors);
    *valid = static_cast<bool>(result);
    return result ? *result : QByteArray();
}

McpContent parseContent(const McpJson &item) {
    McpContent c;
    c.raw = item;
    c.type = text(item, "type");
    c.mimeType = text(item, "mimeType");
    if (c.type == "text"_L1) {
        c.kind = McpContent::Kind::Text;
        c.text = text(item, "text");
    } else if (c.type == "image"_L1 || c.type == "audio"_L1) {
        c.kind = c.type == "image"_L1 ? McpContent::Kind::Image : McpContent::Kind::Audio;
        c.data = decoded(item, "data", &c.dataValid);
    } else if (c.type == "resource_link"_L1) {
        c.kind = McpContent::Kind::ResourceLink;
        c.uri = text(item, "uri");
        c.name = text(item, "name");
        c.title = text(item, "title");
        c.description = text(item, "description");
        if (const McpJson &size = child(item, "size"); size.is_number())
            c.size = size.is_number_integer() ? size.get<qint64>()
                                              : static_cast<qint64>(size.get<double>());
    } else if (c.type == "resource"_L1) {
        c.kind = McpContent::Kind::Resource;
        const McpJson &resource = child(item, "resource");
        c.uri = text(resource, "uri");
        c.mimeType = text(resource, "mimeType");
        if (child(resource, "blob").is_string())
            c.data = decoded(resource, "blob", &c.dataValid);
        else
            c.text = text(resource, "text");
    }
    return c;
}

} // namespace

bool isNoMcpApi(const Status &status) {
    return status.kind == Status::Kind::NotFound && status.httpStatus == 404;
}

QString mcpToolPath(const QString &server, const QString &tool) {
    // Endpoint::resolve sets the path decoded, and QUrl encodes it: names go as they are (a
    // space becomes %20). A '/' in a name cannot be sent; MCP's names do not have one.
    return u"v1/mcp/"_s + server + u"/tools/"_s + tool;
}

McpTool parseMcpTool(const McpJson &t) {
    McpTool tool;
    tool.name = text(t, "name");
    tool.description = text(t, "description");
    const McpJson &schema = child(t, "inputSchema");
    tool.inputSchema = schema.is_object() ? schema : McpJson::object();
    tool.outputSchema = child(t, "outputSchema");
    const McpJson &a = child(t, "annotations");
    tool.annotations = {text(a, "title"), optBool(a, "readOnlyHint"), optBool(a, "destructiveHint"),
                        optBool(a, "idempotentHint"), optBool(a, "openWorldHint")};
    tool.title = text(t, "title", tool.annotations.title);
    return tool;
}

McpToolList parseMcpToolList(const McpJson &data) {
    McpToolList list;
    for (const McpJson &t : child(data, "tools")) {
        if (t.is_object() && !text(t, "name").isEmpty())
            list.tools.append(parseMcpTool(t));
    }
    list.nextCursor = text(data, "nextCursor");
    return list;
}

McpCallResult parseMcpCallResult(const McpJson &data) {
    McpCallResult result;
    result.raw = data;
    for (const McpJson &item : child(data, "content")) {
        if (item.is_object())
            result.content.append(parseContent(item));
    }
    result.structuredContent = child(data, "structuredContent");
    result.isError = child(data, "isError") == true;
    return result;
}

McpServersJob::McpServersJob(SandboxClient *client, bool includeHidden)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(u"v1/mcp/servers"_s);
        if (includeHidden)
            r.query.addQueryItem(u"include_hidden"_s, u"true"_s);
        return r;
    }()) {}

Status McpServersJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Envelope envelope;
    if (Status s = parseEnvelope(body, what(), &envelope); !s.ok())
        return s;
    if (!envelope.data.is_array())
        return noData(what());
    for (const nlohmann::json &name : envelope.data) {
        if (name.is_string())
            m_servers << QString::fromStdString(name.get<std::string>());
    }
    return Status::success();
}

McpToolsJob::McpToolsJob(SandboxClient *client, const QString &server, const QString &cursor)
    : ApiJob(client, [&] {
        ApiRequest r = ApiRequest::get(u"v1/mcp/"_s + server + u"/tools"_s);
        if (!cursor.isEmpty())
            r.query.addQueryItem(u"cursor"_s, cursor);
        r.timeoutMs = kToolsTimeoutMs;
        return r;
    }()) {}

Status McpToolsJob::parseReply(const QByteArray &body, QNetworkReply *) {
    McpJson data;
    if (Status s = parseOrdered(body, what(), &data); !s.ok())
        return s;
    if (!child(data, "tools").is_array())
        return noData(what());
    m_list = parseMcpToolList(data);
    return Status::success();
}

McpCallToolJob::McpCallToolJob(SandboxClient *client, const QString &server, const QString &tool,
                               const McpJson &arguments)
    : ApiJob(client, [&] {
        ApiRequest r =
            ApiRequest::postJson(mcpToolPath(server, tool),
                                 QByteArray::fromStdString(
                                     (arguments.is_object() ? arguments : McpJson::object())
                                         .dump(-1, ' ', false, McpJson::error_handler_t::replace)));
        r.timeoutMs = kCallTimeoutMs;
        return r;
    }()) {}

Status McpCallToolJob::parseReply(const QByteArray &body, QNetworkReply *) {
    McpJson data;
    QString message;
    if (Status s = parseOrdered(body, what(), &data, &message); !s.ok())
        return s;
    if (!data.is_object())
        return noData(what());
    m_result = parseMcpCallResult(data);
    m_result.message = message;
    return Status::success();
}

} // namespace sbx
