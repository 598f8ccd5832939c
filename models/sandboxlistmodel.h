#pragma once

#include "client/providers/sandboxprovider.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace sbx {

class SandboxRegistry;

// The registry's sandboxes as a table: one row each, with their live state.
class SandboxListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        ProviderColumn,
        UrlColumn,
        VersionColumn,
        LatencyColumn,
        UsageColumn, // CPU and memory, where the sandbox reports them
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,   // SandboxState as int
        DetailRole,  // why the state is what it is
        ActionsRole, // LifecycleActions as int
        ProviderIdRole,
        ExpiryWarningRole, // true when a JWT expires within five minutes
    };

    // The registry is borrowed; rows follow its sandboxes, in the order they appeared.
    explicit SandboxListModel(SandboxRegistry *registry, QObject *parent = nullptr);

    SandboxRegistry *registry() const { return m_registry; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    int rowOf(const QString &id) const;
    QString idAt(int row) const;

private:
    void onChanged(const QString &id);

    SandboxRegistry *m_registry;
    QStringList m_ids;
};

} // namespace sbx
