#include "widgets/common/userprompts.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace sbx {

bool DialogPrompts::confirm(QWidget *parent, const QString &title, const QString &text,
                            const QString &goAhead) {
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Cancel, parent);
    QPushButton *yes = box.addButton(goAhead.isEmpty() ? QMessageBox::tr("&Yes") : goAhead,
                                     QMessageBox::AcceptRole);
    // The safe answer is the default: Enter does not destroy anything.
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == yes;
}

int DialogPrompts::choose(QWidget *parent, const QString &title, const QString &text,
                          const QStringList &answers, bool *applyToAll) {
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::NoButton, parent);
    QList<QPushButton *> buttons;
    for (const QString &answer : answers)
        buttons << box.addButton(answer, QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    QCheckBox *all = nullptr;
    if (applyToAll) {
        all = new QCheckBox(QCoreApplication::translate("sbx::UserPrompts", "Apply to all"), &box);
        box.setCheckBox(all);
    }
    box.exec();
    if (applyToAll)
        *applyToAll = all->isChecked();
    return static_cast<int>(buttons.indexOf(box.clickedButton()));
}

std::optional<QString> DialogPrompts::askText(QWidget *parent, const QString &title,
                                              const QString &label, const QString &initial) {
    bool ok = false;
    const QString text =
        QInputDialog::getText(parent, title, label, QLineEdit::Normal, initial, &ok);
    return ok ? std::optional<QString>(text) : std::nullopt;
}

std::optional<QString> DialogPrompts::askOpenFile(QWidget *parent, const QString &title,
                                                  const QString &filter) {
    const QString path = QFileDialog::getOpenFileName(parent, title, {}, filter);
    return path.isEmpty() ? std::nullopt : std::optional<QString>(path);
}

std::optional<QString> DialogPrompts::askSaveFile(QWidget *parent, const QString &title,
                                                  const QString &suggested) {
    const QString path = QFileDialog::getSaveFileName(parent, title, suggested);
    return path.isEmpty() ? std::nullopt : std::optional<QString>(path);
}

void DialogPrompts::showSecret(QWidget *parent, const QString &title, const QString &text,
                               const QString &secret) {
    QDialog dialog(parent);
    dialog.setWindowTitle(title);
    auto *label = new QLabel(text, &dialog);
    label->setWordWrap(true);
    auto *value = new QLineEdit(secret, &dialog);
    value->setReadOnly(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QPushButton *copy = buttons->addButton(QCoreApplication::translate("sbx::UserPrompts", "&Copy"),
                                           QDialogButtonBox::ActionRole);
    QObject::connect(copy, &QPushButton::clicked, &dialog,
                     [value] { QGuiApplication::clipboard()->setText(value->text()); });
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(label);
    layout->addWidget(value);
    layout->addWidget(buttons);
    dialog.exec();
}

UserPrompts *dialogPrompts() {
    static DialogPrompts prompts;
    return &prompts;
}

} // namespace sbx
