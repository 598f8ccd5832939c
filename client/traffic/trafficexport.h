#pragma once

#include "client/traffic/trafficentry.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sbx {

// The environment variables a copied curl command reads credentials from.
inline constexpr char kCurlApiKeyVariable[] = "SANDBOX_API_KEY";
inline constexpr char kCurlJwtVariable[] = "SANDBOX_JWT";
inline constexpr char kCurlTicketVariable[] = "SANDBOX_TICKET";

// "Copy as curl": the entry's request as a shell command. Credentials come from environment
// variables ($SANDBOX_API_KEY, $SANDBOX_JWT, $SANDBOX_TICKET), never from the entry, which holds
// none. Empty for socket messages, which curl cannot send.
QString curlCommand(const TrafficEntry &entry);

// A HAR 1.2 log of these entries: HTTP exchanges and WebSocket handshakes (with their messages in
// _webSocketMessages, as browsers export them). Summaries of frames are not exchanges and are
// left out. Sanitised like the entries: it holds only what was recorded.
QByteArray harDocument(const QList<TrafficEntry> &entries, const QString &creatorVersion);

} // namespace sbx
