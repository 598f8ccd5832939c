#include "widgets/code/codeeditor.h"

#include "models/code/codehighlighter.h"
#include "models/code/codeindent.h"
#include "models/palette.h"

#include <QFontDatabase>
#include <QKeyEvent>
#include <QScrollBar>
#include <QTextBlock>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMinLines = 1;

} // namespace

CodeEditor::CodeEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new CodeHighlighter(document(), u"python"_s))
    , m_language(u"python"_s) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setTabChangesFocus(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QPalette p = palette();
    p.setColor(QPalette::Base, Palette::color(Palette::Role::CodeBackground, p));
    setPalette(p);
    connect(document(), &QTextDocument::blockCountChanged, this, &CodeEditor::updateHeight);
    connect(horizontalScrollBar(), &QScrollBar::rangeChanged, this, &CodeEditor::updateHeight);
    updateHeight();
}

void CodeEditor::setLanguage(const QString &language) {
    m_language = language;
    m_highlighter->setDocument(language == "markdown"_L1 ? nullptr : document());
    if (language != "markdown"_L1)
        m_highlighter->setLanguage(language);
}

int CodeEditor::contentHeight() const {
    const int lines = std::max(kMinLines, document()->blockCount());
    const QScrollBar *bar = horizontalScrollBar();
    const int scrollBar = bar->maximum() > 0 ? bar->sizeHint().height() : 0;
    return lines * fontMetrics().lineSpacing() +
           2 * static_cast<int>(document()->documentMargin()) + 2 * frameWidth() + scrollBar + 2;
}

void CodeEditor::updateHeight() {
    const int height = contentHeight();
    if (height != this->height()) {
        setFixedHeight(height);
        updateGeometry();
    }
}

QSize CodeEditor::sizeHint() const {
    return {QPlainTextEdit::sizeHint().width(), contentHeight()};
}

QSize CodeEditor::minimumSizeHint() const {
    return {QPlainTextEdit::minimumSizeHint().width(), contentHeight()};
}

void CodeEditor::indentSelection(bool indent) {
    const QTextCursor cursor = textCursor();
    const int start = cursor.selectionStart();
    int end = cursor.selectionEnd();
    // A selection that ends where a line starts does not take that line.
    if (end > start && document()->findBlock(end).position() == end)
        --end;
    QTextBlock block = document()->findBlock(start);
    const QTextBlock last = document()->findBlock(end);
    QTextCursor edit(document());
    edit.beginEditBlock();
    while (block.isValid()) {
        edit.setPosition(block.position());
        if (indent) {
            edit.insertText(QString(CodeIndent::kWidth, u' '));
        } else {
            int removed = 0;
            CodeIndent::dedented(block.text(), &removed);
            edit.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, removed);
            edit.removeSelectedText();
        }
        if (block == last)
            break;
        block = block.next();
    }
    edit.endEditBlock();
}

void CodeEditor::keyPressEvent(QKeyEvent *event) {
    const int key = event->key();
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    QTextCursor cursor = textCursor();
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
        if (mods & Qt::ShiftModifier) {
            Q_EMIT runRequested(true);
            return;
        }
        if (mods & Qt::ControlModifier) {
            Q_EMIT runRequested(false);
            return;
        }
        if (mods == Qt::NoModifier) {
            const QString before = cursor.block().text().left(cursor.positionInBlock());
            const QString indent = m_language == "markdown"_L1
                                       ? QString()
                                       : CodeIndent::newLineIndent(before, m_language);
            cursor.beginEditBlock();
            cursor.insertText(u"\n"_s + indent);
            cursor.endEditBlock();
            setTextCursor(cursor);
            ensureCursorVisible();
            return;
        }
    }
    if (key == Qt::Key_Tab && mods == Qt::NoModifier) {
        const bool multiLine =
            cursor.hasSelection() && document()->findBlock(cursor.selectionStart()) !=
                                         document()->findBlock(cursor.selectionEnd());
        if (multiLine)
            indentSelection(true);
        else
            cursor.insertText(CodeIndent::tabFill(cursor.positionInBlock()));
        return;
    }
    if (key == Qt::Key_Backtab) {
        indentSelection(false);
        return;
    }
    if (key == Qt::Key_Backspace && mods == Qt::NoModifier && !cursor.hasSelection()) {
        const QString before = cursor.block().text().left(cursor.positionInBlock());
        const int width = CodeIndent::backspaceWidth(before);
        if (width > 1) {
            cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, width);
            cursor.removeSelectedText();
            return;
        }
    }
    if ((key == Qt::Key_Up || key == Qt::Key_Down) && mods == Qt::NoModifier) {
        const bool first = !cursor.block().previous().isValid();
        const bool lastLine = !cursor.block().next().isValid();
        if ((key == Qt::Key_Up && first) || (key == Qt::Key_Down && lastLine)) {
            Q_EMIT leaveRequested(key == Qt::Key_Up ? -1 : 1);
            return;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CodeEditor::focusInEvent(QFocusEvent *event) {
    QPlainTextEdit::focusInEvent(event);
    Q_EMIT focused();
}

void CodeEditor::wheelEvent(QWheelEvent *event) {
    // The editor shows all its lines: a vertical wheel scrolls the notebook.
    if (!(event->modifiers() & Qt::ShiftModifier) && event->angleDelta().y() != 0) {
        event->ignore();
        return;
    }
    QPlainTextEdit::wheelEvent(event);
}

} // namespace sbx
