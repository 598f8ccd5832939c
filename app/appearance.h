#pragma once

#include <QPalette>
#include <QString>

namespace sbx {

// The console's colours and icon theme as Preferences::colours asks: empty keeps the desktop's
// style and palette, "light" and "dark" use Fusion with the console's own palette. Then picks an
// icon theme to match (Icons::setupTheme). Call after QApplication exists, again on a change.
void applyAppearance(const QString &colours);

// The console's dark palette (Fusion's roles, every colour group).
QPalette darkPalette();

} // namespace sbx
