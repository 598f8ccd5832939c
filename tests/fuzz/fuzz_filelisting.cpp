// Fuzzes the fast reading of a POST /v1/file/list answer (client/api/filelistingparser.cpp)
// against the JSON tree's: whatever the fast parse accepts, the tree must read as the same files;
// whatever it refuses, parseFileListing() must still give a listing or an error with a message.
#include "client/api/filejobs.h"
#include "client/api/filelistingparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>

using namespace sbx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<RemoteFileInfo> fast;
    const bool fastOk = parseFileListingFast(body, fast);
    const FileListing tree = parseFileListingTolerant(body);
    if (fastOk) {
        check(tree.status.ok());
        check(fast.size() == tree.files.size());
        for (qsizetype i = 0; i < fast.size(); ++i) {
            const RemoteFileInfo &a = fast[i];
            const RemoteFileInfo &b = tree.files[i];
            check(a.name == b.name && a.path == b.path && a.isDirectory == b.isDirectory &&
                  a.size == b.size && a.modified == b.modified && a.permissions == b.permissions);
        }
    } else {
        check(fast.isEmpty());
    }
    const FileListing both = parseFileListing(body);
    check(both.status.ok() == tree.status.ok());
    check(both.status.ok() || !both.status.message.trimmed().isEmpty());
    return 0;
}
