#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>
#include <QWebSocket>

#include <functional>

// A terminal client for the shell suites: a QWebSocket speaking /v1/shell/ws that keeps every
// frame it received and the output text, with bounded waits on them.
class ShellTestClient final : public QObject {
public:
    explicit ShellTestClient(QObject *parent = nullptr);
    // Qt 6.4's ~QWebSocket leaks the text of the close frame it sends for an open socket
    // (LeakSanitizer sees it): a test client that is done just drops the connection.
    ~ShellTestClient() override { m_socket.abort(); }

    // ws://HOST:PORT/v1/shell/ws[?session_id=ID]; waits (bounded) for the connection.
    bool open(const QUrl &httpBase, const QString &sessionId = {});
    void close() { m_socket.close(); }
    QWebSocket &socket() { return m_socket; }

    void send(const QJsonObject &frame);
    void sendRaw(const QString &text);
    void input(const QString &keys);
    void resize(int cols, int rows);

    // Waits until predicate holds, processing events; false after timeoutMs.
    bool waitFor(const std::function<bool()> &predicate, int timeoutMs = 15000);
    bool waitForOutput(const QString &needle, int timeoutMs = 15000);
    bool waitForType(const QString &type, int timeoutMs = 15000);
    bool waitForClose(int timeoutMs = 15000);

    const QList<QJsonObject> &frames() const { return m_frames; }
    QList<QJsonObject> framesOfType(const QString &type) const;
    QString output() const { return m_output; }
    QString sessionId() const { return m_sessionId; }
    bool closed() const { return m_closed; }
    int closeCode() const { return m_closeCode; }
    QString closeReason() const { return m_closeReason; }

private:
    QWebSocket m_socket;
    QList<QJsonObject> m_frames;
    QString m_output;
    QString m_sessionId;
    bool m_closed = false;
    int m_closeCode = 0;
    QString m_closeReason;
};
