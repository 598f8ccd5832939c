#pragma once

#include "models/terminal/terminalcell.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace sbx {

class TerminalEmulation;

// A cell position that survives scrolling: line counts from the first line ever written
// (TerminalEmulation::droppedLines() + history index).
struct TerminalPoint {
    int64_t line = 0;
    int col = 0;
    auto operator<=>(const TerminalPoint &) const = default;
};

enum class TerminalSelectionMode { Cells, Words, Lines };

struct TerminalSelection {
    TerminalPoint anchor;
    TerminalPoint cursor;
    TerminalSelectionMode mode = TerminalSelectionMode::Cells;
    bool active = false;
};

struct TerminalMatch {
    int64_t line = 0;
    int col = 0;
    int length = 0; // in cells
};

// Normalised [start, end) of a selection after word/line expansion.
struct TerminalRange {
    TerminalPoint start;
    TerminalPoint end;
    bool contains(int64_t line, int col) const {
        const TerminalPoint p{line, col};
        return start <= p && p < end;
    }
};

// Selection and search over the emulation's history: plain functions, so the view keeps only
// its state.
TerminalRange selectionRange(const TerminalEmulation &emulation, const TerminalSelection &s);
QString selectionText(const TerminalEmulation &emulation, const TerminalRange &range);
// Finds text case-insensitively in every history line, oldest first.
std::vector<TerminalMatch> findInHistory(const TerminalEmulation &emulation, const QString &text);

} // namespace sbx
