#include "client/providers/engine/enginelistmodel.h"

#include "client/providers/engine/enginesandboxes.h"

namespace sbx {

EngineListModel::EngineListModel(EngineConnections *engines, QObject *parent)
    : QAbstractTableModel(parent)
    , m_engines(engines)
    , m_choices(engines->choices()) {
    connect(engines, &EngineConnections::changed, this, &EngineListModel::reload);
}

void EngineListModel::reload() {
    const QList<EngineChoice> fresh = m_engines->choices();
    bool sameRows = fresh.size() == m_choices.size();
    for (int i = 0; sameRows && i < fresh.size(); ++i)
        sameRows = fresh[i].endpoint.name == m_choices[i].endpoint.name;
    if (!sameRows) {
        beginResetModel();
        m_choices = fresh;
        endResetModel();
        return;
    }
    // A state changed: the rows stay, so the selection does too.
    m_choices = fresh;
    if (!m_choices.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int EngineListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_choices.size());
}

int EngineListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString EngineListModel::statusText(int row) const {
    const EngineChoice &choice = m_choices.at(row);
    if (!choice.enabled)
        return tr("Off: turn it on to list its sandboxes");
    const EngineSandboxes *provider = m_engines->provider(choice.endpoint.name);
    return provider ? provider->status() : QString();
}

QString EngineListModel::stateWord(int row) const {
    const EngineChoice &choice = m_choices.at(row);
    const EngineSandboxes *provider =
        choice.enabled ? m_engines->provider(choice.endpoint.name) : nullptr;
    if (!provider)
        return tr("Off");
    switch (provider->engineState()) {
    case EngineSandboxes::EngineState::Looking:
        return tr("Looking");
    case EngineSandboxes::EngineState::Connecting:
        return tr("Connecting");
    case EngineSandboxes::EngineState::Reachable:
        return tr("Reachable");
    case EngineSandboxes::EngineState::HostKeyUnknown:
        return tr("Host key unknown");
    case EngineSandboxes::EngineState::AuthFailed:
        return tr("Auth failed");
    case EngineSandboxes::EngineState::Unreachable:
        return tr("Unreachable");
    }
    return {};
}

QVariant EngineListModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const EngineChoice &choice = m_choices.at(index.row());
    const EngineEndpoint &endpoint = choice.endpoint;
    if (role == Qt::ToolTipRole)
        return statusText(index.row());
    if (role == Qt::CheckStateRole && index.column() == Name)
        return choice.enabled ? Qt::Checked : Qt::Unchecked;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        if (choice.origin == EngineChoice::Origin::Default)
            return tr("This machine");
        if (choice.origin == EngineChoice::Origin::DockerContext)
            return endpoint.name == m_engines->currentContext()
                       ? tr("%1 (current Docker context)").arg(endpoint.name)
                       : tr("%1 (Docker context)").arg(endpoint.name);
        return endpoint.name;
    case Address:
        return endpoint.where();
    case State:
        return stateWord(index.row());
    case Latency: {
        const EngineSandboxes *provider =
            choice.enabled ? m_engines->provider(endpoint.name) : nullptr;
        if (!provider || !provider->isEngineReachable() || provider->latencyMs() < 0)
            return QString();
        return tr("%1 ms").arg(provider->latencyMs());
    }
    default:
        return {};
    }
}

bool EngineListModel::setData(const QModelIndex &index, const QVariant &value, int role) {
    if (!index.isValid() || index.column() != Name || role != Qt::CheckStateRole)
        return false;
    const EngineChoice &choice = m_choices.at(index.row());
    if (choice.origin == EngineChoice::Origin::Default)
        return false;
    m_engines->setEnabled(choice.endpoint.name, value.toInt() == Qt::Checked);
    return true;
}

Qt::ItemFlags EngineListModel::flags(const QModelIndex &index) const {
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name &&
        m_choices.at(index.row()).origin != EngineChoice::Origin::Default)
        flags |= Qt::ItemIsUserCheckable;
    return flags;
}

QVariant EngineListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Engine");
    case Address:
        return tr("Address");
    case State:
        return tr("State");
    case Latency:
        return tr("Round trip");
    default:
        return {};
    }
}

} // namespace sbx
