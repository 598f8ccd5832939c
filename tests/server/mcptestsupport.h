#pragma once

#include "tests/server/httptestclient.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrl>

// What the MCP suites share: the real MCP servers they run (npm packages installed once into
// the build folder and reused), calls to /v1/mcp/*, and finding an MCP child in /proc.
namespace sbxtest {

// Pinned, so that the tool names the suites call stay as they are.
inline constexpr const char *kEverythingPackage = "@modelcontextprotocol/server-everything";
inline constexpr const char *kEverythingVersion = "2026.8.31";

// The filesystem server, for a tool marked destructive (write_file, move_file).
inline constexpr const char *kFilesystemPackage = "@modelcontextprotocol/server-filesystem";
inline constexpr const char *kFilesystemVersion = "2026.8.31";

// Installs the package with npm under the build folder (once; later runs reuse it) and returns
// the path of its entry script, or an empty string with why set (npm missing or failing).
QString installedEverythingServer(QString *why);
QString installedFilesystemServer(QString *why);
// npm's download cache shared by the suites (and handed to servers that install themselves).
QString npmCacheDir();

// An mcpServers entry that runs server-everything over stdio.
QJsonObject everythingEntry(const QString &script, const QJsonObject &extra = {});
// An mcpServers entry that runs server-filesystem over stdio on these folders.
QJsonObject filesystemEntry(const QString &script, const QStringList &folders);

// One POST /v1/mcp/SERVER/tools/TOOL with these arguments.
HttpResult callTool(const QUrl &base, const QString &server, const QString &tool,
                    const QJsonObject &arguments = {}, const HeaderPairs &headers = {},
                    int timeoutMs = 60000);
// The text of the first text content of a CallToolResult envelope.
QString firstText(const QJsonObject &envelope);

// Processes whose parent is `parent` and whose command line contains `text`.
QList<qint64> childProcesses(qint64 parent, const QByteArray &text);
// Present in /proc (a zombie counts: its parent has not reaped it yet).
bool processExists(qint64 pid);

} // namespace sbxtest
