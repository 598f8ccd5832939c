#pragma once

#include "widgets/common/userprompts.h"

#include <functional>

namespace sbxtest {

// Test answers to the console's questions: each question is recorded (title and text), and
// answered by the function a test sets (default: go ahead / first answer / keep the text).
class ScriptedPrompts final : public sbx::UserPrompts {
public:
    struct Question {
        QString title;
        QString text;
    };
    QList<Question> asked;
    QStringList secretsShown;
    std::function<bool(const Question &)> confirmAnswer = [](const Question &) {
        return true;
    };
    std::function<int(const Question &, bool *applyToAll)> chooseAnswer = [](const Question &,
                                                                             bool *) {
        return 0;
    };
    std::function<std::optional<QString>(const Question &, const QString &initial)> textAnswer =
        [](const Question &, const QString &initial) {
            return std::optional<QString>(initial);
        };

    bool confirm(QWidget *, const QString &title, const QString &text, const QString &) override {
        asked.append({title, text});
        return confirmAnswer(asked.constLast());
    }
    int choose(QWidget *, const QString &title, const QString &text, const QStringList &,
               bool *applyToAll) override {
        asked.append({title, text});
        return chooseAnswer(asked.constLast(), applyToAll);
    }
    std::optional<QString> askText(QWidget *, const QString &title, const QString &label,
                                   const QString &initial) override {
        asked.append({title, label});
        return textAnswer(asked.constLast(), initial);
    }
    void showSecret(QWidget *, const QString &title, const QString &, const QString &) override {
        secretsShown << title;
    }
    // The files a test hands out for open and save questions; empty: cancelled.
    QString fileAnswer;
    std::optional<QString> askOpenFile(QWidget *, const QString &title, const QString &) override {
        asked.append({title, {}});
        return fileAnswer.isEmpty() ? std::nullopt : std::optional<QString>(fileAnswer);
    }
    std::optional<QString> askSaveFile(QWidget *, const QString &title,
                                       const QString &suggested) override {
        asked.append({title, suggested});
        return fileAnswer.isEmpty() ? std::nullopt : std::optional<QString>(fileAnswer);
    }
};

} // namespace sbxtest
