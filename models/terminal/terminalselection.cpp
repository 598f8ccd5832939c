#include "models/terminal/terminalselection.h"

#include "models/terminal/terminalemulation.h"

#include <QStringList>

#include <algorithm>

namespace sbx {

namespace {

const TerminalLine *lineAt(const TerminalEmulation &emulation, int64_t line) {
    const int64_t index = line - emulation.droppedLines();
    if (index < 0 || index >= emulation.totalLines())
        return nullptr;
    return &emulation.historyLine(static_cast<int>(index));
}

bool isWordChar(const TerminalCell &cell) {
    if (cell.ch == 0 || cell.ch == U' ')
        return false;
    const char32_t c = cell.ch;
    if (c > 0x7f)
        return true;
    // Paths, URLs and options select as one word, as in most terminals.
    return QChar::isLetterOrNumber(c) || QStringView(u"-_./~:@%+=?&#").contains(QChar(c));
}

// Text of a line with, for each UTF-16 unit, the column it belongs to.
QString textWithColumns(const TerminalLine &line, std::vector<int> &columns) {
    QString text;
    columns.clear();
    for (int col = 0; col < static_cast<int>(line.cells.size()); ++col) {
        const TerminalCell &cell = line.cells[static_cast<size_t>(col)];
        if (cell.continuation)
            continue;
        auto add = [&](char32_t c) {
            const auto units = QChar::fromUcs4(c);
            for (const QChar unit : QStringView(units)) {
                text.append(unit);
                columns.push_back(col);
            }
        };
        add(cell.ch == 0 ? U' ' : char32_t(cell.ch));
        if (cell.combined)
            for (const auto &[at, marks] : line.combining)
                if (at == col)
                    for (const char32_t mark : marks)
                        add(mark);
    }
    return text;
}

} // namespace

TerminalRange selectionRange(const TerminalEmulation &emulation, const TerminalSelection &s) {
    TerminalRange range{std::min(s.anchor, s.cursor), std::max(s.anchor, s.cursor)};
    switch (s.mode) {
    case TerminalSelectionMode::Cells:
        break;
    case TerminalSelectionMode::Lines:
        range.start.col = 0;
        range.end = {range.end.line + 1, 0};
        return range;
    case TerminalSelectionMode::Words:
        if (const TerminalLine *line = lineAt(emulation, range.start.line)) {
            const auto &cells = line->cells;
            int col = std::clamp(range.start.col, 0, static_cast<int>(cells.size()) - 1);
            if (col >= 0 && isWordChar(cells[static_cast<size_t>(col)]))
                while (col > 0 && (isWordChar(cells[static_cast<size_t>(col - 1)]) ||
                                   cells[static_cast<size_t>(col - 1)].continuation))
                    --col;
            range.start.col = std::max(col, 0);
        }
        if (const TerminalLine *line = lineAt(emulation, range.end.line)) {
            const auto &cells = line->cells;
            const int size = static_cast<int>(cells.size());
            int col = std::clamp(range.end.col, 0, size - 1);
            if (col >= 0 && isWordChar(cells[static_cast<size_t>(col)]))
                while (col + 1 < size && (isWordChar(cells[static_cast<size_t>(col + 1)]) ||
                                          cells[static_cast<size_t>(col + 1)].continuation))
                    ++col;
            range.end.col = col + 1;
        }
        return range;
    }
    range.end.col += 1; // the cell under the pointer is included
    return range;
}

QString selectionText(const TerminalEmulation &emulation, const TerminalRange &range) {
    QStringList lines;
    for (int64_t l = range.start.line; l <= range.end.line; ++l) {
        if (l == range.end.line && range.end.col == 0 && l != range.start.line)
            break;
        const TerminalLine *line = lineAt(emulation, l);
        if (!line) {
            lines.append(QString());
            continue;
        }
        const int from = l == range.start.line ? range.start.col : 0;
        const int to = l == range.end.line ? range.end.col : -1;
        lines.append(lineToText(*line, from, to));
    }
    return lines.join(QLatin1Char('\n'));
}

std::vector<TerminalMatch> findInHistory(const TerminalEmulation &emulation, const QString &text) {
    std::vector<TerminalMatch> matches;
    if (text.isEmpty())
        return matches;
    std::vector<int> columns;
    for (int index = 0; index < emulation.totalLines(); ++index) {
        const TerminalLine &line = emulation.historyLine(index);
        const QString lineText = textWithColumns(line, columns);
        for (qsizetype at = lineText.indexOf(text, 0, Qt::CaseInsensitive); at >= 0;
             at = lineText.indexOf(text, at + 1, Qt::CaseInsensitive)) {
            const int first = columns[static_cast<size_t>(at)];
            const int last = columns[static_cast<size_t>(at + text.size() - 1)];
            const bool wide = line.cells[static_cast<size_t>(last)].wide;
            matches.push_back(
                {emulation.droppedLines() + index, first, last - first + (wide ? 2 : 1)});
        }
    }
    return matches;
}

} // namespace sbx
