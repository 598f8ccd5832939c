#pragma once

#include <QKeySequence>
#include <QString>

#include <functional>

class QLabel;
class QTreeView;
class QWidget;

namespace sbx {

// A selectable, word-wrapped error box, hidden until given text.
QLabel *makeErrorBox(QWidget *parent);
// A flat list of rows (runs, tools, processes...): one row selected at a time, named for screen
// readers by accessibleName (translated).
QTreeView *makeListView(const QString &accessibleName, QWidget *parent);
// A shortcut active while focus is anywhere inside owner (a tab's own F5, Ctrl+F, ...); the
// description (translated) is what Help > Keyboard Shortcuts lists for it.
void addLocalShortcut(QWidget *owner, const QKeySequence &key, const QString &description,
                      std::function<void()> action);
// An action's text for a toolbar button: without a translation's "(&T)" mnemonic suffix (Chinese
// UIs show 启动, not 启动(T), on a toolbar; Qt itself strips only the '&').
QString toolBarText(const QString &actionText);

} // namespace sbx
