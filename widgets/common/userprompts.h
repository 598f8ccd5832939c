#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QWidget;

namespace sbx {

// Every question the console asks a person goes through one UserPrompts, injected from the
// ConsoleContext down to the tabs: dialogs in the program, scripted answers in tests. No view
// opens a QMessageBox or QInputDialog of its own, and no test seam changes what is asked.
class UserPrompts {
public:
    virtual ~UserPrompts() = default;

    // A question before something that destroys or interrupts; true goes ahead. goAhead names
    // the button that does (empty: "Yes").
    virtual bool confirm(QWidget *parent, const QString &title, const QString &text,
                         const QString &goAhead = {}) = 0;
    // One of several answers, shown as buttons in this order beside Cancel; the index taken, or
    // -1 for Cancel. With applyToAll, an "Apply to all" box whose state is written there.
    virtual int choose(QWidget *parent, const QString &title, const QString &text,
                       const QStringList &answers, bool *applyToAll = nullptr) = 0;
    // A line of text, nullopt when cancelled.
    virtual std::optional<QString> askText(QWidget *parent, const QString &title,
                                           const QString &label, const QString &initial = {}) = 0;
    // A secret shown once so the user can copy it (a generated API key).
    virtual void showSecret(QWidget *parent, const QString &title, const QString &text,
                            const QString &secret) = 0;
    // A local file to open / to write, nullopt when cancelled. filter as QFileDialog takes it.
    virtual std::optional<QString> askOpenFile(QWidget *parent, const QString &title,
                                               const QString &filter = {}) = 0;
    virtual std::optional<QString> askSaveFile(QWidget *parent, const QString &title,
                                               const QString &suggested = {}) = 0;
};

// The dialogs a person answers.
class DialogPrompts final : public UserPrompts {
public:
    bool confirm(QWidget *parent, const QString &title, const QString &text,
                 const QString &goAhead = {}) override;
    int choose(QWidget *parent, const QString &title, const QString &text,
               const QStringList &answers, bool *applyToAll = nullptr) override;
    std::optional<QString> askText(QWidget *parent, const QString &title, const QString &label,
                                   const QString &initial = {}) override;
    void showSecret(QWidget *parent, const QString &title, const QString &text,
                    const QString &secret) override;
    std::optional<QString> askOpenFile(QWidget *parent, const QString &title,
                                       const QString &filter = {}) override;
    std::optional<QString> askSaveFile(QWidget *parent, const QString &title,
                                       const QString &suggested = {}) override;
};

// The process's dialogs, for views created without a context (a test's bare widget).
UserPrompts *dialogPrompts();

} // namespace sbx
