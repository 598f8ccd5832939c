#include "models/sandboxlistmodel.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/palette.h"

#include <QColor>
#include <QTimer>

namespace {
constexpr int expiryWarningSecs = 5 * 60;
}

struct SandboxListModel::Row {
    SandboxEntry entry;
    QPointer<SandboxProvider> provider;
    SandboxClient *client = nullptr;
    QPointer<ProbeJob> probe;
    bool probed = false;
    Status probeStatus;
    qint64 latencyMs = -1;
    QString version;
};

SandboxListModel::SandboxListModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_timer(new QTimer(this)) {
    m_timer->setInterval(5000);
    connect(m_timer, &QTimer::timeout, this, &SandboxListModel::probeAll);
    m_timer->start();
}

SandboxListModel::~SandboxListModel() = default;

void SandboxListModel::addProvider(SandboxProvider *provider) {
    m_providers.append(provider);
    connect(provider, &SandboxProvider::sandboxAdded, this,
            [this, provider](const SandboxEntry &entry) { onAdded(provider, entry); });
    connect(provider, &SandboxProvider::sandboxChanged, this, &SandboxListModel::onChanged);
    connect(provider, &SandboxProvider::sandboxRemoved, this, &SandboxListModel::onRemoved);
    const QList<SandboxEntry> entries = provider->sandboxes();
    for (const SandboxEntry &entry : entries)
        onAdded(provider, entry);
}

SandboxProvider *SandboxListModel::provider(const QString &providerId) const {
    for (const auto &p : m_providers) {
        if (p && p->id() == providerId)
            return p;
    }
    return nullptr;
}

int SandboxListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SandboxListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

SandboxState SandboxListModel::effectiveState(const Row &row) const {
    switch (row.entry.providerState) {
    case SandboxState::Online:
        break;
    default:
        return row.entry.providerState;
    }
    if (!row.entry.endpoint.isValid() || !row.probed)
        return SandboxState::Starting;
    if (row.probeStatus.ok())
        return SandboxState::Online;
    if (row.probeStatus.kind == Status::Kind::Auth)
        return SandboxState::AuthFailed;
    return SandboxState::Unreachable;
}

QVariant SandboxListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = *m_rows[static_cast<std::size_t>(index.row())];
    const SandboxState state = effectiveState(row);
    const QDateTime expiry = row.entry.credentials.kind == Credentials::Kind::Jwt
                                 ? jwtExpiry(row.entry.credentials.secret)
                                 : QDateTime();
    const qint64 secsLeft = expiry.isValid() ? QDateTime::currentDateTimeUtc().secsTo(expiry) : -1;
    const bool expiryWarning = expiry.isValid() && secsLeft < expiryWarningSecs;

    switch (role) {
    case IdRole:
        return row.entry.id;
    case StateRole:
        return static_cast<int>(state);
    case DetailRole:
        return lastError(row.entry.id);
    case ActionsRole:
        return row.provider ? static_cast<int>(row.provider->actions(row.entry).toInt()) : 0;
    case ProviderIdRole:
        return row.provider ? row.provider->id() : QString();
    case ExpiryWarningRole:
        return expiryWarning;
    case Qt::ToolTipRole: {
        QStringList lines{row.entry.name, row.entry.endpoint.displayAddress(),
                          QStringLiteral("State: ") + sandboxStateName(state)};
        const QString why = lastError(row.entry.id);
        if (!why.isEmpty())
            lines << why;
        if (expiry.isValid())
            lines << (secsLeft > 0 ? QStringLiteral("JWT expires %1")
                                         .arg(expiry.toLocalTime().toString(Qt::ISODate))
                                   : QStringLiteral("JWT expired"));
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
            return row.entry.name;
        case StateColumn: {
            QString text = sandboxStateName(state);
            if (expiry.isValid() && secsLeft <= 0)
                text += QStringLiteral(" · JWT expired");
            else if (expiryWarning)
                text +=
                    QStringLiteral(" · JWT expires in %1 min").arg(qMax<qint64>(1, secsLeft / 60));
            return text;
        }
        case ProviderColumn:
            return row.provider ? row.provider->displayName() : QString();
        case UrlColumn:
            return row.entry.endpoint.isValid() ? row.entry.endpoint.displayAddress() : QString();
        case VersionColumn:
            return row.version;
        case LatencyColumn:
            if (state != SandboxState::Online || row.latencyMs < 0)
                return QString();
            return row.latencyMs == 0 ? QStringLiteral("<1 ms")
                                      : QStringLiteral("%1 ms").arg(row.latencyMs);
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
        return QStringLiteral("Name");
    case StateColumn:
        return QStringLiteral("State");
    case ProviderColumn:
        return QStringLiteral("Provider");
    case UrlColumn:
        return QStringLiteral("Address");
    case VersionColumn:
        return QStringLiteral("Version");
    case LatencyColumn:
        return QStringLiteral("Latency");
    default:
        return {};
    }
}

int SandboxListModel::rowOf(const QString &id) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i]->entry.id == id)
            return static_cast<int>(i);
    }
    return -1;
}

