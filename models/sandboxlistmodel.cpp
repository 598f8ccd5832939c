#include "models/sandboxlistmodel.h"

#include <QLocale>

#include "client/providers/sandboxregistry.h"
#include "client/transport/credentials.h"
#include "models/palette.h"

#include <QColor>
#include <QDateTime>

namespace sbx {

namespace {}

SandboxListModel::SandboxListModel(SandboxRegistry *registry, QObject *parent)
    : QAbstractTableModel(parent)
    , m_registry(registry)
    , m_ids(registry->ids()) {
    connect(registry, &SandboxRegistry::added, this, [this](const QString &id) {
        const int at = rowCount();
        beginInsertRows({}, at, at);
        m_ids.append(id);
        endInsertRows();
    });
    connect(registry, &SandboxRegistry::changed, this, &SandboxListModel::onChanged);
    connect(registry, &SandboxRegistry::removed, this, [this](const QString &id) {
        const int at = rowOf(id);
        if (at < 0)
            return;
        beginRemoveRows({}, at, at);
        m_ids.removeAt(at);
        endRemoveRows();
    });
}

void SandboxListModel::onChanged(const QString &id) {
    const int at = rowOf(id);
    if (at >= 0)
        Q_EMIT dataChanged(index(at, 0), index(at, ColumnCount - 1));
}

int SandboxListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_ids.size());
}

int SandboxListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SandboxListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString id = m_ids.at(index.row());
    const SandboxEntry entry = m_registry->entry(id);
    const SandboxProvider *provider = m_registry->providerOf(id);
    const SandboxHealth health = m_registry->health(id);
    const SandboxState state = m_registry->state(id);
    const QString why = m_registry->lastError(id);
    const QDateTime expiry = entry.credentials.kind == Credentials::Kind::Jwt
                                 ? jwtExpiry(entry.credentials.secret)
                                 : QDateTime();
    const qint64 secsLeft = expiry.isValid() ? QDateTime::currentDateTimeUtc().secsTo(expiry) : -1;
    const bool expiryWarning = expiry.isValid() && secsLeft < kJwtExpiryWarningSecs;

    switch (role) {
    case IdRole:
        return id;
    case StateRole:
        return static_cast<int>(state);
    case DetailRole:
        return why;
    case ActionsRole:
        return static_cast<int>(m_registry->actions(id).toInt());
    case ProviderIdRole:
        return provider ? provider->id() : QString();
    case ExpiryWarningRole:
        return expiryWarning;
    case Qt::ToolTipRole: {
        QStringList lines{entry.name, entry.endpoint.displayAddress(),
                          tr("State: %1").arg(sandboxStateName(state))};
        if (!why.isEmpty())
            lines << why;
        if (expiry.isValid())
            lines << (secsLeft > 0
                          ? tr("JWT expires %1").arg(expiry.toLocalTime().toString(Qt::ISODate))
                          : tr("JWT expired"));
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        if (index.column() == StateColumn && (expiryWarning || state == SandboxState::AuthFailed ||
                                              state == SandboxState::Unreachable))
            return Palette::color(Palette::Role::StateFailed);
        return {};
    case Qt::DecorationRole:
        if (index.column() != NameColumn)
            return {};
        switch (state) {
        case SandboxState::Online:
            return Palette::color(Palette::Role::StateOnline);
        case SandboxState::Starting:
        case SandboxState::Stopping:
            return Palette::color(Palette::Role::StateBusy);
        case SandboxState::Paused:
            return Palette::color(Palette::Role::StatePaused);
        case SandboxState::Stopped:
            return Palette::color(Palette::Role::StateStopped);
        default:
            return Palette::color(Palette::Role::StateFailed);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return entry.name;
        case StateColumn: {
            QString text = sandboxStateName(state);
            if (expiry.isValid() && secsLeft <= 0)
                text = tr("%1 · JWT expired").arg(text);
            else if (expiryWarning)
                text =
                    tr("%1 · JWT expires in %2 min").arg(text).arg(qMax<qint64>(1, secsLeft / 60));
            return text;
        }
        case ProviderColumn:
            return provider ? provider->displayName() : QString();
        case UrlColumn:
            return entry.endpoint.isValid() ? entry.endpoint.displayAddress() : QString();
        case VersionColumn:
            return health.version;
        case LatencyColumn:
            if (state != SandboxState::Online || health.latencyMs < 0)
                return QString();
            return health.latencyMs == 0 ? tr("<1 ms") : tr("%1 ms").arg(health.latencyMs);
        case UsageColumn: {
            if (state != SandboxState::Online)
                return QString();
            // Nothing running in the sandbox (observe sums its processes): not a broken "0 bytes".
            if (health.memBytes == 0 && health.cpuPct.value_or(0) < 0.5)
                return tr("idle");
            QStringList parts;
            if (health.cpuPct)
                parts << tr("%1 %").arg(QString::number(*health.cpuPct, 'f', 0));
            if (health.memBytes)
                parts << QLocale().formattedDataSize(*health.memBytes, 0,
                                                     QLocale::DataSizeTraditionalFormat);
            return parts.join(QStringLiteral(" · "));
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant SandboxListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case StateColumn:
        return tr("State");
    case ProviderColumn:
        return tr("Provider");
    case UrlColumn:
        return tr("Address");
    case VersionColumn:
        return tr("Version");
    case LatencyColumn:
        return tr("Latency");
    case UsageColumn:
        return tr("CPU · Mem");
    default:
        return {};
    }
}

int SandboxListModel::rowOf(const QString &id) const {
    return static_cast<int>(m_ids.indexOf(id));
}

QString SandboxListModel::idAt(int row) const {
    return row >= 0 && row < rowCount() ? m_ids.at(row) : QString();
}

} // namespace sbx
