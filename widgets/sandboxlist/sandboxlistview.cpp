#include "widgets/sandboxlist/sandboxlistview.h"

#include "models/sandboxlistmodel.h"
#include "widgets/common/icons.h"

#include <QHeaderView>
#include <QMenu>
#include <QStyledItemDelegate>
#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// The state's shape before the name, in the model's state colour: the shapes tell the states
// apart without the colours.
class StateDotDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const QVariant colour = index.data(Qt::DecorationRole);
        if (!colour.canConvert<QColor>() || colour.typeId() != QMetaType::QColor)
            return;
        const auto state = SandboxState(index.data(SandboxListModel::StateRole).toInt());
        const int size = option->fontMetrics.height();
        option->icon = Icons::stateIcon(stateShape(state), colour.value<QColor>());
        option->decorationSize = QSize(size * 3 / 4, size * 3 / 4);
        option->features |= QStyleOptionViewItem::HasDecoration;
    }

private:
    static QString stateShape(SandboxState state) {
        switch (state) {
        case SandboxState::Online:
            return u"online"_s;
        case SandboxState::Starting:
        case SandboxState::Stopping:
            return u"busy"_s;
        case SandboxState::Paused:
            return u"paused"_s;
        case SandboxState::Stopped:
            return u"stopped"_s;
        case SandboxState::AuthFailed:
        case SandboxState::Unreachable:
            break;
        }
        return u"failed"_s;
    }
};

} // namespace

SandboxListView::SandboxListView(SandboxListModel *model, QWidget *parent)
    : QTreeView(parent) {
    setObjectName(u"sandboxList"_s);
    setModel(model);
    setItemDelegate(new StateDotDelegate(this));
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setContextMenuPolicy(Qt::CustomContextMenu);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(SandboxListModel::NameColumn, QHeaderView::Stretch);
    setColumnHidden(SandboxListModel::UrlColumn, true);
    for (int c : {int(SandboxListModel::StateColumn), int(SandboxListModel::ProviderColumn),
                  int(SandboxListModel::VersionColumn), int(SandboxListModel::LatencyColumn),
                  int(SandboxListModel::UsageColumn)})
        header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header(), &QWidget::customContextMenuRequested, this, [this, model](const QPoint &pos) {
        QMenu menu(this);
        for (int c = 0; c < SandboxListModel::ColumnCount; ++c) {
            if (c == SandboxListModel::NameColumn)
                continue;
            QAction *a =
                menu.addAction(model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
            a->setCheckable(true);
            a->setChecked(!isColumnHidden(c));
            connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnHidden(c, !on); });
        }
        menu.exec(header()->mapToGlobal(pos));
    });
}

QString SandboxListView::selectedId() const {
    const QModelIndexList rows = selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    const QModelIndex current = currentIndex();
    if (current.isValid() && selectionModel()->isRowSelected(current.row()))
        return current.data(SandboxListModel::IdRole).toString();
    return rows.first().data(SandboxListModel::IdRole).toString();
}

QStringList SandboxListView::selectedIds() const {
    QModelIndexList rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList ids;
    for (const QModelIndex &row : std::as_const(rows))
        ids << row.data(SandboxListModel::IdRole).toString();
    return ids;
}

} // namespace sbx
