#pragma once

#include <Qt>

struct VTerm;

namespace sbx {

// Qt key events to libvterm keyboard calls, which write the bytes into VTerm's output buffer.
// Returns false when the key produces nothing (a bare modifier, an unknown key).
bool writeKeyToVTerm(VTerm *vt, int qtKey, Qt::KeyboardModifiers mods, const QString &text);
// libvterm's modifier bits for Qt's (keys and mouse reports share them).
int toVTermModifier(Qt::KeyboardModifiers mods);

} // namespace sbx
