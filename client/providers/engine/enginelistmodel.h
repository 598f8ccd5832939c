#pragma once

#include "client/providers/engine/engineconnections.h"

#include <QAbstractTableModel>

namespace sbx {

// The engines of EngineConnections as a table for the "Container engines" dialog: name (checked
// when on), address, state in a word, round trip. Toggling the check turns an engine on or off.
class EngineListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Address, State, Latency, ColumnCount };
    explicit EngineListModel(EngineConnections *engines, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    EngineChoice choice(int row) const { return m_choices.value(row); }
    // The sentence behind the state (the provider's status), for the row's tooltip and the
    // dialog's detail line.
    QString statusText(int row) const;
    // Reads the engines again (their round trips change without a signal).
    void reload();

private:
    QString stateWord(int row) const;

    EngineConnections *m_engines;
    QList<EngineChoice> m_choices;
};

} // namespace sbx
