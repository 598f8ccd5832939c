#include "widgets/common/widgethelpers.h"

#include "models/palette.h"

#include <QLabel>
#include <QRegularExpression>
#include <QShortcut>

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

void addLocalShortcut(QWidget *owner, const QKeySequence &key, std::function<void()> action) {
    auto *shortcut = new QShortcut(key, owner, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    QObject::connect(shortcut, &QShortcut::activated, owner, std::move(action));
}

QString toolBarText(const QString &actionText) {
    static const QRegularExpression suffix(u"\\s*[(（]&[^)）][)）]"_s);
    return QString(actionText).remove(suffix);
}

} // namespace sbx
