#pragma once

#include <QPlainTextEdit>

namespace sbx {

class CodeHighlighter;

// A cell's source editor: syntax colours (models/code's CodeHighlighter), Jupyter's keys
// (Shift+Enter runs and moves on, Ctrl+Enter runs in place, Tab and Shift+Tab indent and
// dedent, Enter keeps the indentation and adds a level after ':' or '{'), and a height that
// follows its lines, so that the notebook, not the editor, scrolls.
class CodeEditor final : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget *parent = nullptr);

    // python, javascript, or markdown (no colours).
    void setLanguage(const QString &language);
    QString language() const { return m_language; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // Shift+Enter (advance) or Ctrl+Enter.
    void runRequested(bool advance);
    // Up on the first line or Down on the last: the neighbouring cell is wanted.
    void leaveRequested(int direction);
    void focused();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    void indentSelection(bool indent);
    int contentHeight() const;
    void updateHeight();

    CodeHighlighter *m_highlighter;
    QString m_language;
};

} // namespace sbx
