#include "models/code/outputpresentation.h"

#include "models/ansicolors.h"
#include "models/logs/logtext.h"

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString mimeString(const nlohmann::json &data, const char *mime) {
    const auto it = data.find(mime);
    return it != data.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                               : QString();
}

bool has(const nlohmann::json &data, const char *mime) {
    return data.is_object() && data.contains(mime);
}

QString styleOf(const LogStyle &style, const QPalette &palette) {
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    QColor fg = ansiColor(style.fg, text, style.bold);
    QColor bg = style.bg == TerminalColor::kDefault ? QColor() : ansiColor(style.bg, base);
    if (style.inverse) {
        const QColor back = bg.isValid() ? bg : base;
        bg = fg;
        fg = back;
    }
    QString css;
    if (fg != text)
        css += u"color:%1;"_s.arg(fg.name());
    if (bg.isValid())
        css += u"background-color:%1;"_s.arg(bg.name());
    if (style.bold)
        css += u"font-weight:bold;"_s;
    if (style.italic)
        css += u"font-style:italic;"_s;
    if (style.underline)
        css += u"text-decoration:underline;"_s;
    else if (style.strike)
        css += u"text-decoration:line-through;"_s;
    return css;
}

} // namespace

OutputPresentation presentOutput(const CodeOutput &output) {
    OutputPresentation p;
    switch (output.kind) {
    case CodeOutput::Kind::Stream:
        p.form = OutputPresentation::Form::AnsiText;
        p.text = output.text;
        p.stderrStream = output.streamName == "stderr"_L1;
        return p;
    case CodeOutput::Kind::Error:
        p.form = OutputPresentation::Form::Error;
        p.ename = output.ename;
        p.evalue = output.evalue;
        p.text = output.traceback.join(u'\n');
        if (p.text.isEmpty())
            p.text = output.ename + u": "_s + output.evalue;
        return p;
    case CodeOutput::Kind::Other:
        p.form = OutputPresentation::Form::Unsupported;
        p.mime = output.typeName();
        return p;
    case CodeOutput::Kind::ExecuteResult:
    case CodeOutput::Kind::DisplayData:
        break;
    }
    const nlohmann::json &data = output.data;
    for (const char *mime : {"image/png", "image/jpeg"}) {
        if (!has(data, mime))
            continue;
        p.form = OutputPresentation::Form::Image;
        p.mime = QString::fromLatin1(mime);
        // Jupyter's base64 may hold line breaks: fromBase64 skips what is not base64.
        p.bytes = QByteArray::fromBase64(mimeString(data, mime).toLatin1());
        return p;
    }
    if (has(data, "image/svg+xml")) {
        p.form = OutputPresentation::Form::Svg;
        p.mime = u"image/svg+xml"_s;
        p.text = mimeString(data, "image/svg+xml");
        return p;
    }
    // Scripted HTML (widgets, plotly) does nothing in a rich-text label: its text stands in.
    const QString html = mimeString(data, "text/html");
    if (!html.isEmpty() &&
        !(html.contains(u"<script"_s, Qt::CaseInsensitive) && has(data, "text/plain"))) {
        p.form = OutputPresentation::Form::Html;
        p.mime = u"text/html"_s;
        p.text = html;
        return p;
    }
    if (has(data, "text/markdown")) {
        p.form = OutputPresentation::Form::Markdown;
        p.mime = u"text/markdown"_s;
        p.text = mimeString(data, "text/markdown");
        return p;
    }
    if (has(data, "text/plain")) {
        p.form = OutputPresentation::Form::AnsiText;
        p.mime = u"text/plain"_s;
        p.text = mimeString(data, "text/plain");
        return p;
    }
    p.form = OutputPresentation::Form::Unsupported;
    if (data.is_object() && !data.empty())
        p.mime = QString::fromStdString(data.begin().key());
    return p;
}

QString ansiToHtml(const QString &text, const QPalette &palette, int maxLines, int *cutLines) {
    QString html = u"<pre style=\"margin:0; white-space:pre-wrap;\">"_s;
    const QStringList lines = text.split(u'\n');
    // A final newline ends the last line; it starts no empty one.
    qsizetype count = lines.size();
    if (count > 0 && lines.constLast().isEmpty())
        --count;
    const qsizetype shown = std::min<qsizetype>(count, maxLines);
    for (qsizetype n = 0; n < shown; ++n) {
        const LogText line = decodeLogLine(lines.at(n).toUtf8());
        int at = 0;
        for (const LogSpan &span : line.spans) {
            html += line.text.mid(at, span.start - at).toHtmlEscaped();
            const QString css = styleOf(span.style, palette);
            const QString piece = line.text.mid(span.start, span.length).toHtmlEscaped();
            html += css.isEmpty() ? piece : u"<span style=\"%1\">%2</span>"_s.arg(css, piece);
            at = span.start + span.length;
        }
        html += line.text.mid(at).toHtmlEscaped();
        if (n + 1 < shown)
            html += u'\n';
    }
    html += u"</pre>"_s;
    if (cutLines)
        *cutLines = static_cast<int>(count - shown);
    return html;
}

} // namespace sbx
