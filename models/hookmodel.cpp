#include "models/hookmodel.h"

#include "models/palette.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include <algorithm>
#include <map>
#include <utility>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

bool byName(const SandboxHook &a, const SandboxHook &b) {
    return a.name < b.name;
}

QString commandSummary(const QString &command) {
    const QString trimmed = command.trimmed();
    const qsizetype newline = trimmed.indexOf(QLatin1Char('\n'));
    return newline < 0 ? trimmed : QString(trimmed.left(newline) + u" …"_s);
}

} // namespace

HookModel::HookModel(SandboxClient *client, QObject *parent)
    : QAbstractItemModel(parent)
    , m_client(client) {}

HookModel::~HookModel() {
    if (m_job)
        m_job->abort();
}

void HookModel::refresh() {
    if (!m_client)
        return;
    if (m_job) {
        m_again = true;
        return;
    }
    auto *job = new ListHooksJob(m_client);
    m_job = job;
    connect(job, &ListHooksJob::succeeded, this, [this](const QList<SandboxHook> &hooks) {
        setHooks(hooks);
        Q_EMIT refreshed();
    });
    connect(job, &ApiJob::failed, this, &HookModel::refreshFailed);
    connect(job, &ApiJob::finished, this, [this] {
        m_job = nullptr;
        if (std::exchange(m_again, false))
            refresh();
    });
    job->start();
}

void HookModel::setHooks(const QList<SandboxHook> &hooks) {
    std::map<int, QList<SandboxHook>> grouped;
    for (const SandboxHook &hook : hooks)
        grouped[hook.priority].append(hook);

    // Both sides are sorted by priority: one walk keeps the lanes that stayed.
    int row = 0;
    for (auto &[priority, group] : grouped) {
        std::sort(group.begin(), group.end(), byName);
        while (row < m_lanes.size() && m_lanes[row].priority < priority) {
            beginRemoveRows({}, row, row);
            m_lanes.removeAt(row);
            endRemoveRows();
        }
        if (row < m_lanes.size() && m_lanes[row].priority == priority) {
            mergeLane(row, group);
        } else {
            beginInsertRows({}, row, row);
            m_lanes.insert(row, Lane{m_nextLaneId++, priority, group});
            endInsertRows();
        }
        ++row;
    }
    if (row < m_lanes.size()) {
        beginRemoveRows({}, row, static_cast<int>(m_lanes.size()) - 1);
        m_lanes.erase(m_lanes.begin() + row, m_lanes.end());
        endRemoveRows();
    }
}

void HookModel::mergeLane(int row, const QList<SandboxHook> &hooks) {
    const QModelIndex parent = index(row, 0);
    QList<SandboxHook> &current = m_lanes[row].hooks;
    const qsizetype before = current.size();
    int i = 0;
    for (const SandboxHook &hook : hooks) {
        while (i < current.size() && current[i].name < hook.name) {
            beginRemoveRows(parent, i, i);
            current.removeAt(i);
            endRemoveRows();
        }
        if (i < current.size() && current[i].name == hook.name) {
            if (!(current[i] == hook)) {
                current[i] = hook;
                Q_EMIT dataChanged(index(i, 0, parent), index(i, ColumnCount - 1, parent));
            }
        } else {
            beginInsertRows(parent, i, i);
            current.insert(i, hook);
            endInsertRows();
        }
        ++i;
    }
    if (i < current.size()) {
        beginRemoveRows(parent, i, static_cast<int>(current.size()) - 1);
        current.erase(current.begin() + i, current.end());
        endRemoveRows();
    }
    if (current.size() != before)
        Q_EMIT dataChanged(parent, parent);
}

QList<SandboxHook> HookModel::hooks() const {
    QList<SandboxHook> all;
    for (const Lane &lane : m_lanes)
        all += lane.hooks;
    return all;
}

int HookModel::laneRow(quintptr id) const {
    for (int row = 0; row < m_lanes.size(); ++row) {
        if (m_lanes[row].id == id)
            return row;
    }
    return -1;
}

