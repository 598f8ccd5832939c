#pragma once

#include <QFrame>

class QLabel;
class QLineEdit;

namespace sbx {

// The small search field shown over the terminal's top-right corner (Ctrl+Shift+F).
class TerminalFindBar final : public QFrame {
    Q_OBJECT
public:
    explicit TerminalFindBar(QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text);
    void setStatus(int current, int total);
    void activate();

Q_SIGNALS:
    void textChanged(const QString &text);
    void findNext();     // Enter: the next older match
    void findPrevious(); // Shift+Enter: the next newer match
    void closed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QLineEdit *m_edit;
    QLabel *m_status;
};

} // namespace sbx
