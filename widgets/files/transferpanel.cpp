#include "widgets/files/transferpanel.h"

#include "models/files/transferqueuemodel.h"

#include <QApplication>
#include <QDesktopServices>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QToolBar>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Draws a transfer's progress as a bar with the byte counts on it.
class ProgressDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override {
        const qint64 total = index.data(TransferQueueModel::BytesTotalRole).toLongLong();
        const qint64 done = index.data(TransferQueueModel::BytesDoneRole).toLongLong();
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        item.text.clear();
        QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &item, painter);
        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 2, -2, -2);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = total > 0 ? static_cast<int>(done * 1000 / total) : 0;
        bar.text = index.data(Qt::DisplayRole).toString();
        bar.textVisible = true;
        bar.state = option.state | QStyle::State_Horizontal;
        QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
    }
};

} // namespace

TransferPanel::TransferPanel(TransferQueueModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this)) {
    m_view->setModel(model);
    m_view->setAccessibleName(tr("Transfers"));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegateForColumn(TransferQueueModel::ProgressColumn,
                                     new ProgressDelegate(m_view));
    m_view->header()->setSectionResizeMode(TransferQueueModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->resizeSection(TransferQueueModel::StateColumn, 160);
    m_view->header()->resizeSection(TransferQueueModel::ProgressColumn, 240);
    m_view->header()->setStretchLastSection(false);

    auto *bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addWidget(m_summary);
    auto *spacer = new QWidget(bar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    QAction *cancel = bar->addAction(tr("Cancel"), this, [this] { m_model->cancel(currentRow()); });
    cancel->setToolTip(tr("Stop the selected transfer; nothing half-written stays"));
    bar->addAction(tr("Retry"), this, [this] { m_model->retry(currentRow()); });
    bar->addAction(tr("Show in folder"), this, [this] { showInFolder(currentRow()); });
    bar->addAction(tr("Clear finished"), this, [this] { m_model->removeFinished(); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_view, 1);

    m_openLocal = [](const QString &folder) {
        QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
    };
    connect(m_view, &QTreeView::doubleClicked, this,
            [this](const QModelIndex &index) { showInFolder(index.row()); });
    connect(model, &QAbstractItemModel::rowsInserted, this, &TransferPanel::updateSummary);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &TransferPanel::updateSummary);
    connect(model, &QAbstractItemModel::dataChanged, this, &TransferPanel::updateSummary);
    updateSummary();
}

int TransferPanel::currentRow() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void TransferPanel::showInFolder(int row) {
    if (row < 0 || row >= m_model->rowCount())
        return;
    const QModelIndex at = m_model->index(row, 0);
    const auto direction = static_cast<TransferQueueModel::Direction>(
        at.data(TransferQueueModel::DirectionRole).toInt());
    if (direction == TransferQueueModel::Direction::Upload)
        Q_EMIT showRemote(at.data(TransferQueueModel::RemotePathRole).toString());
    else if (m_openLocal)
        m_openLocal(
            QFileInfo(at.data(TransferQueueModel::LocalPathRole).toString()).absolutePath());
}

void TransferPanel::updateSummary() {
    int running = 0, queued = 0, failed = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        switch (m_model->state(row)) {
        case TransferQueueModel::State::Running:
            ++running;
            break;
        case TransferQueueModel::State::Queued:
            ++queued;
            break;
        case TransferQueueModel::State::Failed:
            ++failed;
            break;
        default:
            break;
        }
    }
    QStringList parts;
    if (running)
        parts << tr("%1 running").arg(running);
    if (queued)
        parts << tr("%1 queued").arg(queued);
    if (failed)
        parts << tr("%1 failed").arg(failed);
    m_summary->setText(
        QString(tr("<b>Transfers</b>  ") + (parts.isEmpty() ? tr("idle") : parts.join(u", "_s))));
}

} // namespace sbx
