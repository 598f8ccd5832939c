#include "widgets/common/errorrow.h"

#include "widgets/common/widgethelpers.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace sbx {

ErrorRow::ErrorRow(QWidget *parent)
    : QWidget(parent)
    , m_message(makeErrorBox(this)) // its colours are the palette's banner roles
    , m_sudo(new QPushButton(tr("Retry with sudo"), this)) {
    m_sudo->setToolTip(tr("Run the same operation again as root through the sandbox's sudo"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message, 1);
    layout->addWidget(m_sudo, 0, Qt::AlignTop);
    m_message->show();
    m_sudo->hide();
    hide();
    connect(m_sudo, &QPushButton::clicked, this, [this] {
        clear();
        Q_EMIT sudoRequested();
    });
}

void ErrorRow::showError(const QString &message, bool offerSudo) {
    m_message->setText(message);
    m_sudo->setVisible(offerSudo);
    show();
}

void ErrorRow::clear() {
    m_sudo->hide();
    hide();
}

QString ErrorRow::text() const {
    return isHidden() ? QString() : m_message->text();
}

bool ErrorRow::sudoOffered() const {
    return !isHidden() && !m_sudo->isHidden();
}

} // namespace sbx
