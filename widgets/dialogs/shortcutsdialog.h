#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace sbx {

// One keyboard shortcut as Help > Keyboard Shortcuts lists it.
struct ShortcutEntry {
    QString area; // "Sandbox list", a tab's title, "Log window", ...
    QString keys; // native text, "Ctrl+Shift+T"
    QString description;

    bool operator==(const ShortcutEntry &) const = default;
};

// Every shortcut reachable from the given windows: their actions with a shortcut (by their text),
// and the QShortcuts made by addLocalShortcut (by their description), grouped by the tab they
// live in; then the keys a terminal view handles itself. Sorted by area, then keys.
QList<ShortcutEntry> collectShortcuts(const QList<QWidget *> &windows);

// Help > Keyboard Shortcuts: the list with a filter field matching area, keys or description.
class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent = nullptr);

    QLineEdit *filterField() const { return m_filter; }
    QList<ShortcutEntry> entries() const { return m_entries; }
    // Rows the filter lets through.
    int visibleRows() const;

private:
    QList<ShortcutEntry> m_entries;
    QLineEdit *m_filter;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
};

} // namespace sbx
