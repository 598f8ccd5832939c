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

// Reads a POST /v1/file/list answer as its bytes arrive: each FileInfo object is cut out where
// it lies and read as strictly as parseFileListingFast reads it, so that rows can be shown, or
// built upon, before a large body is whole. It gives up (failed()) at anything it does not
// expect rather than guess: non-object rows, the keys that matter spelt with escapes or given
// twice. finish() then says whether the rows were the whole answer.
class FileListingStream final {
public:
    // The rows completed by these bytes, at most limit of them (the rest is kept for later).
    QList<RemoteFileInfo> feed(QByteArrayView bytes, qsizetype limit = -1);
    bool failed() const { return m_failed; }
    // The files array has closed: every row was given.
    bool complete() const { return m_complete; }
    // After the last bytes: true when the rows given are exactly what parseFileListingFast reads
    // from the whole body (the envelope around them read as strictly: success true included).
    // False means: parse the whole body.
    bool finish();

private:
    enum class Files { FirstElement, NextElement, AfterElement };
    // Reads from m_resume on; returns how many leading bytes are done with.
    qsizetype scan(const char *base, qsizetype size, QList<RemoteFileInfo> &rows, qsizetype limit);

    QByteArray m_pending;      // bytes not done with: an object cut by the end of the last piece
    qsizetype m_resume = 0;    // where in m_pending reading goes on
    qsizetype m_objectAt = -1; // the open object's first byte, while one is open
    QByteArray m_skeleton;     // everything but the rows: the envelope with "files":[]
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
    bool m_escaped = false; // the string being read has an escape
    QByteArray m_string;    // the string token being read (its first bytes), for keys
    bool m_dataNext = false;
    bool m_dataSeen = false;
    bool m_inData = false;
    bool m_filesNext = false;
    bool m_filesSeen = false;
    bool m_inFiles = false;
    Files m_files = Files::FirstElement;
    bool m_failed = false;
    bool m_complete = false;
};

// "2024-05-01T12:00:00.123Z" (or without the milliseconds) as UTC, without QDateTime's parser;
// any other form through QDateTime::fromString(Qt::ISODateWithMs).
QDateTime parseIsoTime(QByteArrayView text);

} // namespace sbx
