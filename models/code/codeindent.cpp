#include "models/code/codeindent.h"

#include <QRegularExpression>

namespace sbx::CodeIndent {

using namespace Qt::StringLiterals;

namespace {

QString leading(const QString &line) {
    qsizetype n = 0;
    while (n < line.size() && (line.at(n) == u' ' || line.at(n) == u'\t'))
        ++n;
    return line.left(n);
}

// The line without a trailing comment (one that starts outside a string) and trailing blanks.
QString code(const QString &line, const QString &language) {
    const bool python = language != "javascript"_L1;
    QChar quote;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (!quote.isNull()) {
            if (c == u'\\')
                ++i;
            else if (c == quote)
                quote = QChar();
        } else if (c == u'\'' || c == u'"' || (!python && c == u'`')) {
            quote = c;
        } else if ((python && c == u'#') ||
                   (!python && c == u'/' && i + 1 < line.size() && line.at(i + 1) == u'/')) {
            return line.left(i).trimmed();
        }
    }
    return line.trimmed();
}

} // namespace

QString newLineIndent(const QString &lineBeforeCursor, const QString &language) {
    QString indent = leading(lineBeforeCursor);
    const QString text = code(lineBeforeCursor, language);
    if (text.isEmpty())
        return indent;
    const QString level(kWidth, u' ');
    if (language == "javascript"_L1) {
        const QChar last = text.back();
        if (last == u'{' || last == u'[' || last == u'(')
            indent += level;
        return indent;
    }
    if (text.endsWith(u':')) {
        indent += level;
        return indent;
    }
    static const QRegularExpression ends(u"^(return|pass|break|continue|raise)\\b"_s);
    if (ends.match(text).hasMatch())
        return dedented(indent);
    return indent;
}

QString tabFill(int column) {
    return QString(kWidth - column % kWidth, u' ');
}

int backspaceWidth(const QString &lineBeforeCursor) {
    const int column = static_cast<int>(lineBeforeCursor.size());
    if (column == 0 || leading(lineBeforeCursor).size() != column ||
        lineBeforeCursor.contains(u'\t'))
        return 1;
    const int back = column % kWidth == 0 ? kWidth : column % kWidth;
    return back;
}

QString dedented(const QString &line, int *removed) {
    int n = 0;
    if (!line.isEmpty() && line.at(0) == u'\t') {
        n = 1;
    } else {
        while (n < kWidth && n < line.size() && line.at(n) == u' ')
            ++n;
    }
    if (removed)
        *removed = n;
    return line.mid(n);
}

} // namespace sbx::CodeIndent
