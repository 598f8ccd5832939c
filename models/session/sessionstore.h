#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace sbx {

// The console's session as it was left (window, sandbox, tabs, terminals' server sessions,
// folders, logs), kept in one JSON file of the settings folder. The owner gives a capture
// function; every interval the store takes a snapshot and writes it (atomically) only when it
// changed, so a crash loses at most one interval. Never holds a secret: captures carry ids,
// names, paths and positions only, and anything that looks like a credential is refused.
class SessionStore final : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 2000;

    explicit SessionStore(QString path, QObject *parent = nullptr);

    QString path() const { return m_path; }
    // The state last written, read once; empty when there is none or it cannot be read (the
    // unreadable file is kept beside it as .bad, for a look, and the console starts clean).
    QJsonObject load();
    QString loadError() const { return m_loadError; }

    void setCapture(std::function<QJsonObject()> capture) { m_capture = std::move(capture); }
    void start(int intervalMs = kDefaultIntervalMs);
    // Captures and writes now when changed (on quit). Returns false when the write failed.
    bool flush();
    // Writes that happened (a changed snapshot each), for tests.
    int writes() const { return m_writes; }
    QString writeError() const { return m_writeError; }

Q_SIGNALS:
    void written();

private:
    QString m_path;
    std::function<QJsonObject()> m_capture;
    QTimer m_timer;
    QByteArray m_last;
    QString m_loadError;
    QString m_writeError;
    int m_writes = 0;
};

// True when a value of the snapshot looks like a credential (a JWT, a PEM key, a long random
// token): SessionStore refuses to write such a snapshot.
bool looksLikeSecret(const QString &text);

} // namespace sbx
