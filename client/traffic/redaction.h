#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

class QUrl;

namespace sbx {

// How the traffic inspector takes secrets out of what it records, before storing anything:
// credentials' headers and query values, secret-named JSON fields and NAME=value pairs, Bearer
// tokens, JWT-shaped strings, and the client's own key or token wherever it appears.
namespace Redaction {

// What a redacted value is stored as: "•••" (UTF-8).
QByteArray mask();
QString maskText();

// Whether a header, query item, JSON field or NAME=value of this name holds a secret:
// api_key, ticket, token, password, X-AIO-API-Key, OPENAI_API_KEY, ... (not idempotency_key).
bool isSecretName(QByteArrayView name);
// Authorization, Proxy-Authorization, Cookie, Set-Cookie and every secret name.
bool isSecretHeader(QByteArrayView name);

// A header's value as recorded: a secret header's is the mask, after its scheme when it has one
// ("Bearer •••"); any other has the known secrets scrubbed.
QByteArray headerValue(QByteArrayView name, const QByteArray &value,
                       const QList<QByteArray> &secrets);
// The URL as recorded, decoded for reading: no user info, secret query values masked, the
// known secrets scrubbed.
QString url(const QUrl &url, const QList<QByteArray> &secrets);
// Text sent or received (a JSON body, a frame, a command): everything listed above masked.
// found, when given, receives the values the patterns masked (not the known secrets), so that
// a recorder can scrub them where they come back (a command's output).
QByteArray text(QByteArray bytes, const QList<QByteArray> &secrets,
                QList<QByteArray> *found = nullptr);
// Bytes that are not text: the known secrets scrubbed only.
QByteArray literal(QByteArray bytes, const QList<QByteArray> &secrets);

} // namespace Redaction

} // namespace sbx
