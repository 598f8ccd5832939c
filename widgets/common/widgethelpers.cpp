#include "widgets/common/widgethelpers.h"

#include "models/palette.h"

#include <QLabel>
#include <QRegularExpression>
#include <QShortcut>
#include <QTreeView>

namespace sbx {

using namespace Qt::StringLiterals;

QLabel *makeErrorBox(QWidget *parent) {
    auto *box = new QLabel(parent);
    box->setObjectName(u"errorBox"_s);
    box->setWordWrap(true);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setStyleSheet(Palette::bannerStyle(u"errorBox"_s, true) +
                       u" #errorBox { padding: 8px; }"_s);
    box->hide();
    return box;
}

QTreeView *makeListView(const QString &accessibleName, QWidget *parent) {
    auto *view = new QTreeView(parent);
    view->setAccessibleName(accessibleName);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    return view;
}

void addLocalShortcut(QWidget *owner, const QKeySequence &key, const QString &description,
                      std::function<void()> action) {
    auto *shortcut = new QShortcut(key, owner, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    shortcut->setWhatsThis(description);
    QObject::connect(shortcut, &QShortcut::activated, owner, std::move(action));
}

QString toolBarText(const QString &actionText) {
    static const QRegularExpression suffix(u"\\s*[(（]&[^)）][)）]"_s);
    return QString(actionText).remove(suffix);
}

} // namespace sbx
