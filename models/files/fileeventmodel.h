#pragma once

#include "client/api/filewatch.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <deque>

namespace sbx {

// The file changes a watch reported, newest first, at most kCapacity of them: time, type, path,
// size. The Events view of the Files tab.
class FileEventModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kCapacity = 10000;
    enum Column { TimeColumn, TypeColumn, PathColumn, SizeColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1, TypeRole, IsDirectoryRole, OldPathRole };

    explicit FileEventModel(QObject *parent = nullptr);

    void add(const QList<FileChange> &changes);
    // A line saying events were lost (the watch overflowed) and the tree was listed again.
    void addOverflow();
    void clear();
    const FileChange *change(int row) const;
    // Paths under root are shown relative to it.
    void setRoot(const QString &root);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString shown(const QString &path) const;

    std::deque<FileChange> m_changes; // newest first
    QString m_root;
};

// Keeps the events of one type (empty: all) whose path contains a text.
class FileEventFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setType(const QString &type);
    void setPathText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_type;
    QString m_text;
};

} // namespace sbx
