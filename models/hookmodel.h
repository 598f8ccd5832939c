#pragma once

#include "client/api/hookjobs.h"

#include <QAbstractItemModel>
#include <QPointer>

namespace sbx {

class SandboxClient;

// A sandbox's shutdown hooks as lanes: one top-level row per priority (ascending, the order they
// run in), holding the hooks that run together at that priority, sorted by name.
class HookModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CommandColumn, TimeoutColumn, SourceColumn, ColumnCount };
    enum Role {
        IsLaneRole = Qt::UserRole + 1,
        PriorityRole,
        HookNameRole, // empty on a lane
        ReadOnlyRole,
    };

    explicit HookModel(SandboxClient *client, QObject *parent = nullptr);
    ~HookModel() override;

    // Lists the hooks again; asked while a listing runs, it lists once more when that ends.
    void refresh();
    bool isLoading() const { return m_job != nullptr; }
    // Applies a new list: rows that stayed are kept, the rest inserted, removed or changed.
    void setHooks(const QList<SandboxHook> &hooks);
    QList<SandboxHook> hooks() const;

    // The hook at index (a hook row, any column), or null for a lane or an invalid index.
    const SandboxHook *hookAt(const QModelIndex &index) const;
    QModelIndex indexOfHook(const QString &name) const;
    QModelIndex indexOfLane(int priority) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

Q_SIGNALS:
    void refreshed();
    void refreshFailed(const Status &status);

private:
    struct Lane {
        quintptr id; // stable while the lane exists; hook rows carry it as their internalId
        int priority;
        QList<SandboxHook> hooks;
    };

    int laneRow(quintptr id) const;
    QVariant laneData(const Lane &lane, int column, int role) const;
    QVariant hookData(const SandboxHook &hook, int column, int role) const;
    void mergeLane(int row, const QList<SandboxHook> &hooks);

    QPointer<SandboxClient> m_client;
    QPointer<ListHooksJob> m_job;
    bool m_again = false;
    QList<Lane> m_lanes;
    quintptr m_nextLaneId = 1;
};

} // namespace sbx
