#pragma once

#include <QList>

namespace sbx {

// A process and its descendants, read from /proc (Linux). Pausing a local sandbox must reach its
// PTY shells too, and those run in sessions of their own, so a process-group signal misses them.

// root first, then every live (not zombie) descendant found through /proc/<pid>/stat parent
// links.
QList<qint64> processTree(qint64 root);
// Sends sig to root and its descendants, walking again until no new process appears (a fork
// racing the first walk). Returns every pid signalled.
QList<qint64> signalProcessTree(qint64 root, int sig);
// The state letter of /proc/<pid>/stat ('R', 'S', 'T', 'Z', ...); 0 when there is no such process.
char processState(qint64 pid);

} // namespace sbx
