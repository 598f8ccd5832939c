#include "models/code/notebookstore.h"

#include "client/api/filejobs.h"
#include "models/code/notebookmodel.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSaveFile>
#include <QtConcurrent>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

struct Parsed {
    std::optional<NotebookDocument> document;
    QString error;
};

Parsed parse(const QByteArray &bytes) {
    Parsed result;
    result.document = readNotebook(bytes, &result.error);
    return result;
}

// Runs work on a worker and hands its result to done on context's thread.
template <typename Result, typename Work, typename Done>
void onWorker(QObject *context, Work work, Done done) {
    auto *watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, context, [watcher, done] {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

} // namespace

QString NotebookLocation::displayName() const {
    const QString name = QFileInfo(path).fileName();
    switch (kind) {
    case Kind::None:
        return QCoreApplication::translate("sbx::NotebookStore", "Untitled.ipynb");
    case Kind::Local:
        return name;
    case Kind::Sandbox:
        return QCoreApplication::translate("sbx::NotebookStore", "%1 (sandbox)").arg(name);
    }
    return name;
}

NotebookStore::NotebookStore(SandboxClient *client, NotebookModel *model, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_model(model) {}

bool NotebookStore::begin() {
    if (m_busy)
        return false;
    m_busy = true;
    Q_EMIT busyChanged(true);
    return true;
}

void NotebookStore::end() {
    m_busy = false;
    Q_EMIT busyChanged(false);
}

void NotebookStore::parsed(const NotebookLocation &location, const QByteArray &bytes) {
    onWorker<Parsed>(
        this, [bytes] { return parse(bytes); },
        [this, location](const Parsed &result) {
            if (!result.document) {
                end();
                Q_EMIT failed(tr("%1 cannot be opened: %2").arg(location.path, result.error));
                return;
            }
            m_model->load(*result.document);
            m_location = location;
            end();
            Q_EMIT opened(location);
        });
}

void NotebookStore::written(const NotebookLocation &location, quint64 revision) {
    m_location = location;
    // Edits made while the file was written are not in it.
    if (m_model->revision() == revision)
        m_model->setModified(false);
    end();
    Q_EMIT saved(location);
}

void NotebookStore::openLocal(const QString &path) {
    if (!begin())
        return;
    using Read = std::pair<QByteArray, QString>;
    onWorker<Read>(
        this,
        [path]() -> Read {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return {{}, file.errorString()};
            return {file.readAll(), {}};
        },
        [this, path](const Read &read) {
            if (!read.second.isEmpty()) {
                end();
                Q_EMIT failed(tr("%1 cannot be read: %2").arg(path, read.second));
                return;
            }
            parsed({NotebookLocation::Kind::Local, path}, read.first);
        });
}

void NotebookStore::saveLocal(const QString &path) {
    if (!begin())
        return;
    const NotebookDocument document = m_model->document();
    const quint64 revision = m_model->revision();
    onWorker<QString>(
        this,
        [document, path]() -> QString {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                return file.errorString();
            const QByteArray bytes = writeNotebook(document);
            if (file.write(bytes) != bytes.size() || !file.commit())
                return file.errorString();
            return {};
        },
        [this, path, revision](const QString &error) {
            if (!error.isEmpty()) {
                end();
                Q_EMIT failed(tr("%1 cannot be written: %2").arg(path, error));
                return;
            }
            written({NotebookLocation::Kind::Local, path}, revision);
        });
}

void NotebookStore::openRemote(const QString &path) {
    if (!m_client || !begin())
        return;
    auto *job = new ReadFileJob(m_client, path);
    connect(job, &ReadFileJob::succeeded, this, [this, path](const QString &content) {
        parsed({NotebookLocation::Kind::Sandbox, path}, content.toUtf8());
    });
    connect(job, &ReadFileJob::failed, this, [this, path](const Status &status) {
        end();
        Q_EMIT failed(tr("%1 cannot be read in the sandbox: %2").arg(path, status.message));
    });
    job->start();
}

void NotebookStore::saveRemote(const QString &path) {
    if (!m_client || !begin())
        return;
    const NotebookDocument document = m_model->document();
    const quint64 revision = m_model->revision();
    onWorker<QByteArray>(
        this, [document] { return writeNotebook(document); },
        [this, path, revision](const QByteArray &bytes) {
            if (!m_client) {
                end();
                return;
            }
            auto *job = new WriteFileJob(m_client, path, bytes, false);
            connect(job, &WriteFileJob::succeeded, this, [this, path, revision] {
                written({NotebookLocation::Kind::Sandbox, path}, revision);
            });
            connect(job, &WriteFileJob::failed, this, [this, path](const Status &status) {
                end();
                Q_EMIT failed(
                    tr("%1 cannot be written in the sandbox: %2").arg(path, status.message));
            });
            job->start();
        });
}

bool NotebookStore::save() {
    switch (m_location.kind) {
    case NotebookLocation::Kind::None:
        return false;
    case NotebookLocation::Kind::Local:
        saveLocal(m_location.path);
        return true;
    case NotebookLocation::Kind::Sandbox:
        saveRemote(m_location.path);
        return true;
    }
    return false;
}

} // namespace sbx
