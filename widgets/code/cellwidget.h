#pragma once

#include <QFrame>
#include <QString>

class QLabel;

namespace sbx {

class CodeEditor;
class NotebookModel;
class OutputView;

// One cell of the Code tab: its prompt ([n], [*] while queued or running), the source editor,
// a line with its state and elapsed time, and its outputs under it. A markdown cell shows its
// text rendered until it is edited (double-click, or Enter on it). The cell reads its model
// row; it edits only its source.
class CellWidget final : public QFrame {
    Q_OBJECT
public:
    CellWidget(NotebookModel *model, const QString &cellId, QWidget *parent = nullptr);

    QString cellId() const { return m_id; }
    // Brings the view up to date with the model's roles that changed (all when empty).
    void refresh(const QList<int> &roles = {});
    void setCurrent(bool current);
    bool isCurrent() const { return m_current; }
    // Markdown cells: rendered text instead of the editor.
    void setRendered(bool rendered);
    bool isRendered() const { return m_rendered; }
    void focusEditor();

    CodeEditor *editor() const { return m_editor; }
    OutputView *outputs() const { return m_outputs; }
    QString promptText() const;
    QString statusText() const;
    QString renderedText() const;

    // "850 ms", "3.2 s", "2:05".
    static QString elapsedText(qint64 ms);

Q_SIGNALS:
    void runRequested(const QString &cellId, bool advance);
    void focused(const QString &cellId);
    void leaveRequested(const QString &cellId, int direction);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateFrame();
    void updateStatus();

    NotebookModel *m_model;
    QString m_id;
    QLabel *m_prompt;
    QLabel *m_language;
    CodeEditor *m_editor;
    QLabel *m_markdown;
    QLabel *m_status;
    OutputView *m_outputs;
    bool m_current = false;
    bool m_rendered = false;
    bool m_syncing = false;
};

} // namespace sbx
