#include "widgets/terminal/terminalfindbar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace sbx {

using namespace Qt::StringLiterals;

TerminalFindBar::TerminalFindBar(QWidget *parent)
    : QFrame(parent)
    , m_edit(new QLineEdit(this))
    , m_status(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_edit->setPlaceholderText(tr("Find in scrollback"));
    m_edit->setAccessibleName(tr("Find in scrollback"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    auto *close = new QToolButton(this);
    close->setText(u"\u2715"_s);
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    layout->addWidget(m_edit);
    layout->addWidget(m_status);
    layout->addWidget(close);
    connect(m_edit, &QLineEdit::textChanged, this, &TerminalFindBar::textChanged);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });
}

QString TerminalFindBar::text() const {
    return m_edit->text();
}

void TerminalFindBar::setText(const QString &text) {
    m_edit->setText(text);
}

void TerminalFindBar::setStatus(int current, int total) {
    m_status->setText(total == 0 ? tr("no match") : tr("%1 of %2").arg(current + 1).arg(total));
}

void TerminalFindBar::activate() {
    show();
    raise();
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

bool TerminalFindBar::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & Qt::ShiftModifier)
                Q_EMIT findPrevious();
            else
                Q_EMIT findNext();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            Q_EMIT closed();
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace sbx
