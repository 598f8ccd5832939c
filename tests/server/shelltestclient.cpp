#include "tests/server/shelltestclient.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QTest>
#include <QUrlQuery>

ShellTestClient::ShellTestClient(QObject *parent)
    : QObject(parent) {
    connect(&m_socket, &QWebSocket::textMessageReceived, this, [this](const QString &text) {
        const QJsonObject frame = QJsonDocument::fromJson(text.toUtf8()).object();
        m_frames.append(frame);
        const QString type = frame.value(QStringLiteral("type")).toString();
        if (type == QStringLiteral("output"))
            m_output += frame.value(QStringLiteral("data")).toString();
        else if (type == QStringLiteral("session_id"))
            m_sessionId = frame.value(QStringLiteral("data")).toString();
    });
    connect(&m_socket, &QWebSocket::disconnected, this, [this] {
        m_closed = true;
        m_closeCode = m_socket.closeCode();
        m_closeReason = m_socket.closeReason();
    });
}

bool ShellTestClient::open(const QUrl &httpBase, const QString &sessionId) {
    QUrl url = httpBase;
    url.setScheme(QStringLiteral("ws"));
    url.setPath(QStringLiteral("/v1/shell/ws"));
    if (!sessionId.isEmpty()) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("session_id"), sessionId);
        url.setQuery(query);
    }
    bool connected = false;
    const auto connection =
        connect(&m_socket, &QWebSocket::connected, this, [&connected] { connected = true; });
    m_socket.open(QNetworkRequest(url));
    const bool ok = waitFor([&] { return connected || m_closed; }, 10000) && connected;
    disconnect(connection);
    return ok;
}

void ShellTestClient::send(const QJsonObject &frame) {
    m_socket.sendTextMessage(
        QString::fromUtf8(QJsonDocument(frame).toJson(QJsonDocument::Compact)));
}

void ShellTestClient::sendRaw(const QString &text) {
    m_socket.sendTextMessage(text);
}

void ShellTestClient::input(const QString &keys) {
    send({{QStringLiteral("type"), QStringLiteral("input")}, {QStringLiteral("data"), keys}});
}

void ShellTestClient::resize(int cols, int rows) {
    send({{QStringLiteral("type"), QStringLiteral("resize")},
          {QStringLiteral("data"),
           QJsonObject{{QStringLiteral("cols"), cols}, {QStringLiteral("rows"), rows}}}});
}

bool ShellTestClient::waitFor(const std::function<bool()> &predicate, int timeoutMs) {
    return QTest::qWaitFor(predicate, timeoutMs);
}

bool ShellTestClient::waitForOutput(const QString &needle, int timeoutMs) {
    return waitFor([&] { return m_output.contains(needle); }, timeoutMs);
}

bool ShellTestClient::waitForType(const QString &type, int timeoutMs) {
    return waitFor([&] { return !framesOfType(type).isEmpty(); }, timeoutMs);
}

bool ShellTestClient::waitForClose(int timeoutMs) {
    return waitFor([&] { return m_closed; }, timeoutMs);
}

QList<QJsonObject> ShellTestClient::framesOfType(const QString &type) const {
    QList<QJsonObject> result;
    for (const QJsonObject &frame : m_frames) {
        if (frame.value(QStringLiteral("type")).toString() == type)
            result.append(frame);
    }
    return result;
}
