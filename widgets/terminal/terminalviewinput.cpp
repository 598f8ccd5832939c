// TerminalView: keyboard, mouse, clipboard and paste.
#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalview.h"

#include "widgets/common/userprompts.h"

#include <QApplication>
#include <QClipboard>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>

namespace sbx {

namespace {

constexpr auto kCtrlShift = Qt::ControlModifier | Qt::ShiftModifier;

bool isCtrlShift(const QKeyEvent *event, Qt::Key key) {
    return (event->modifiers() & (kCtrlShift | Qt::AltModifier)) == kCtrlShift &&
           event->key() == key;
}

bool isZoomKey(const QKeyEvent *event) {
    if (!(event->modifiers() & Qt::ControlModifier) || (event->modifiers() & Qt::AltModifier))
        return false;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
        return true;
    case Qt::Key_0:
        return !(event->modifiers() & Qt::ShiftModifier);
    default:
        return false;
    }
}

int xtermButton(Qt::MouseButton button) {
    switch (button) {
    case Qt::LeftButton:
        return 1;
    case Qt::MiddleButton:
        return 2;
    case Qt::RightButton:
        return 3;
    default:
        return 0;
    }
}

} // namespace

bool TerminalView::event(QEvent *event) {
    if (event->type() == QEvent::ShortcutOverride) {
        // A terminal needs Ctrl and Alt combinations itself; only Ctrl+Shift ones we do not
        // use are left to the window's shortcuts (new tab, close tab, ...).
        auto *key = static_cast<QKeyEvent *>(event);
        const auto mods = key->modifiers();
        const bool ctrlShift = (mods & kCtrlShift) == kCtrlShift;
        const bool ours = isCtrlShift(key, Qt::Key_C) || isCtrlShift(key, Qt::Key_V) ||
                          isCtrlShift(key, Qt::Key_F) || isZoomKey(key);
        if (ours || (!ctrlShift && (mods & (Qt::ControlModifier | Qt::AltModifier)))) {
            event->accept();
            return true;
        }
    }
    return QAbstractScrollArea::event(event);
}

bool TerminalView::focusNextPrevChild(bool) {
    return false; // Tab and Shift+Tab belong to the program in the terminal
}

bool TerminalView::handleViewKey(QKeyEvent *event) {
    if (isCtrlShift(event, Qt::Key_C)) {
        copyToClipboard();
        return true;
    }
    if (isCtrlShift(event, Qt::Key_V)) {
        pasteFromClipboard();
        return true;
    }
    if (isCtrlShift(event, Qt::Key_F)) {
        openFindBar();
        return true;
    }
    if (isZoomKey(event)) {
        if (event->key() == Qt::Key_Minus)
            zoomOut();
        else if (event->key() == Qt::Key_0)
            resetZoom();
        else
            zoomIn();
        return true;
    }
    if (event->modifiers() == Qt::ShiftModifier) {
        if (event->key() == Qt::Key_PageUp) {
            scrollLines(std::max(1, rows() - 1));
            return true;
        }
        if (event->key() == Qt::Key_PageDown) {
            scrollLines(-std::max(1, rows() - 1));
            return true;
        }
    }
    return false;
}

void TerminalView::keyPressEvent(QKeyEvent *event) {
    if (handleViewKey(event))
        return;
    const QByteArray bytes = m_emulation->keyPress(event->key(), event->modifiers(), event->text());
    if (bytes.isEmpty()) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
    if (m_scrollOffset != 0) {
        m_scrollOffset = 0;
        requestFullUpdate();
    }
    m_blinkOn = true;
    Q_EMIT sendData(bytes);
}

void TerminalView::copyToClipboard() {
    const QString text = selectedText();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text, QClipboard::Clipboard);
}

void TerminalView::pasteFromClipboard() {
    pasteText(QGuiApplication::clipboard()->text(QClipboard::Clipboard));
}

void TerminalView::pasteText(const QString &text) {
    if (text.isEmpty())
        return;
    QString body = text;
    const bool severalLines = body.trimmed().contains(QLatin1Char('\n'));
    if (severalLines && !m_emulation->bracketedPaste()) {
        // A shell runs each line as soon as it arrives: ask first.
        const int lines = int(body.trimmed().count(QLatin1Char('\n'))) + 1;
        UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
        if (!prompts->confirm(this, tr("Paste several lines"),
                              tr("The text holds %n lines; a shell runs each as a command as "
                                 "soon as it is pasted. Paste it?",
                                 nullptr, lines),
                              tr("&Paste")))
            return;
    }
    if (m_scrollOffset != 0) {
        m_scrollOffset = 0;
        requestFullUpdate();
    }
    Q_EMIT sendData(m_emulation->paste(body));
}

bool TerminalView::mouseReporting(const QMouseEvent *event) const {
    // Shift keeps selection available while a program owns the mouse, as in xterm.
    return m_emulation->mouseMode() != TerminalMouseMode::None &&
           !(event->modifiers() & Qt::ShiftModifier);
}

