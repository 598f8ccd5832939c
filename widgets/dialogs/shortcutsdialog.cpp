#include "widgets/dialogs/shortcutsdialog.h"

#include "widgets/common/widgethelpers.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSet>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString plainText(const QString &text) {
    return toolBarText(text).remove(u'&').remove(u'…').trimmed();
}

// The workspace tab (or window) an object lives in.
QString areaOf(const QObject *object, const QWidget *window) {
    for (const QObject *o = object; o; o = o->parent()) {
        const QVariant title = o->property("sbxTabTitle");
        if (title.isValid())
            return title.toString();
        if (o->objectName() == u"sandboxList"_s)
            return ShortcutsDialog::tr("Sandbox list");
    }
    return window->windowTitle();
}

// Keys the terminal view handles in its key events rather than through QShortcut
// (widgets/terminal/terminalviewinput.cpp).
QList<ShortcutEntry> terminalKeys() {
    const QString area = ShortcutsDialog::tr("Terminal");
    auto entry = [&area](const char *keys, const QString &what) {
        return ShortcutEntry{
            area, QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText), what};
    };
    return {entry("Ctrl+Shift+C", ShortcutsDialog::tr("Copy the selection")),
            entry("Ctrl+Shift+V", ShortcutsDialog::tr("Paste")),
            entry("Ctrl+Shift+F", ShortcutsDialog::tr("Find in the terminal")),
            entry("Ctrl++", ShortcutsDialog::tr("Larger text")),
            entry("Ctrl+-", ShortcutsDialog::tr("Smaller text")),
            entry("Ctrl+0", ShortcutsDialog::tr("Text at its normal size")),
            entry("Shift+PgUp", ShortcutsDialog::tr("Scroll back a page")),
            entry("Shift+PgDown", ShortcutsDialog::tr("Scroll forward a page"))};
}

} // namespace

QList<ShortcutEntry> collectShortcuts(const QList<QWidget *> &windows) {
    QList<ShortcutEntry> out;
    QSet<QString> seen;
    auto add = [&out, &seen](ShortcutEntry entry) {
        if (entry.keys.isEmpty() || entry.description.isEmpty())
            return;
        const QString key = entry.area + u'\n' + entry.keys + u'\n' + entry.description;
        if (seen.contains(key))
            return;
        seen.insert(key);
        out.append(std::move(entry));
    };
    for (QWidget *window : windows) {
        if (!window)
            continue;
        const QList<QAction *> actions = window->findChildren<QAction *>();
        for (const QAction *action : actions) {
            const QList<QKeySequence> keys = action->shortcuts();
            for (const QKeySequence &key : keys)
                add({window->windowTitle(), key.toString(QKeySequence::NativeText),
                     plainText(action->text())});
        }
        const QList<QShortcut *> shortcuts = window->findChildren<QShortcut *>();
        for (const QShortcut *shortcut : shortcuts)
            add({areaOf(shortcut, window), shortcut->key().toString(QKeySequence::NativeText),
                 shortcut->whatsThis()});
    }
    for (ShortcutEntry &entry : terminalKeys())
        add(std::move(entry));
    std::sort(out.begin(), out.end(), [](const ShortcutEntry &a, const ShortcutEntry &b) {
        return std::tie(a.area, a.keys, a.description) < std::tie(b.area, b.keys, b.description);
    });
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent)
    : QDialog(parent)
    , m_entries(entries)
    , m_filter(new QLineEdit(this))
    , m_model(new QStandardItemModel(0, 3, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this)) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_model->setHorizontalHeaderLabels({tr("Where"), tr("Keys"), tr("Does")});
    for (const ShortcutEntry &entry : entries) {
        QList<QStandardItem *> row{new QStandardItem(entry.area), new QStandardItem(entry.keys),
                                   new QStandardItem(entry.description)};
        for (QStandardItem *item : row)
            item->setEditable(false);
        m_model->appendRow(row);
    }
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setPlaceholderText(tr("Filter by key, action or place"));
    m_filter->setAccessibleName(tr("Filter shortcuts"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setAccessibleName(tr("Keyboard shortcuts"));
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    layout->addWidget(buttons);
    resize(640, 560);
    m_filter->setFocus();
}

int ShortcutsDialog::visibleRows() const {
    return m_proxy->rowCount();
}

} // namespace sbx
