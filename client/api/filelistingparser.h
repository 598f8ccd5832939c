#pragma once

#include "client/api/filejobs.h"

#include <QByteArrayView>

namespace sbx {

// Reads a POST /v1/file/list answer of the usual shape (success true, data.files an array of
// FileInfo objects) straight from its text, without a JSON tree: nlohmann's parse of a
// 100 000-entry listing (20 MB) took longer than the server took to list the folder. As strict
// as RFC 8259 (and nlohmann): keys in any order, unknown fields checked and skipped, null for
// any optional field, numbers with a fraction or exponent truncated as jsonInt() does. False
// for anything else (an error envelope, a field of an unexpected type, text that is not JSON,
// not UTF-8, nested deeper than 64), and then the caller parses it the tolerant way, which
// decides what it means or which error it is.
bool parseFileListingFast(QByteArrayView body, QList<RemoteFileInfo> &files);

// Cuts the FileInfo objects of a POST /v1/file/list answer out of its bytes as they arrive, so
// that the first rows can be shown before a large body is whole. A preview only: the complete
// body is still parsed as a whole, and the stream gives up (failed()) at anything it does not
// expect rather than guess.
class FileListingStream final {
public:
    // The rows completed by these bytes, at most limit of them: it stops reading at the last.
    QList<RemoteFileInfo> feed(QByteArrayView bytes, qsizetype limit = -1);
    bool failed() const { return m_failed; }
    // The files array has closed: every row was given.
    bool complete() const { return m_complete; }

private:
    QByteArray m_object; // the object being cut out
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
    QByteArray m_string; // the string token being read (its first bytes), for keys
    bool m_filesNext = false;
    bool m_inFiles = false;
    bool m_failed = false;
    bool m_complete = false;
};

// "2024-05-01T12:00:00.123Z" (or without the milliseconds) as UTC, without QDateTime's parser;
// any other form through QDateTime::fromString(Qt::ISODateWithMs).
QDateTime parseIsoTime(QByteArrayView text);

} // namespace sbx
