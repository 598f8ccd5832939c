#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

namespace sbx {

class NotebookModel;
class SandboxClient;

// Where a notebook was opened from or last saved to.
struct NotebookLocation {
    enum class Kind { None, Local, Sandbox };
    Kind kind = Kind::None;
    QString path;

    // "analysis.ipynb (sandbox)", for a title.
    QString displayName() const;
};

// Opens and saves a NotebookModel as .ipynb, on this computer or in the sandbox (POST
// /v1/file/read and /v1/file/write). Parsing and writing run on a worker; a local file is
// written to a temporary name and renamed (QSaveFile). One operation at a time.
class NotebookStore final : public QObject {
    Q_OBJECT
public:
    NotebookStore(SandboxClient *client, NotebookModel *model, QObject *parent = nullptr);

    void openLocal(const QString &path);
    void saveLocal(const QString &path);
    void openRemote(const QString &path);
    void saveRemote(const QString &path);
    // Saves where the notebook came from; false (and nothing done) when it came from nowhere.
    bool save();

    const NotebookLocation &location() const { return m_location; }
    bool busy() const { return m_busy; }

Q_SIGNALS:
    void opened(const sbx::NotebookLocation &location);
    void saved(const sbx::NotebookLocation &location);
    void failed(const QString &message);
    void busyChanged(bool busy);

private:
    bool begin();
    void end();
    void parsed(const NotebookLocation &location, const QByteArray &bytes);
    void written(const NotebookLocation &location, quint64 revision);

    QPointer<SandboxClient> m_client;
    NotebookModel *m_model;
    NotebookLocation m_location;
    bool m_busy = false;
};

} // namespace sbx
