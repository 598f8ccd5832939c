#include "widgets/sandboxlist/sandboxlistview.h"

#include "models/sandboxlistmodel.h"

#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QStyledItemDelegate>
#include <algorithm>

namespace sbx {

namespace {

// Paints the model's state colour as a round dot before the name.
class StateDotDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const QVariant colour = index.data(Qt::DecorationRole);
        if (!colour.canConvert<QColor>() || colour.typeId() != QMetaType::QColor)
            return;
        const int size = option->fontMetrics.height();
        QPixmap dot(size * 2, size * 2); // drawn at twice the size for high-DPI screens
        dot.setDevicePixelRatio(2);
        dot.fill(Qt::transparent);
        QPainter p(&dot);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(colour.value<QColor>());
        const qreal d = size * 0.55;
        p.drawEllipse(QRectF((size - d) / 2, (size - d) / 2, d, d));
        p.end();
        option->icon = QIcon(dot);
        option->decorationSize = QSize(size, size);
        option->features |= QStyleOptionViewItem::HasDecoration;
    }
};

} // namespace

SandboxListView::SandboxListView(SandboxListModel *model, QWidget *parent)
    : QTreeView(parent) {
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