const SandboxHook *HookModel::hookAt(const QModelIndex &index) const {
    if (!index.isValid() || index.model() != this || index.internalId() == 0)
        return nullptr;
    const int lane = laneRow(index.internalId());
    if (lane < 0 || index.row() >= m_lanes[lane].hooks.size())
        return nullptr;
    return &m_lanes[lane].hooks[index.row()];
}

QModelIndex HookModel::indexOfHook(const QString &name) const {
    for (int lane = 0; lane < m_lanes.size(); ++lane) {
        const QList<SandboxHook> &hooks = m_lanes[lane].hooks;
        for (int row = 0; row < hooks.size(); ++row) {
            if (hooks[row].name == name)
                return createIndex(row, 0, m_lanes[lane].id);
        }
    }
    return {};
}

QModelIndex HookModel::indexOfLane(int priority) const {
    for (int row = 0; row < m_lanes.size(); ++row) {
        if (m_lanes[row].priority == priority)
            return index(row, 0);
    }
    return {};
}

QModelIndex HookModel::index(int row, int column, const QModelIndex &parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, m_lanes[parent.row()].id);
}

QModelIndex HookModel::parent(const QModelIndex &child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const int lane = laneRow(child.internalId());
    return lane < 0 ? QModelIndex() : createIndex(lane, 0, quintptr(0));
}

int HookModel::rowCount(const QModelIndex &parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_lanes.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return static_cast<int>(m_lanes[parent.row()].hooks.size());
}

int HookModel::columnCount(const QModelIndex &) const {
    return ColumnCount;
}

Qt::ItemFlags HookModel::flags(const QModelIndex &index) const {
    return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

QVariant HookModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (const SandboxHook *hook = hookAt(index))
        return hookData(*hook, index.column(), role);
    if (index.internalId() == 0)
        return laneData(m_lanes[index.row()], index.column(), role);
    return {};
}

QVariant HookModel::laneData(const Lane &lane, int column, int role) const {
    switch (role) {
    case IsLaneRole:
        return true;
    case PriorityRole:
        return lane.priority;
    case ReadOnlyRole:
        return true;
    case HookNameRole:
        return QString();
    default:
        break;
    }
    if (column != NameColumn)
        return {};
    if (role == Qt::DisplayRole) {
        const qsizetype count = lane.hooks.size();
        return count == 1 ? tr("Priority %1 · 1 hook").arg(lane.priority)
                          : tr("Priority %1 · %2 hooks run together").arg(lane.priority).arg(count);
    }
    if (role == Qt::ToolTipRole)
        return tr("Lanes run one after another, lowest priority first; the hooks in "
                  "one lane run at the same time.");
    if (role == Qt::FontRole) {
        QFont font;
        font.setBold(true);
        return font;
    }
    return {};
}

QVariant HookModel::hookData(const SandboxHook &hook, int column, int role) const {
    switch (role) {
    case IsLaneRole:
        return false;
    case PriorityRole:
        return hook.priority;
    case HookNameRole:
        return hook.name;
    case ReadOnlyRole:
        return hook.readOnly();
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return hook.name;
        case CommandColumn:
            return commandSummary(hook.command);
        case TimeoutColumn:
            return tr("%1 s").arg(hook.timeoutSeconds);
        case SourceColumn:
            return hook.readOnly() ? tr("env (read-only)") : tr("api");
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (column == CommandColumn)
            return hook.command;
        return hook.readOnly() ? readOnlyHookReason() : QVariant();
    case Qt::FontRole:
        if (column == CommandColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case Qt::ForegroundRole:
        return hook.readOnly() ? QVariant(Palette::color(Palette::Role::TextMuted)) : QVariant();
    default:
        return {};
    }
}

QVariant HookModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case CommandColumn:
        return tr("Command");
    case TimeoutColumn:
        return tr("Timeout");
    case SourceColumn:
        return tr("Source");
    default:
        return {};
    }
}

} // namespace sbx
