#include "widgets/files/fileeventsview.h"

#include "models/files/fileeventmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

FileEventsView::FileEventsView(FileEventModel *events, QWidget *parent)
    : QWidget(parent)
    , m_events(events)
    , m_filter(new FileEventFilter(this))
    , m_type(new QComboBox(this))
    , m_path(new QLineEdit(this))
    , m_state(new QLabel(this))
    , m_list(new QTreeView(this)) {
    m_filter->setSourceModel(events);
    m_type->addItem(tr("All changes"), QString());
    for (const char *type : {"create", "write", "remove", "rename", "chmod"})
        m_type->addItem(QString::fromLatin1(type), QString::fromLatin1(type));
    m_path->setPlaceholderText(tr("Filter by path"));
    m_path->setAccessibleName(tr("Path filter"));
    m_list->setAccessibleName(tr("File events"));
    m_path->setClearButtonEnabled(true);
    auto *clear = new QToolButton(this);
    clear->setText(tr("Clear"));
    clear->setToolTip(tr("Forget the events listed so far"));

    m_list->setModel(m_filter);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(FileEventModel::PathColumn, QHeaderView::Stretch);
    m_list->setToolTip(tr("Double-click reveals the file in the tree"));

    auto *title = new QHBoxLayout;
    title->addWidget(new QLabel(tr("<b>Events</b>"), this));
    title->addWidget(m_state, 1);
    title->addWidget(clear);
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_type);
    filters->addWidget(m_path, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(title);
    layout->addLayout(filters);
    layout->addWidget(m_list, 1);

    connect(m_type, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setType(m_type->currentData().toString()); });
    connect(m_path, &QLineEdit::textChanged, m_filter, &FileEventFilter::setPathText);
    connect(clear, &QToolButton::clicked, m_events, &FileEventModel::clear);
    connect(m_list, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const QString path = index.data(FileEventModel::PathRole).toString();
        if (!path.isEmpty() && index.data(FileEventModel::TypeRole).toString() != "remove"_L1)
            Q_EMIT revealRequested(path);
    });
    connect(m_list, &QWidget::customContextMenuRequested, this, &FileEventsView::showMenu);
}

void FileEventsView::setWatchState(const QString &text, bool live) {
    m_state->setText(text);
    m_state->setStyleSheet(live ? QString() : u"color: palette(mid);"_s);
}

QString FileEventsView::watchStateText() const {
    return m_state->text();
}

void FileEventsView::setTypeFilter(const QString &type) {
    const int at = m_type->findData(type);
    m_type->setCurrentIndex(at < 0 ? 0 : at);
}

void FileEventsView::setPathFilter(const QString &text) {
    m_path->setText(text);
}

void FileEventsView::showMenu(const QPoint &pos) {
    const QModelIndex at = m_list->indexAt(pos);
    if (!at.isValid())
        return;
    const QString path = at.data(FileEventModel::PathRole).toString();
    const QString type = at.data(FileEventModel::TypeRole).toString();
    if (path.isEmpty() || type == "remove"_L1)
        return;
    QMenu menu(this);
    menu.addAction(tr("Reveal in the tree"), this, [this, path] { Q_EMIT revealRequested(path); });
    if (m_canOpenLogs && !at.data(FileEventModel::IsDirectoryRole).toBool())
        menu.addAction(tr("Follow as log"), this,
                       [this, path] { Q_EMIT openAsLogRequested(path); });
    menu.exec(m_list->viewport()->mapToGlobal(pos));
}

} // namespace sbx
