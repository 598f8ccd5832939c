#pragma once

#include <QColor>

#include <cstdint>

namespace sbx {

// The colour a terminal colour (TerminalColor's encoding: default, one of xterm's 256, or RGB)
// stands for; fallback for the default. bold brightens the eight base colours, as xterm does.
QColor ansiColor(uint32_t colour, const QColor &fallback, bool bold = false);

} // namespace sbx
