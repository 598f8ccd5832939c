#pragma once

#include "client/api/apijob.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QMetaType>
#include <QStringList>

#include <optional>

namespace sbx {

// MCP's JSON keeps its key order (a schema's properties are a form's fields, in order).
using McpJson = nlohmann::ordered_json;

// MCP's ToolAnnotations: hints only, each absent unless the server says. What an absent hint
// means is MCP's default (readOnly false, destructive true, idempotent false, openWorld true).
struct McpToolAnnotations {
    QString title;
    std::optional<bool> readOnly;
    std::optional<bool> destructive;
    std::optional<bool> idempotent;
    std::optional<bool> openWorld;
};

// One tool of MCP's ListToolsResult. The schemas are kept as the server sent them.
struct McpTool {
    QString name;
    QString title; // the tool's title, else its annotations' title; may be empty
    QString description;
    McpJson inputSchema = McpJson::object();
    McpJson outputSchema; // null when the tool declares none
    McpToolAnnotations annotations;

    QString displayName() const { return title.isEmpty() ? name : title; }
};

struct McpToolList {
    QList<McpTool> tools;
    // Set when the server has more pages (AIO passes MCP's cursor through); empty: the last.
    QString nextCursor;
};

// One content item of a CallToolResult. Binary data (image, audio, a blob resource) arrives
// base64-encoded and is decoded here.
struct McpContent {
    enum class Kind { Text, Image, Audio, ResourceLink, Resource, Unknown };
    Kind kind = Kind::Unknown;
    QString type;          // as sent, for items of a type this console does not know
    QString text;          // text; a text resource's contents
    QByteArray data;       // image or audio bytes; a blob resource's bytes
    bool dataValid = true; // false when the base64 did not decode
    QString mimeType;
    // resource_link and embedded resources.
    QString uri;
    QString name;
    QString title;
    QString description;
    std::optional<qint64> size;
    McpJson raw; // the item as sent
};

// MCP's CallToolResult.
struct McpCallResult {
    QList<McpContent> content;
    McpJson structuredContent; // null when absent
    bool isError = false;
    QString message; // the envelope's message ("Tool 'echo' executed")
    McpJson raw;
};

// Whether a failed MCP call means the sandbox has no MCP API (a 404 on /v1/mcp/servers).
bool isNoMcpApi(const Status &status);

// Parsers of the envelope's data, exposed for fixture tests.
McpToolList parseMcpToolList(const McpJson &data);
McpTool parseMcpTool(const McpJson &tool);
McpCallResult parseMcpCallResult(const McpJson &data);

// The path of a call, relative to the endpoint: v1/mcp/SERVER/tools/TOOL (decoded, as
// Endpoint::resolve takes paths).
QString mcpToolPath(const QString &server, const QString &tool);

// GET /v1/mcp/servers?include_hidden=...: the names of the sandbox's MCP servers.
class McpServersJob final : public ApiJob {
    Q_OBJECT
public:
    explicit McpServersJob(SandboxClient *client, bool includeHidden = false);
Q_SIGNALS:
    void succeeded(const QStringList &servers);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_servers); }

private:
    QStringList m_servers;
};

// GET /v1/mcp/{server}/tools. A server starts on first use (npm may install it first), so the
// silence allowed is long. AIO's contract has no cursor parameter; `cursor` is sent as a query
// item only when given, for a server that pages.
class McpToolsJob final : public ApiJob {
    Q_OBJECT
public:
    McpToolsJob(SandboxClient *client, const QString &server, const QString &cursor = {});
Q_SIGNALS:
    void succeeded(const sbx::McpToolList &list);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_list); }

private:
    McpToolList m_list;
};

// POST /v1/mcp/{server}/tools/{tool} with the arguments object as the body. A tool's own error
// is a success with isError set; the job fails only when the call could not be made. Never
// retried: a tool may not be idempotent.
class McpCallToolJob final : public ApiJob {
    Q_OBJECT
public:
    McpCallToolJob(SandboxClient *client, const QString &server, const QString &tool,
                   const McpJson &arguments);
Q_SIGNALS:
    void succeeded(const sbx::McpCallResult &result);

protected:
    Status parseReply(const QByteArray &body, QNetworkReply *reply) override;
    void emitSucceeded() override { Q_EMIT succeeded(m_result); }
    bool shouldRetry(const Status &) override { return false; }

private:
    McpCallResult m_result;
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::McpToolList)
Q_DECLARE_METATYPE(sbx::McpCallResult)
