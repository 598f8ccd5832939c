#pragma once

#include "models/terminal/terminalcell.h"

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <cstdint>

namespace sbx {

// Style of a run of log text, as SGR sequences set it; colours in TerminalColor's encoding.
struct LogStyle {
    uint32_t fg = TerminalColor::kDefault;
    uint32_t bg = TerminalColor::kDefault;
    bool bold = false;
    bool dim = false;
    bool italic = false;
    bool underline = false;
    bool inverse = false;
    bool strike = false;

    bool operator==(const LogStyle &) const = default;
    bool isPlain() const;
};

// A styled run in LogText::text, in UTF-16 positions. Only non-plain runs are listed, in order,
// non-overlapping, and adjacent runs of equal style are merged into one.
struct LogSpan {
    int start = 0;
    int length = 0;
    LogStyle style;

    bool operator==(const LogSpan &) const = default;
};

// What a person sees of one raw log line: its text and the styled runs in it.
struct LogText {
    QString text;
    QList<LogSpan> spans;
    bool cut = false;        // input was left unread because text reached maxChars
    qsizetype fullBytes = 0; // size of the raw line, cut or not
};

// A line longer than this is shown cut: laying out more costs time and shows nothing useful.
constexpr qsizetype kMaxDisplayChars = 16384;

// Decodes one line (bytes without their line end) the way a terminal would show it, on one
// row of unlimited width:
// - SGR (`ESC [ ... m`) sets the style of the text after it; every other escape sequence (CSI,
//   OSC/DCS/APC/PM/SOS strings ended by BEL or ESC \, two-byte escapes) is removed.
// - CR moves the write position to column 0 and BS one column left; later characters
//   overwrite earlier ones with their style. `ESC [ K` / `[0K` erases from the write
//   position to the end, `[1K` from the start through it, `[2K` the whole line.
// - Columns are code points, not display widths; TAB is kept and is one column.
// - Other C0 controls, DEL and C1 controls (U+0080..U+009F) are dropped; invalid UTF-8 becomes
//   U+FFFD, one per maximal invalid subpart.
// - Reading stops at the first character that would make text longer than maxChars UTF-16
//   units (cut = true), so a 50 MB line costs no more than its first screenful.
LogText decodeLogLine(QByteArrayView raw, qsizetype maxChars = kMaxDisplayChars);

// True exactly when plainLogBytes(raw) differs from raw: raw holds a C0 control other than
// TAB (ESC, CR and BS among them), DEL, a C1 control, or invalid UTF-8. Printable ASCII is
// checked eight bytes at a time; search calls this on every line to skip the rewrite.
bool needsPlainRewrite(QByteArrayView raw);

// The line's text as UTF-8, equal to decodeLogLine(raw, unlimited).text.toUtf8(), built
// without QString or styles: search matches against it. A line that needs no rewrite is
// returned as one copy, found in one pass.
QByteArray plainLogBytes(QByteArrayView raw);

} // namespace sbx
