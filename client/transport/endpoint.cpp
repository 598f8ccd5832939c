#include "client/transport/endpoint.h"

#include <QCoreApplication>

namespace sbx {

using namespace Qt::StringLiterals;

bool Endpoint::isValid() const {
    return baseUrl.isValid() && !baseUrl.host().isEmpty() &&
           (baseUrl.scheme() == QLatin1String("http") ||
            baseUrl.scheme() == QLatin1String("https"));
}

QUrl Endpoint::resolve(const QString &path, const QUrlQuery &query) const {
    QUrl url = baseUrl;
    QString base = url.path();
    if (!base.endsWith(QLatin1Char('/')))
        base += QLatin1Char('/');
    QString rel = path;
    while (rel.startsWith(QLatin1Char('/')))
        rel.remove(0, 1);
    url.setPath(base + rel);
    url.setQuery(query);
    url.setFragment(QString());
    return url;
}

QUrl Endpoint::resolveWebSocket(const QString &path, const QUrlQuery &query) const {
    QUrl url = resolve(path, query);
    url.setScheme(url.scheme() == QLatin1String("https") ? u"wss"_s : u"ws"_s);
    return url;
}

QString Endpoint::displayAddress() const {
    QUrl url;
    url.setScheme(baseUrl.scheme());
    url.setHost(baseUrl.host());
    url.setPort(baseUrl.port());
    QString text = url.toString(QUrl::RemoveUserInfo);
    const QString path = baseUrl.path();
    if (!path.isEmpty() && path != QLatin1String("/"))
        text += path;
    return text;
}

QUrl parseBaseUrl(const QString &text, QString *error) {
    QString input = text.trimmed();
    if (input.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::Endpoint", "Enter the sandbox's address, for example http://localhost:8080");
        return {};
    }
    if (!input.contains(QLatin1String("://")))
        input.prepend(u"http://"_s);
    QUrl url(input, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::Endpoint", "Not a valid address: use http://host:port or https://host/path");
        return {};
    }
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) {
        if (error)
            *error = QCoreApplication::translate("sbx::Endpoint",
                                                 "Use an http:// or https:// address (got %1://)")
                         .arg(url.scheme());
        return {};
    }
    // Credentials belong in the credential fields, where they are kept out of settings files.
    if (!url.userInfo().isEmpty() || url.query().contains(QLatin1String("api_key")) ||
        url.query().contains(QLatin1String("ticket"))) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::Endpoint",
                "Put the API key or token in the authentication fields, not in the address");
        return {};
    }
    url.setQuery(QString());
    url.setFragment(QString());
    if (error)
        error->clear();
    return url;
}

} // namespace sbx
