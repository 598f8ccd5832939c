#pragma once

#include <QKeySequence>

#include <functional>

class QLabel;
class QWidget;

namespace sbx {

// A selectable, word-wrapped error box, hidden until given text.
QLabel *makeErrorBox(QWidget *parent);
// A shortcut active while focus is anywhere inside owner (a tab's own F5, Ctrl+F, ...).
void addLocalShortcut(QWidget *owner, const QKeySequence &key, std::function<void()> action);

} // namespace sbx
