#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace sbx {

// The error row above a file view: a failure's message, and "Retry with sudo" when the failed
// operation may run again as root.
class ErrorRow final : public QWidget {
    Q_OBJECT
public:
    explicit ErrorRow(QWidget *parent = nullptr);

    void showError(const QString &message, bool offerSudo);
    void clear();
    // The message shown, empty when the row is hidden.
    QString text() const;
    bool sudoOffered() const;

Q_SIGNALS:
    void sudoRequested();

private:
    QLabel *m_message;
    QPushButton *m_sudo;
};

} // namespace sbx
