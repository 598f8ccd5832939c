#include "widgets/common/widgethelpers.h"

#include "models/palette.h"

#include <QLabel>
#include <QShortcut>

QLabel *makeErrorBox(QWidget *parent) {
    auto *box = new QLabel(parent);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setWordWrap(true);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setStyleSheet(Palette::bannerStyle(QStringLiteral("errorBox"), true) +
                       QStringLiteral(" #errorBox { padding: 8px; }"));
    box->hide();
    return box;
}

void addLocalShortcut(QWidget *owner, const QKeySequence &key, std::function<void()> action) {
    auto *shortcut = new QShortcut(key, owner, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    QObject::connect(shortcut, &QShortcut::activated, owner, std::move(action));
}
