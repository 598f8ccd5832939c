#pragma once

#include <QByteArray>
#include <QString>

namespace sbxtest {

// Writes size bytes of 'z' at path, creating its folders; a failure fails the test.
void writeFile(const QString &path, int size);
// The file's bytes, or "<missing>" when it cannot be read (so a comparison names the case).
QByteArray readAll(const QString &path);
// size random bytes at path, written a MiB at a time so a test stays small; false on a failure.
bool writeRandomFile(const QString &path, qint64 size);
// The SHA-256 of the file in hex, empty when it cannot be read.
QByteArray sha256(const QString &path);
// The bytes of tests/fixtures/<relativePath>; a missing fixture stops the suite.
QByteArray fixture(const char *relativePath);

} // namespace sbxtest
