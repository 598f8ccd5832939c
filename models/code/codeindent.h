#pragma once

#include <QString>

namespace sbx {

// Indentation rules of the code editor, as Jupyter's: a pure function of the text, so tests
// drive them without an editor.
namespace CodeIndent {

// One level: four spaces, as PEP 8 and Jupyter.
inline constexpr int kWidth = 4;

// What a new line starts with after Enter, given the current line's text before the cursor:
// its own indentation, one level more after a line that opens a block (Python ':'; JavaScript
// '{', '[' or '('), one level less after Python's return, pass, break, continue and raise.
QString newLineIndent(const QString &lineBeforeCursor, const QString &language);
// The spaces Tab inserts at column: up to the next level.
QString tabFill(int column);
// How many characters Backspace removes when the cursor stands at column in leading blanks:
// back to the previous level (at least one).
int backspaceWidth(const QString &lineBeforeCursor);
// A line with one level removed from its start (Shift+Tab), and how many characters went.
QString dedented(const QString &line, int *removed = nullptr);

} // namespace CodeIndent

} // namespace sbx
