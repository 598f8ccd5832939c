#pragma once

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QUrl>

#include <memory>

namespace sbxtest {

// What a browser gets for an address.
struct BrowserAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

// A GET as a browser sends it: no header of ours, only what the URL carries (a ticket).
inline BrowserAnswer browse(const QUrl &url) {
    QNetworkAccessManager manager;
    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(url)));
    QSignalSpy done(reply.get(), &QNetworkReply::finished);
    done.wait(10000);
    return {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(), reply->readAll()};
}

} // namespace sbxtest
