#include "client/api/sandboxjobs.h"

#include "client/api/envelope.h"

#include <QCoreApplication>
#include <QNetworkReply>
#include <QStringDecoder>

namespace sbx {

using namespace Qt::StringLiterals;

using nlohmann::json;

namespace {

QList<ToolSpec> toolSpecs(const json &array) {
    QList<ToolSpec> out;
    if (!array.is_array())
        return out;
    for (const json &item : array) {
        if (item.is_object())
            out.append(
                {jsonString(item, "ver"), jsonString(item, "bin"), jsonStringList(item, "alias")});
    }
    return out;
}

QList<ToolCategory> toolCategories(const json &array) {
    QList<ToolCategory> out;
    if (!array.is_array())
        return out;
    for (const json &item : array) {
        if (!item.is_object())
            continue;
        ToolCategory category{jsonString(item, "category"), {}};
        const json &tools = jsonChild(item, "tools");
        if (tools.is_array()) {
            for (const json &tool : tools) {
                if (tool.is_object())
                    category.tools.append(
                        {jsonString(tool, "name"), jsonString(tool, "description")});
            }
        }
        out.append(category);
    }
    return out;
}

} // namespace

Status parseSandboxContext(const QByteArray &body, SandboxContext *out) {
    const QString what = u"GET /v1/sandbox"_s;
    Envelope envelope;
    if (Status s = parseEnvelope(body, what, &envelope); !s.ok())
        return s;
    const json &j = envelope.raw;
    // The flat SandboxResponse: version and detail are required by AIO's schema. Without them this
    // is some other JSON service, and saying so beats showing an empty overview.
    const json &detail = jsonChild(j, "detail");
    if (!jsonChild(j, "version").is_string() || !detail.is_object())
        return Status::error(
            Status::Kind::BadResponse,
            QCoreApplication::translate("sbx::GetContextJob",
                                        "%1: the reply has no version or detail; the address does "
                                        "not look like an AIO sandbox")
                .arg(what));
    const json &system = jsonChild(detail, "system");
    const json &runtime = jsonChild(detail, "runtime");
    out->version = jsonString(j, "version");
    out->homeDir = jsonString(j, "home_dir", jsonString(system, "home_dir"));
    out->workspace = jsonString(j, "workspace", jsonString(system, "workspace"));
    out->summary = jsonChild(j, "data").is_string() ? jsonString(j, "data") : QString();
    out->os = jsonString(system, "os");
    out->osVersion = jsonString(system, "os_version");
    out->arch = jsonString(system, "arch");
    out->user = jsonString(system, "user");
    out->timezone = jsonString(system, "timezone");
    out->occupiedPorts = jsonStringList(system, "occupied_ports");
    out->python = toolSpecs(jsonChild(runtime, "python"));
    out->nodejs = toolSpecs(jsonChild(runtime, "nodejs"));
    out->utils = toolCategories(jsonChild(detail, "utils"));
    out->extensions = jsonStringList(j, "extensions");
    return Status::success();
}

GetContextJob::GetContextJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"v1/sandbox"_s)) {}

Status GetContextJob::parseReply(const QByteArray &body, QNetworkReply *) {
    Status s = parseSandboxContext(body, &m_result);
    if (s.ok() && client())
        client()->setExtensions(m_result.extensions);
    return s;
}

ProbeJob::ProbeJob(SandboxClient *client, int timeoutMs)
    : ApiJob(client, [timeoutMs] {
        ApiRequest r = ApiRequest::get(u"v1/sandbox"_s);
        r.timeoutMs = timeoutMs;
        r.idempotent = false; // a probe reports what it saw; the next poll is the retry
        return r;
    }()) {}

Status ProbeJob::parseReply(const QByteArray &body, QNetworkReply *) {
    SandboxContext context;
    Status s = parseSandboxContext(body, &context);
    if (!s.ok())
        return s;
    m_result = {elapsedMs(), context.version, context.extensions};
    if (client())
        client()->setExtensions(context.extensions);
    return s;
}

GetLlmsTxtJob::GetLlmsTxtJob(SandboxClient *client)
    : ApiJob(client, ApiRequest::get(u"llms.txt"_s)) {}

Status GetLlmsTxtJob::parseReply(const QByteArray &body, QNetworkReply *reply) {
    const QString type = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    if (type.startsWith(QLatin1String("text/html")))
        return Status::error(Status::Kind::BadResponse,
                             tr("GET /llms.txt returned a web page, not the agent manual"));
    QStringDecoder decoder(QStringDecoder::Utf8);
    m_text = decoder(body);
    if (decoder.hasError() || body.contains('\0'))
        return Status::error(Status::Kind::BadResponse, tr("GET /llms.txt is not UTF-8 text"));
    return Status::success();
}

MintTicketJob::MintTicketJob(SandboxClient *client)
    : ApiJob(client, [] {
        // AIO documents no body for POST /tickets.
        ApiRequest r;
        r.verb = "POST";
        r.path = u"tickets"_s;
        r.idempotent = false;
        return r;
    }()) {}

Status MintTicketJob::parseReply(const QByteArray &body, QNetworkReply *) {
    json j;
    if (Status s = parseJsonObject(body, what(), &j); !s.ok())
        return s;
    // AIO answers a plain {ticket, expires_in}; tolerate an envelope around it too.
    const json &source = jsonChild(j, "ticket").is_string() ? j : jsonChild(j, "data");
    m_ticket.ticket = jsonString(source, "ticket");
    m_ticket.expiresInSeconds = static_cast<int>(jsonInt(source, "expires_in", 30));
    if (m_ticket.ticket.isEmpty())
        return Status::error(Status::Kind::BadResponse,
                             tr("POST /tickets: the reply holds no ticket"));
    return Status::success();
}

} // namespace sbx
