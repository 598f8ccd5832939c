#pragma once

#include "client/transport/status.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QPointer>

namespace sbx {

class SandboxClient;

// A sandbox's shell and bash sessions, as /v1/shell/sessions and /v1/bash/sessions list them:
// what each runs now, in which folder, since when. This is where a person sees what an agent
// is running. refresh() asks both lists again; rows keep their place across refreshes.
class SessionListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        CommandColumn,
        FolderColumn,
        AgeColumn,
        LastUseColumn,
        IdColumn,
        ColumnCount
    };
    enum Role { KindRole = Qt::UserRole + 1, IdRole, CommandIdRole, CommandRole };

    struct Row {
        QString kind; // "bash" or "shell"
        QString id;
        QString command;
        QString commandId; // bash, sandbox-server: the command to follow
        QString folder;
        QDateTime createdAt;
        QDateTime lastUsedAt;
    };

    explicit SessionListModel(QObject *parent = nullptr);

    void setClient(SandboxClient *client);
    void refresh();
    bool isRefreshing() const { return m_pending > 0; }
    const Row *row(int index) const;
    // Set when the last refresh found neither list; "" otherwise.
    QString error() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void refreshed();

private:
    void take(QList<Row> rows);
    void finishOne();

    QPointer<SandboxClient> m_client;
    QList<Row> m_rows;
    QList<Row> m_incoming;
    QStringList m_errors;
    QString m_error;
    int m_pending = 0;
};

} // namespace sbx