QString SandboxListModel::idAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)]->entry.id
                                        : QString();
}

SandboxEntry SandboxListModel::entry(const QString &id) const {
    const int row = rowOf(id);
    return row < 0 ? SandboxEntry{} : m_rows[static_cast<std::size_t>(row)]->entry;
}

SandboxState SandboxListModel::state(const QString &id) const {
    const int row = rowOf(id);
    return row < 0 ? SandboxState::Stopped : effectiveState(*m_rows[static_cast<std::size_t>(row)]);
}

SandboxClient *SandboxListModel::client(const QString &id) const {
    const int row = rowOf(id);
    return row < 0 ? nullptr : m_rows[static_cast<std::size_t>(row)]->client;
}

QString SandboxListModel::lastError(const QString &id) const {
    const int row = rowOf(id);
    if (row < 0)
        return {};
    const Row &r = *m_rows[static_cast<std::size_t>(row)];
    if (!r.entry.detail.isEmpty())
        return r.entry.detail;
    if (r.entry.providerState == SandboxState::Online && r.probed && !r.probeStatus.ok())
        return r.probeStatus.message;
    return {};
}

void SandboxListModel::setPollInterval(int ms) {
    m_timer->setInterval(qMax(500, ms));
}

int SandboxListModel::pollInterval() const {
    return m_timer->interval();
}

void SandboxListModel::onAdded(SandboxProvider *provider, const SandboxEntry &entry) {
    if (rowOf(entry.id) >= 0) {
        onChanged(entry);
        return;
    }
    auto row = std::make_unique<Row>();
    row->entry = entry;
    row->provider = provider;
    row->client = new SandboxClient(entry.endpoint, entry.credentials, this);
    const int at = rowCount();
    beginInsertRows({}, at, at);
    m_rows.push_back(std::move(row));
    endInsertRows();
    probe(entry.id);
}

void SandboxListModel::onChanged(const SandboxEntry &entry) {
    const int at = rowOf(entry.id);
    if (at < 0)
        return;
    Row &row = *m_rows[static_cast<std::size_t>(at)];
    const SandboxState before = effectiveState(row);
    const bool connectionChanged =
        !(row.entry.endpoint == entry.endpoint) || !(row.entry.credentials == entry.credentials);
    row.entry = entry;
    if (connectionChanged) {
        row.client->setEndpoint(entry.endpoint);
        row.client->setCredentials(entry.credentials);
        row.probed = false;
        if (row.probe)
            row.probe->abort();
    }
    rowChanged(at, before);
    if (connectionChanged)
        probe(entry.id);
}

void SandboxListModel::onRemoved(const QString &id) {
    const int at = rowOf(id);
    if (at < 0)
        return;
    beginRemoveRows({}, at, at);
    auto it = m_rows.begin() + at;
    if ((*it)->probe)
        (*it)->probe->abort();
    (*it)->client->deleteLater();
    m_rows.erase(it);
    endRemoveRows();
}

void SandboxListModel::probeAll() {
    for (const auto &row : m_rows)
        probe(row->entry.id);
}

void SandboxListModel::probe(const QString &id) {
    const int at = rowOf(id);
    if (at < 0)
        return;
    Row &row = *m_rows[static_cast<std::size_t>(at)];
    if (row.probe || row.entry.providerState != SandboxState::Online ||
        !row.entry.endpoint.isValid())
        return;
    // A saved credential still being read from the keychain would only produce a false auth
    // failure.
    if (row.entry.credentials.kind != Credentials::Kind::None &&
        row.entry.credentials.secret.isEmpty() && row.entry.detail.isEmpty() && row.provider &&
        row.provider->id() == QLatin1String("saved"))
        return;
    auto *job = new ProbeJob(row.client, qMin(5000, qMax(1000, m_timer->interval())));
    row.probe = job;
    connect(job, &ProbeJob::succeeded, this,
            [this, id](const ProbeResult &r) { onProbeFinished(id, Status::success(), r); });
    connect(job, &ApiJob::failed, this,
            [this, id](const Status &status) { onProbeFinished(id, status, {}); });
    job->start();
}

void SandboxListModel::onProbeFinished(const QString &id, const Status &status,
                                       const ProbeResult &result) {
    const int at = rowOf(id);
    if (at < 0)
        return;
    Row &row = *m_rows[static_cast<std::size_t>(at)];
    const SandboxState before = effectiveState(row);
    const bool same =
        row.probed && row.probeStatus.kind == status.kind &&
        row.probeStatus.message == status.message &&
        (!status.ok() || (row.latencyMs == result.latencyMs && row.version == result.version));
    row.probed = true;
    row.probeStatus = status;
    if (status.ok()) {
        row.latencyMs = result.latencyMs;
        row.version = result.version;
    }
    if (!same)
        rowChanged(at, before);
}

void SandboxListModel::rowChanged(int row, SandboxState before) {
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    const Row &r = *m_rows[static_cast<std::size_t>(row)];
    const SandboxState now = effectiveState(r);
    if (now != before)
        Q_EMIT stateChanged(r.entry.id, now);
}
