#include "models/code/codehighlighter.h"

#include "models/palette.h"

#include <QSet>
#include <QTextDocument>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Block states: what a line left open for the next.
enum State { Plain = -1, TripleSingle = 1, TripleDouble = 2, BlockComment = 3, Template = 4 };

const QSet<QString> &pythonKeywords() {
    static const QSet<QString> words{
        u"False"_s,  u"None"_s,   u"True"_s,     u"and"_s,    u"as"_s,       u"assert"_s,
        u"async"_s,  u"await"_s,  u"break"_s,    u"class"_s,  u"continue"_s, u"def"_s,
        u"del"_s,    u"elif"_s,   u"else"_s,     u"except"_s, u"finally"_s,  u"for"_s,
        u"from"_s,   u"global"_s, u"if"_s,       u"import"_s, u"in"_s,       u"is"_s,
        u"lambda"_s, u"match"_s,  u"nonlocal"_s, u"not"_s,    u"or"_s,       u"pass"_s,
        u"raise"_s,  u"return"_s, u"try"_s,      u"while"_s,  u"with"_s,     u"yield"_s};
    return words;
}

const QSet<QString> &pythonBuiltins() {
    static const QSet<QString> words{
        u"abs"_s,       u"all"_s,        u"any"_s,       u"bool"_s,      u"bytes"_s,
        u"dict"_s,      u"dir"_s,        u"divmod"_s,    u"enumerate"_s, u"filter"_s,
        u"float"_s,     u"format"_s,     u"getattr"_s,   u"hasattr"_s,   u"hash"_s,
        u"help"_s,      u"id"_s,         u"input"_s,     u"int"_s,       u"isinstance"_s,
        u"iter"_s,      u"len"_s,        u"list"_s,      u"map"_s,       u"max"_s,
        u"min"_s,       u"next"_s,       u"object"_s,    u"open"_s,      u"print"_s,
        u"range"_s,     u"repr"_s,       u"reversed"_s,  u"round"_s,     u"self"_s,
        u"set"_s,       u"setattr"_s,    u"sorted"_s,    u"str"_s,       u"sum"_s,
        u"super"_s,     u"tuple"_s,      u"type"_s,      u"vars"_s,      u"zip"_s,
        u"Exception"_s, u"ValueError"_s, u"TypeError"_s, u"KeyError"_s,  u"RuntimeError"_s};
    return words;
}

const QSet<QString> &javascriptKeywords() {
    static const QSet<QString> words{
        u"async"_s,     u"await"_s,    u"break"_s,    u"case"_s,    u"catch"_s,      u"class"_s,
        u"const"_s,     u"continue"_s, u"debugger"_s, u"default"_s, u"delete"_s,     u"do"_s,
        u"else"_s,      u"export"_s,   u"extends"_s,  u"false"_s,   u"finally"_s,    u"for"_s,
        u"function"_s,  u"if"_s,       u"import"_s,   u"in"_s,      u"instanceof"_s, u"let"_s,
        u"new"_s,       u"null"_s,     u"of"_s,       u"return"_s,  u"static"_s,     u"super"_s,
        u"switch"_s,    u"this"_s,     u"throw"_s,    u"true"_s,    u"try"_s,        u"typeof"_s,
        u"undefined"_s, u"var"_s,      u"void"_s,     u"while"_s,   u"with"_s,       u"yield"_s};
    return words;
}

const QSet<QString> &javascriptBuiltins() {
    static const QSet<QString> words{
        u"Array"_s,  u"Boolean"_s, u"Date"_s,    u"Error"_s,   u"JSON"_s,   u"Map"_s,
        u"Math"_s,   u"Number"_s,  u"Object"_s,  u"Promise"_s, u"RegExp"_s, u"Set"_s,
        u"String"_s, u"console"_s, u"process"_s, u"require"_s, u"module"_s, u"globalThis"_s};
    return words;
}

bool identifierStart(QChar c) {
    return c.isLetter() || c == u'_' || c == u'$';
}

bool identifierPart(QChar c) {
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

// The end (exclusive) of a number starting at i: digits, '_', '.', exponents, 0x..., suffixes.
int numberEnd(const QString &text, int i) {
    int j = i;
    while (j < text.size()) {
        const QChar c = text.at(j);
        if (c.isLetterOrNumber() || c == u'_' || c == u'.')
            ++j;
        else if ((c == u'+' || c == u'-') && j > i &&
                 (text.at(j - 1) == u'e' || text.at(j - 1) == u'E') &&
                 !text.mid(i, 2).startsWith(u"0x"_s, Qt::CaseInsensitive))
            ++j;
        else
            break;
    }
    return j;
}

} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument *document, const QString &language)
    : QSyntaxHighlighter(document)
    , m_language(language) {}

void CodeHighlighter::setLanguage(const QString &language) {
    if (language == m_language)
        return;
    m_language = language;
    rehighlight();
}

QTextCharFormat CodeHighlighter::format(Token token) const {
    QTextCharFormat f;
    switch (token) {
    case Token::Keyword:
        f.setForeground(Palette::color(Palette::Role::SyntaxKeyword));
        f.setFontWeight(QFont::DemiBold);
        break;
    case Token::Builtin:
        f.setForeground(Palette::color(Palette::Role::SyntaxBuiltin));
        break;
    case Token::String:
        f.setForeground(Palette::color(Palette::Role::SyntaxString));
        break;
    case Token::Number:
        f.setForeground(Palette::color(Palette::Role::SyntaxNumber));
        break;
    case Token::Comment:
        f.setForeground(Palette::color(Palette::Role::SyntaxComment));
        f.setFontItalic(true);
        break;
    case Token::Definition:
        f.setForeground(Palette::color(Palette::Role::SyntaxDefinition));
        break;
    }
    return f;
}

