#include "models/files/fileeventmodel.h"

#include <QLocale>

namespace sbx {

using namespace Qt::StringLiterals;

FileEventModel::FileEventModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void FileEventModel::add(const QList<FileChange> &changes) {
    if (changes.isEmpty())
        return;
    const int count = static_cast<int>(qMin<qsizetype>(changes.size(), kCapacity));
    beginInsertRows({}, 0, count - 1);
    for (qsizetype i = changes.size() - count; i < changes.size(); ++i)
        m_changes.push_front(changes.at(i));
    endInsertRows();
    const int extra = static_cast<int>(m_changes.size()) - kCapacity;
    if (extra > 0) {
        beginRemoveRows({}, kCapacity, kCapacity + extra - 1);
        m_changes.resize(kCapacity);
        endRemoveRows();
    }
}

void FileEventModel::addOverflow() {
    FileChange lost;
    lost.type = u"overflow"_s;
    lost.time = QDateTime::currentDateTime();
    add({lost});
}

void FileEventModel::setRoot(const QString &root) {
    m_root = root.endsWith(u'/') ? root : root + u'/';
    if (!m_changes.empty())
        Q_EMIT dataChanged(index(0, PathColumn), index(rowCount() - 1, PathColumn));
}

QString FileEventModel::shown(const QString &path) const {
    return m_root.size() > 1 && path.startsWith(m_root) ? path.mid(m_root.size()) : path;
}

void FileEventModel::clear() {
    beginResetModel();
    m_changes.clear();
    endResetModel();
}

const FileChange *FileEventModel::change(int row) const {
    return row >= 0 && row < static_cast<int>(m_changes.size())
               ? &m_changes[static_cast<std::size_t>(row)]
               : nullptr;
}

int FileEventModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_changes.size());
}

int FileEventModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FileEventModel::data(const QModelIndex &index, int role) const {
    const FileChange *c = change(index.row());
    if (!c || !index.isValid())
        return {};
    switch (role) {
    case PathRole:
        return c->path;
    case TypeRole:
        return c->type;
    case IsDirectoryRole:
        return c->isDirectory;
    case OldPathRole:
        return c->oldPath;
    case Qt::ToolTipRole:
        return c->oldPath.isEmpty() ? c->path : tr("%1 (was %2)").arg(c->path, c->oldPath);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case TimeColumn:
        return QLocale().toString(c->time.time(), u"HH:mm:ss.zzz"_s);
    case TypeColumn:
        return c->type == "overflow"_L1 ? tr("events lost") : c->type;
    case PathColumn:
        if (c->type == "overflow"_L1)
            return tr("Too many changes at once: the tree was listed again");
        return c->oldPath.isEmpty() ? shown(c->path)
                                    : tr("%1 → %2").arg(shown(c->oldPath), shown(c->path));
    case SizeColumn:
        return c->size >= 0 && !c->isDirectory && c->type != "remove"_L1
                   ? QLocale().formattedDataSize(c->size, 1, QLocale::DataSizeTraditionalFormat)
                   : QString();
    default:
        return {};
    }
}

QVariant FileEventModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Change");
    case PathColumn:
        return tr("Path");
    case SizeColumn:
        return tr("Size");
    default:
        return {};
    }
}

void FileEventFilter::setType(const QString &type) {
    m_type = type;
    invalidateFilter();
}

void FileEventFilter::setPathText(const QString &text) {
    m_text = text;
    invalidateFilter();
}

bool FileEventFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_type.isEmpty() && index.data(FileEventModel::TypeRole).toString() != m_type)
        return false;
    if (m_text.isEmpty())
        return true;
    return index.data(FileEventModel::PathRole).toString().contains(m_text, Qt::CaseInsensitive) ||
           index.data(FileEventModel::OldPathRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace sbx
