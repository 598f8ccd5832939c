#pragma once

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStringList>
#include <QTextEdit>
#include <QWidget>

namespace sbxtest {

// The controls under root, shown with it, that a screen reader would announce without a name:
// Qt's accessible interface (accessible name, text, buddy label) gives it none.
inline QStringList unnamedControls(QWidget *root) {
    QStringList blank;
    const QList<QWidget *> widgets = root->findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        if (!w->isVisibleTo(root))
            continue;
        const bool control = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w) ||
                             qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
                             qobject_cast<QAbstractItemView *>(w) ||
                             qobject_cast<QPlainTextEdit *>(w) || qobject_cast<QTextEdit *>(w) ||
                             qobject_cast<QAbstractSlider *>(w);
        // Parts named by their owner: a combo box's or spin box's line edit, a view's header,
        // a scroll area's scroll bars.
        if (!control || qobject_cast<QComboBox *>(w->parentWidget()) ||
            qobject_cast<QAbstractSpinBox *>(w->parentWidget()) || qobject_cast<QHeaderView *>(w) ||
            qobject_cast<QScrollBar *>(w))
            continue;
        QAccessibleInterface *face = QAccessible::queryAccessibleInterface(w);
        if (face && !face->text(QAccessible::Name).trimmed().isEmpty())
            continue;
        blank << QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName() +
                     QStringLiteral(" in ") +
                     QString::fromLatin1(w->parentWidget()->metaObject()->className());
    }
    return blank;
}

} // namespace sbxtest