void TerminalView::mousePressEvent(QMouseEvent *event) {
    setFocus(Qt::MouseFocusReason);
    const QPointF pos = event->position();
    const int row = std::clamp(int(pos.y() / m_cellHeight), 0, rows() - 1);
    const int col = std::clamp(int(pos.x() / m_cellWidth), 0, columns() - 1);
    if (mouseReporting(event)) {
        if (const int button = xtermButton(event->button())) {
            m_mouseButtonsReported |= 1 << button;
            Q_EMIT sendData(m_emulation->mouseButton(button, true, row, col, event->modifiers()));
        }
        return;
    }
    if (event->button() == Qt::MiddleButton) {
        if (QGuiApplication::clipboard()->supportsSelection())
            pasteText(QGuiApplication::clipboard()->text(QClipboard::Selection));
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    const TerminalPoint point = pointAt(pos);
    const bool tripleClick = m_sinceDoubleClick.isValid() &&
                             m_sinceDoubleClick.elapsed() < QApplication::doubleClickInterval();
    m_sinceDoubleClick.invalidate();
    if (tripleClick) {
        m_selection = {point, point, TerminalSelectionMode::Lines, true};
    } else {
        m_selection = {point, point, TerminalSelectionMode::Cells, false};
    }
    m_selecting = true;
    requestFullUpdate();
}

void TerminalView::mouseDoubleClickEvent(QMouseEvent *event) {
    if (mouseReporting(event) || event->button() != Qt::LeftButton) {
        mousePressEvent(event);
        return;
    }
    const TerminalPoint point = pointAt(event->position());
    m_selection = {point, point, TerminalSelectionMode::Words, true};
    m_selecting = true;
    m_sinceDoubleClick.start();
    requestFullUpdate();
}

void TerminalView::mouseMoveEvent(QMouseEvent *event) {
    const QPointF pos = event->position();
    if (mouseReporting(event)) {
        const int row = std::clamp(int(pos.y() / m_cellHeight), 0, rows() - 1);
        const int col = std::clamp(int(pos.x() / m_cellWidth), 0, columns() - 1);
        const QByteArray bytes = m_emulation->mouseMove(row, col, event->modifiers());
        if (!bytes.isEmpty())
            Q_EMIT sendData(bytes);
        return;
    }
    if (!m_selecting || !(event->buttons() & Qt::LeftButton))
        return;
    // Dragging past the edges scrolls through the history.
    if (pos.y() < 0)
        scrollLines(1);
    else if (pos.y() > viewport()->height())
        scrollLines(-1);
    const TerminalPoint point = pointAt(pos);
    if (point != m_selection.cursor || !m_selection.active) {
        m_selection.cursor = point;
        m_selection.active = m_selection.mode != TerminalSelectionMode::Cells ||
                             m_selection.cursor != m_selection.anchor;
        requestFullUpdate();
    }
}

void TerminalView::mouseReleaseEvent(QMouseEvent *event) {
    if (const int button = xtermButton(event->button());
        button && (m_mouseButtonsReported & (1 << button))) {
        m_mouseButtonsReported &= ~(1 << button);
        const QPointF pos = event->position();
        const int row = std::clamp(int(pos.y() / m_cellHeight), 0, rows() - 1);
        const int col = std::clamp(int(pos.x() / m_cellWidth), 0, columns() - 1);
        Q_EMIT sendData(m_emulation->mouseButton(button, false, row, col, event->modifiers()));
        return;
    }
    if (event->button() != Qt::LeftButton || !m_selecting)
        return;
    m_selecting = false;
    const QString text = selectedText();
    if (!text.isEmpty() && QGuiApplication::clipboard()->supportsSelection())
        QGuiApplication::clipboard()->setText(text, QClipboard::Selection);
}

void TerminalView::wheelEvent(QWheelEvent *event) {
    const int steps = event->angleDelta().y() / 40; // three lines per notch
    if (steps == 0)
        return;
    event->accept();
    const TerminalMouseMode mode = m_emulation->mouseMode();
    if (mode != TerminalMouseMode::None && !(event->modifiers() & Qt::ShiftModifier)) {
        const QPointF pos = event->position();
        const int row = std::clamp(int(pos.y() / m_cellHeight), 0, rows() - 1);
        const int col = std::clamp(int(pos.x() / m_cellWidth), 0, columns() - 1);
        QByteArray bytes;
        for (int i = 0; i < std::abs(steps) / 3 + 1; ++i)
            bytes +=
                m_emulation->mouseButton(steps > 0 ? 4 : 5, true, row, col, event->modifiers());
        Q_EMIT sendData(bytes);
        return;
    }
    if (m_emulation->altScreen()) {
        // The alternate screen has no history: let less and vim scroll with arrow keys.
        QByteArray bytes;
        const int key = steps > 0 ? Qt::Key_Up : Qt::Key_Down;
        for (int i = 0; i < std::abs(steps); ++i)
            bytes += m_emulation->keyPress(key, Qt::NoModifier, QString());
        Q_EMIT sendData(bytes);
        return;
    }
    scrollLines(steps);
}

void TerminalView::focusInEvent(QFocusEvent *event) {
    QAbstractScrollArea::focusInEvent(event);
    m_blinkOn = true;
    if (m_emulation->cursor().blink)
        m_blinkTimer.start();
    const QByteArray report = m_emulation->focusChanged(true);
    if (!report.isEmpty())
        Q_EMIT sendData(report);
    requestFullUpdate();
}

void TerminalView::focusOutEvent(QFocusEvent *event) {
    QAbstractScrollArea::focusOutEvent(event);
    m_blinkTimer.stop();
    m_blinkOn = true;
    const QByteArray report = m_emulation->focusChanged(false);
    if (!report.isEmpty())
        Q_EMIT sendData(report);
    requestFullUpdate();
}

} // namespace sbx
