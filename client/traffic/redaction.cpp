#include "client/traffic/redaction.h"

#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <utility>
#include <vector>

namespace sbx::Redaction {

using namespace Qt::StringLiterals;

namespace {

// Shorter values are not scrubbed where they appear: "abc" would mask half of every body.
constexpr qsizetype kMinLiteral = 6;

using Range = std::pair<qsizetype, qsizetype>; // [begin, end)

QByteArray normalized(QByteArrayView name) {
    QByteArray n = name.toByteArray().toLower();
    n.replace('-', '_');
    return n;
}

bool isBase64Url(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Where a value of NAME=value ends: at a blank, a quote or escape, or a separator of a URL,
// a shell command or JSON.
bool endsValue(char c) {
    return isSpace(c) || c == '&' || c == '"' || c == '\'' || c == '\\' || c == ';' || c == ',' ||
           c == '}' || c == ']' || c == ')' || c == '<' || c == '>' || c == '#';
}

// Replaces each range (in any order, possibly overlapping) with the mask.
QByteArray masked(const QByteArray &bytes, std::vector<Range> ranges) {
    if (ranges.empty())
        return bytes;
    std::sort(ranges.begin(), ranges.end());
    QByteArray out;
    out.reserve(bytes.size());
    qsizetype at = 0;
    for (const auto &[begin, end] : ranges) {
        if (begin < at) { // overlaps the range masked last: one mask for both
            at = std::max(at, end);
            continue;
        }
        out.append(bytes.constData() + at, begin - at);
        out.append(mask());
        at = end;
    }
    out.append(bytes.constData() + at, bytes.size() - at);
    return out;
}

// The index of the quote closing a JSON string whose contents start at from; size() when it is
// not closed (a body cut at the inspector's bound).
qsizetype stringEnd(const QByteArray &b, qsizetype from) {
    for (qsizetype i = from; i < b.size(); ++i) {
        if (b[i] == '\\')
            ++i;
        else if (b[i] == '"')
            return i;
    }
    return b.size();
}

qsizetype skipSpace(const QByteArray &b, qsizetype i) {
    while (i < b.size() && isSpace(b[i]))
        ++i;
    return i;
}

// "name": "value" with a secret name: the value. Strings are skipped whole, so a quoted
// "ticket" inside another string's text is not taken for a field.
void jsonFields(const QByteArray &b, std::vector<Range> &out) {
    qsizetype i = 0;
    while ((i = b.indexOf('"', i)) >= 0) {
        const qsizetype end = stringEnd(b, i + 1);
        if (end >= b.size())
            return;
        const qsizetype colon = skipSpace(b, end + 1);
        if (colon >= b.size() || b[colon] != ':') {
            i = end + 1;
            continue;
        }
        const qsizetype value = skipSpace(b, colon + 1);
        if (value < b.size() && b[value] == '"' &&
            isSecretName(QByteArrayView(b.constData() + i + 1, end - i - 1))) {
            const qsizetype valueEnd = stringEnd(b, value + 1);
            if (valueEnd > value + 1)
                out.emplace_back(value + 1, valueEnd);
            i = valueEnd + 1;
            continue;
        }
        i = colon + 1;
    }
}

// NAME=value with a secret name, in a query string, a command or an env line.
void assignments(const QByteArray &b, std::vector<Range> &out) {
    qsizetype i = 0;
    while ((i = b.indexOf('=', i)) >= 0) {
        qsizetype start = i;
        while (start > 0 && isNameChar(b[start - 1]))
            --start;
        qsizetype v = i + 1;
        ++i;
        if (start == i - 1 || !isSecretName(QByteArrayView(b.constData() + start, i - 1 - start)))
            continue;
        while (v < b.size() &&
               (b[v] == '"' || b[v] == '\'' ||
                (b[v] == '\\' && v + 1 < b.size() && (b[v + 1] == '"' || b[v + 1] == '\''))))
            v += b[v] == '\\' ? 2 : 1;
        qsizetype e = v;
        while (e < b.size() && !endsValue(b[e]))
            ++e;
        if (e > v)
            out.emplace_back(v, e);
        i = std::max(i, e);
    }
}

// "Bearer <token>" anywhere: an Authorization header echoed in a body, a curl line in a command.
void bearerTokens(const QByteArray &b, std::vector<Range> &out) {
    const QByteArray lower = b.toLower();
    qsizetype i = 0;
    while ((i = lower.indexOf("bearer ", i)) >= 0) {
        qsizetype v = i + 7;
        while (v < b.size() && b[v] == ' ')
            ++v;
        qsizetype e = v;
        while (e < b.size() && (isBase64Url(b[e]) || b[e] == '.' || b[e] == '~' || b[e] == '+' ||
                                b[e] == '/' || b[e] == '='))
            ++e;
        if (e > v)
            out.emplace_back(v, e);
        i = std::max(i + 7, e);
    }
}

qsizetype base64UrlRun(const QByteArray &b, qsizetype from) {
    qsizetype e = from;
    while (e < b.size() && isBase64Url(b[e]))
        ++e;
    return e;
}

// header.payload.signature where the header is base64url JSON ("eyJ..."): a JWT, whoever's.
void jwtShaped(const QByteArray &b, std::vector<Range> &out) {
    qsizetype i = 0;
    while ((i = b.indexOf("eyJ", i)) >= 0) {
        if (i > 0 && isBase64Url(b[i - 1])) {
            i += 3;
            continue;
        }
        const qsizetype head = base64UrlRun(b, i);
        if (head - i >= 10 && head < b.size() && b[head] == '.') {
            const qsizetype payload = base64UrlRun(b, head + 1);
            if (payload - head > 2 && payload < b.size() && b[payload] == '.') {
                const qsizetype end = base64UrlRun(b, payload + 1);
                out.emplace_back(i, end);
                i = end;
                continue;
            }
        }
        i = head;
    }
}

} // namespace

QByteArray mask() {
    return QByteArrayLiteral("\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2");
}

QString maskText() {
    return QString::fromUtf8(mask());
}

bool isSecretName(QByteArrayView name) {
    if (name.isEmpty() || name.size() > 64)
        return false;
    const QByteArray n = normalized(name);
    if (n.contains("idempotency"))
        return false;
    static const char *const exact[] = {"auth",   "authorization", "cookie", "jwt",
                                        "bearer", "set_cookie",    "pass",   "pwd"};
    for (const char *e : exact) {
        if (n == e)
            return true;
    }
    static const char *const parts[] = {"password", "passwd", "secret",      "api_key",   "apikey",
                                        "token",    "ticket", "private_key", "credential"};
    for (const char *p : parts) {
        if (n.contains(p))
            return true;
    }
    return n.endsWith("_key") || n.endsWith("_jwt") || n.endsWith("_auth") || n.endsWith("_pass");
}

bool isSecretHeader(QByteArrayView name) {
    const QByteArray n = normalized(name);
    return n == "proxy_authorization" || n == "x_aio_api_key" || isSecretName(name);
}

QByteArray headerValue(QByteArrayView name, const QByteArray &value,
                       const QList<QByteArray> &secrets) {
    if (!isSecretHeader(name))
        return literal(value, secrets);
    const QByteArray n = normalized(name);
    const qsizetype space = value.indexOf(' ');
    if ((n == "authorization" || n == "proxy_authorization") && space > 0)
        return value.left(space + 1) + mask();
    return mask();
}

QString url(const QUrl &url, const QList<QByteArray> &secrets) {
    QUrl out = url;
    out.setUserInfo(QString());
    if (out.hasQuery()) {
        QUrlQuery query(out);
        QList<QPair<QString, QString>> items = query.queryItems(QUrl::FullyDecoded);
        for (auto &[name, value] : items) {
            if (isSecretName(name.toUtf8()))
                value = maskText();
        }
        QUrlQuery redacted;
        redacted.setQueryItems(items);
        out.setQuery(redacted);
    }
    QString text = out.toDisplayString();
    for (const QByteArray &secret : secrets) {
        if (secret.size() < kMinLiteral)
            continue;
        text.replace(QString::fromUtf8(secret), maskText());
        text.replace(QString::fromLatin1(QUrl::toPercentEncoding(QString::fromUtf8(secret))),
                     maskText());
    }
    return text;
}

QByteArray literal(QByteArray bytes, const QList<QByteArray> &secrets) {
    for (const QByteArray &secret : secrets) {
        if (secret.size() < kMinLiteral || !bytes.contains(secret))
            continue;
        bytes.replace(secret, mask());
    }
    return bytes;
}

QByteArray text(QByteArray bytes, const QList<QByteArray> &secrets, QList<QByteArray> *found) {
    bytes = literal(std::move(bytes), secrets);
    std::vector<Range> ranges;
    jsonFields(bytes, ranges);
    assignments(bytes, ranges);
    bearerTokens(bytes, ranges);
    jwtShaped(bytes, ranges);
    if (found) {
        for (const auto &[begin, end] : ranges) {
            const QByteArray value = bytes.mid(begin, end - begin);
            if (value.size() >= kMinLiteral && !value.contains(mask()) && !found->contains(value))
                found->append(value);
        }
    }
    return masked(bytes, std::move(ranges));
}

} // namespace sbx::Redaction
