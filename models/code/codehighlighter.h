#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace sbx {

// Syntax colours for a code cell, Python or JavaScript: keywords, builtins, strings (Python's
// triple-quoted and JavaScript's template strings across lines), numbers, comments, and the
// names def / class / function introduce. A small scanner, not regular expressions, so that a
// '#' in a string is no comment. Colours are Palette roles.
class CodeHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Token { Keyword, Builtin, String, Number, Comment, Definition };

    CodeHighlighter(QTextDocument *document, const QString &language);

    void setLanguage(const QString &language);
    QString language() const { return m_language; }
    // The format a token kind is drawn with, for tests and the output area's code.
    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    void highlightPython(const QString &text);
    void highlightJavascript(const QString &text);
    // Formats a quoted string from start; returns where it ends (exclusive) and sets the block
    // state when it continues on the next line.
    int string(const QString &text, int start, QChar quote, bool triple, int openState);

    QString m_language;
};

} // namespace sbx
