#pragma once

#include "client/api/jupyterjobs.h"

#include <QByteArray>
#include <QPalette>
#include <QString>

namespace sbx {

// How one output is shown, chosen from its mime bundle as Jupyter's front ends choose:
// images first (png, jpeg, svg), then html, markdown, and plain text last.
struct OutputPresentation {
    enum class Form { AnsiText, Html, Markdown, Image, Svg, Error, Unsupported };
    Form form = Form::AnsiText;
    QString mime;     // what was chosen; empty for streams and errors
    QString text;     // text, HTML, markdown or SVG source; an error's traceback lines joined
    QByteArray bytes; // Image: the decoded PNG or JPEG
    bool stderrStream = false;
    QString ename; // Error
    QString evalue;
};

// Lines a text output shows at most; the rest is counted in a note. Jupyter's own limit is
// similar: past it, a view lays out more than anyone reads.
inline constexpr int kMaxOutputLines = 5000;

OutputPresentation presentOutput(const CodeOutput &output);

// Text with terminal SGR colours (IPython's tracebacks, colourful logs) as rich text for a label:
// a <pre> block with a span per styled run, colours from ansiColor against palette. Lines past
// maxLines are left out and counted in *cutLines.
QString ansiToHtml(const QString &text, const QPalette &palette, int maxLines = kMaxOutputLines,
                   int *cutLines = nullptr);

} // namespace sbx
