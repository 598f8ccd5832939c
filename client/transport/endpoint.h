#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

namespace sbx {

// TLS choices for one sandbox: system CAs, plus an optional CA file or a pinned certificate.
struct TlsSettings {
    QString caFile;
    // SHA-256 of a self-signed leaf certificate the user confirmed; hex, lowercase.
    QByteArray pinnedSha256;

    bool operator==(const TlsSettings &) const = default;
};

// Where a sandbox answers: a base URL that may carry a path prefix behind a reverse proxy.
struct Endpoint {
    QUrl baseUrl;
    TlsSettings tls;

    bool isValid() const;
    // Joins an API path ("v1/sandbox", "/llms.txt") onto the base URL's path.
    QUrl resolve(const QString &path, const QUrlQuery &query = {}) const;
    // The WebSocket form of resolve(): http -> ws, https -> wss.
    QUrl resolveWebSocket(const QString &path, const QUrlQuery &query = {}) const;
    // scheme://host:port with no path, query or user info: safe for messages.
    QString displayAddress() const;
    bool operator==(const Endpoint &) const = default;
};

// Parses what a user typed ("localhost:8080", "https://x/sandbox/") into a base URL.
// Returns an invalid QUrl and sets *error when it cannot be used.
QUrl parseBaseUrl(const QString &text, QString *error);

} // namespace sbx
