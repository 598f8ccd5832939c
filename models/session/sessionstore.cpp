#include "models/session/sessionstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

bool holdsSecret(const QJsonValue &value) {
    if (value.isString())
        return looksLikeSecret(value.toString());
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        return std::any_of(array.begin(), array.end(),
                           [](const QJsonValue &v) { return holdsSecret(v); });
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (holdsSecret(it.value()))
                return true;
        }
    }
    return false;
}

} // namespace

bool looksLikeSecret(const QString &text) {
    if (text.contains(u"-----BEGIN"_s))
        return true;
    // A JWT: three base64url parts, the first a JSON header ("eyJ").
    static const QRegularExpression jwt(
        u"eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"_s);
    return jwt.match(text).hasMatch();
}

SessionStore::SessionStore(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path)) {
    connect(&m_timer, &QTimer::timeout, this, [this] { flush(); });
}

QJsonObject SessionStore::load() {
    QFile file(m_path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        m_loadError = tr("Cannot read %1: %2").arg(m_path, file.errorString());
        return {};
    }
    const QByteArray bytes = file.readAll();
    file.close();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        m_loadError =
            tr("The saved session %1 is damaged (%2); starting without it.")
                .arg(m_path, error.error != QJsonParseError::NoError ? error.errorString()
                                                                     : tr("not a JSON object"));
        QFile::remove(m_path + u".bad"_s);
        QFile::rename(m_path, m_path + u".bad"_s);
        return {};
    }
    m_last = QJsonDocument(document.object()).toJson(QJsonDocument::Compact);
    return document.object();
}

void SessionStore::start(int intervalMs) {
    m_timer.start(intervalMs);
}

bool SessionStore::flush() {
    if (!m_capture)
        return true;
    const QJsonObject snapshot = m_capture();
    const QByteArray bytes = QJsonDocument(snapshot).toJson(QJsonDocument::Compact);
    if (bytes == m_last)
        return true;
    if (holdsSecret(snapshot)) {
        m_writeError = tr("The session was not saved: it held what looks like a credential.");
        qWarning("sandbox-console: %s", qPrintable(m_writeError));
        return false;
    }
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        m_writeError = tr("Cannot save the session to %1: %2").arg(m_path, file.errorString());
        return false;
    }
    m_writeError.clear();
    m_last = bytes;
    ++m_writes;
    Q_EMIT written();
    return true;
}

} // namespace sbx