void CodeHighlighter::highlightBlock(const QString &text) {
    setCurrentBlockState(Plain);
    if (m_language == "javascript"_L1)
        highlightJavascript(text);
    else
        highlightPython(text);
}

int CodeHighlighter::string(const QString &text, int start, QChar quote, bool triple,
                            int openState) {
    const int size = static_cast<int>(text.size());
    int i = start;
    while (i < size) {
        const QChar c = text.at(i);
        if (c == u'\\') {
            i += 2;
            continue;
        }
        if (c == quote) {
            if (!triple) {
                ++i;
                setFormat(start, i - start, format(Token::String));
                return i;
            }
            if (text.mid(i, 3) == QString(3, quote)) {
                i += 3;
                setFormat(start, i - start, format(Token::String));
                return i;
            }
        }
        ++i;
    }
    setFormat(start, size - start, format(Token::String));
    // Only multi-line strings go on; an unclosed one-line string ends with its line.
    if (openState != Plain)
        setCurrentBlockState(openState);
    return size;
}

void CodeHighlighter::highlightPython(const QString &text) {
    const int size = static_cast<int>(text.size());
    int i = 0;
    const int previous = previousBlockState();
    if (previous == TripleSingle || previous == TripleDouble)
        i = string(text, 0, previous == TripleSingle ? u'\'' : u'"', true, previous);
    bool defining = false;
    while (i < size) {
        const QChar c = text.at(i);
        if (c == u'#') {
            setFormat(i, size - i, format(Token::Comment));
            return;
        }
        if (c == u'\'' || c == u'"') {
            const bool triple = text.mid(i, 3) == QString(3, c);
            // A string prefix (r, b, f, rb, ...) is part of the string's colour.
            int start = i;
            while (start > 0 && QStringView(u"rRbBfFuU").contains(text.at(start - 1)) &&
                   (start - 1 == 0 || !identifierPart(text.at(start - 2))))
                --start;
            const int body = triple ? i + 3 : i + 1;
            const int end = string(text, body, c, triple,
                                   triple ? (c == u'\'' ? TripleSingle : TripleDouble) : Plain);
            setFormat(start, end - start, format(Token::String));
            i = end;
            continue;
        }
        if (c.isDigit() && (i == 0 || !identifierPart(text.at(i - 1)))) {
            const int end = numberEnd(text, i);
            setFormat(i, end - i, format(Token::Number));
            i = end;
            continue;
        }
        if (c == u'@' && i + 1 < size && identifierStart(text.at(i + 1))) {
            int end = i + 1;
            while (end < size && (identifierPart(text.at(end)) || text.at(end) == u'.'))
                ++end;
            setFormat(i, end - i, format(Token::Definition));
            i = end;
            continue;
        }
        if (identifierStart(c)) {
            int end = i;
            while (end < size && identifierPart(text.at(end)))
                ++end;
            const QString word = text.mid(i, end - i);
            if (defining) {
                setFormat(i, end - i, format(Token::Definition));
                defining = false;
            } else if (pythonKeywords().contains(word)) {
                setFormat(i, end - i, format(Token::Keyword));
                defining = word == "def"_L1 || word == "class"_L1;
            } else if (pythonBuiltins().contains(word)) {
                setFormat(i, end - i, format(Token::Builtin));
            }
            i = end;
            continue;
        }
        ++i;
    }
}

void CodeHighlighter::highlightJavascript(const QString &text) {
    const int size = static_cast<int>(text.size());
    int i = 0;
    const int previous = previousBlockState();
    if (previous == BlockComment) {
        const int close = static_cast<int>(text.indexOf(u"*/"_s));
        if (close < 0) {
            setFormat(0, size, format(Token::Comment));
            setCurrentBlockState(BlockComment);
            return;
        }
        setFormat(0, close + 2, format(Token::Comment));
        i = close + 2;
    } else if (previous == Template) {
        i = string(text, 0, u'`', false, Template);
        if (currentBlockState() == Template)
            return;
    }
    bool defining = false;
    while (i < size) {
        const QChar c = text.at(i);
        if (c == u'/' && i + 1 < size && text.at(i + 1) == u'/') {
            setFormat(i, size - i, format(Token::Comment));
            return;
        }
        if (c == u'/' && i + 1 < size && text.at(i + 1) == u'*') {
            const int close = static_cast<int>(text.indexOf(u"*/"_s, i + 2));
            if (close < 0) {
                setFormat(i, size - i, format(Token::Comment));
                setCurrentBlockState(BlockComment);
                return;
            }
            setFormat(i, close + 2 - i, format(Token::Comment));
            i = close + 2;
            continue;
        }
        if (c == u'\'' || c == u'"' || c == u'`') {
            const int end = string(text, i + 1, c, false, c == u'`' ? Template : Plain);
            setFormat(i, end - i, format(Token::String));
            i = end;
            continue;
        }
        if (c.isDigit() && (i == 0 || !identifierPart(text.at(i - 1)))) {
            const int end = numberEnd(text, i);
            setFormat(i, end - i, format(Token::Number));
            i = end;
            continue;
        }
        if (identifierStart(c)) {
            int end = i;
            while (end < size && identifierPart(text.at(end)))
                ++end;
            const QString word = text.mid(i, end - i);
            if (defining) {
                setFormat(i, end - i, format(Token::Definition));
                defining = false;
            } else if (javascriptKeywords().contains(word)) {
                setFormat(i, end - i, format(Token::Keyword));
                defining = word == "function"_L1 || word == "class"_L1;
            } else if (javascriptBuiltins().contains(word)) {
                setFormat(i, end - i, format(Token::Builtin));
            }
            i = end;
            continue;
        }
        ++i;
    }
}

} // namespace sbx
