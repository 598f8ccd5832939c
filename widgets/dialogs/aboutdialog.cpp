#include "widgets/dialogs/aboutdialog.h"

#include "widgets/common/icons.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

AboutDialog::AboutDialog(const QString &version, const QList<LibraryCredit> &libraries,
                         QWidget *parent)
    : QDialog(parent) {
    setWindowTitle(tr("About Sandbox Console"));
    auto *icon = new QLabel(this);
    icon->setPixmap(Icons::appIcon().pixmap(64, 64));
    auto *title = new QLabel(
        u"<h2>%1</h2><p>%2</p><p>%3</p>"_s.arg(
            tr("Sandbox Console").toHtmlEscaped(), tr("Version %1").arg(version).toHtmlEscaped(),
            tr("A desktop console for AIO agent sandboxes: terminals, files, logs, runs, code, "
               "MCP and what an agent is doing.")
                .toHtmlEscaped()),
        this);
    title->setWordWrap(true);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *head = new QHBoxLayout;
    head->addWidget(icon, 0, Qt::AlignTop);
    head->addWidget(title, 1);

    auto *list = new QTreeWidget(this);
    list->setObjectName(u"libraries"_s);
    list->setAccessibleName(tr("Libraries and their licences"));
    list->setHeaderLabels({tr("Library"), tr("Version"), tr("Licence"), tr("Home page")});
    list->setRootIsDecorated(false);
    list->setAlternatingRowColors(true);
    for (const LibraryCredit &library : libraries)
        new QTreeWidgetItem(list, {library.name, library.version, library.licence, library.url});
    list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(new QLabel(tr("Built with:"), this));
    layout->addWidget(list);
    layout->addWidget(buttons);
    resize(620, 460);
}

} // namespace sbx
