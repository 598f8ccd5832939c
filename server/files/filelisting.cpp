#include "server/files/filelisting.h"

#include "server/core/bodystream.h"
#include "server/core/jsontext.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace sbx {

namespace {

// What a listing shows of an entry: small, since there may be a million of them.
struct ListEntry {
    // The name's place in Walk::names: the names lie side by side, not one allocation each.
    std::uint32_t nameAt = 0;
    std::uint32_t nameLength = 0;
    // Index into the walk's folders: every entry of a folder shares its path.
    std::uint32_t folder = 0;
    bool directory = false;
    mode_t mode = 0;
    off_t size = 0;
    timespec modified{};
};

struct Walk {
    const ListRequest &request;
    std::vector<std::string> folders;
    std::vector<ListEntry> entries;
    std::string names;
    std::vector<std::string> wantedTypes; // lower-cased, with their dot

    std::string_view name(const ListEntry &entry) const {
        return std::string_view(names).substr(entry.nameAt, entry.nameLength);
    }
};

// As Python's PurePath.suffix: ".tar.gz" -> ".gz", ".bashrc" -> "".
std::string_view extensionOf(std::string_view name) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size())
        return {};
    return name.substr(dot);
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool typeWanted(const Walk &walk, std::string_view extension) {
    if (walk.wantedTypes.empty())
        return true;
    const std::string ext = lower(extension);
    return std::find(walk.wantedTypes.begin(), walk.wantedTypes.end(), ext) !=
           walk.wantedTypes.end();
}

std::string joinPath(const std::string &dir, std::string_view name) {
    std::string path;
    path.reserve(dir.size() + 1 + name.size());
    path += dir;
    if (path.empty() || path.back() != '/')
        path += '/';
    path += name;
    return path;
}

// One folder's entries, stat'ed relative to the folder's descriptor (no path walk per entry).
// Subfolders that cannot be read are left out, as a file manager does; only the top folder's
// errors are reported.
void walkFolder(Walk &walk, std::uint32_t folder, int depth) {
    const int fd = ::open(walk.folders[folder].c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *handle = fdopendir(fd);
    if (!handle) {
        ::close(fd);
        return;
    }
    const bool descend = walk.request.recursive && depth < walk.request.maxDepth.value_or(INT_MAX);
    std::vector<std::uint32_t> subfolders;
    while (const dirent *item = readdir(handle)) {
        const char *name = item->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        if (!walk.request.showHidden && name[0] == '.')
            continue;
        struct stat info {};
        if (fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        const bool symlink = S_ISLNK(info.st_mode);
        if (symlink) {
            struct stat target {};
            if (fstatat(fd, name, &target, 0) == 0)
                info = target;
        }
        ListEntry entry;
        entry.directory = S_ISDIR(info.st_mode);
        if (!entry.directory && !typeWanted(walk, extensionOf(name)))
            continue;
        entry.nameAt = static_cast<std::uint32_t>(walk.names.size());
        entry.nameLength = static_cast<std::uint32_t>(std::strlen(name));
        walk.names.append(name, entry.nameLength);
        entry.mode = info.st_mode;
        entry.size = info.st_size;
        entry.modified = info.st_mtim;
        entry.folder = folder;
        // Symlinked folders are listed, not entered: no loops.
        if (entry.directory && !symlink && descend) {
            walk.folders.push_back(joinPath(walk.folders[folder], name));
            subfolders.push_back(static_cast<std::uint32_t>(walk.folders.size() - 1));
        }
        walk.entries.push_back(std::move(entry));
    }
    closedir(handle);
    for (const std::uint32_t sub : subfolders)
        walkFolder(walk, sub, depth + 1);
}

long long mtimeNs(const timespec &when) {
    return static_cast<long long>(when.tv_sec) * 1000000000LL + when.tv_nsec;
}

// By name, then by path (a recursive listing holds a name more than once): a total order, so
// std::sort gives what a stable sort would.
struct Order {
    enum class Key { Name, Size, Modified, Type };
    const Walk &walk;
    Key key;

    int byName(const ListEntry &a, const ListEntry &b) const {
        if (const int names = walk.name(a).compare(walk.name(b)))
            return names;
        // Only a recursive listing's same names in two folders get here: their whole paths.
        if (a.folder == b.folder)
            return 0;
        return joinPath(walk.folders[a.folder], walk.name(a))
            .compare(joinPath(walk.folders[b.folder], walk.name(b)));
    }
    bool operator()(const ListEntry &a, const ListEntry &b) const {
        if (key == Key::Size) {
            if (a.size != b.size)
                return a.size < b.size;
        } else if (key == Key::Modified) {
            if (mtimeNs(a.modified) != mtimeNs(b.modified))
                return mtimeNs(a.modified) < mtimeNs(b.modified);
        } else if (key == Key::Type) {
            // Folders first, then by extension.
            if (a.directory != b.directory)
                return a.directory;
            const std::string_view ea = a.directory ? "" : extensionOf(walk.name(a));
            const std::string_view eb = b.directory ? "" : extensionOf(walk.name(b));
            if (ea != eb)
                return ea < eb;
        }
        return byName(a, b) < 0;
    }
};

// The text of a listing written in one pass: no allocation per entry, names escaped a run at a
// time.
class ListingWriter final {
public:
    explicit ListingWriter(const ListRequest &request)
        : m_request(request) {}

    // The whole answer at once (a recursive listing, or one in another order than by name).
    std::string write(const Walk &walk, const std::vector<const ListEntry *> &order) {
        std::size_t estimate = 256 + walk.request.path.size();
        for (const ListEntry &entry : walk.entries)
            estimate += 190 + 2 * entry.nameLength + walk.folders[entry.folder].size();
        m_out.reserve(estimate);
        open();
        for (const ListEntry *e : order)
            add(walk, *e);
        close();
        return std::move(m_out);
    }

    // A piece at a time: open(), add() each entry, take() the text so far, close() at the end.
    // The counts come after the files (JSON keys have no order), since a streamed listing
    // knows them only at its end.
    void open() { m_out += "{\"data\":{\"files\":["; }
    void add(const Walk &walk, const ListEntry &e) {
        if (m_total++ > 0)
            m_out += ',';
        m_directories += e.directory ? 1 : 0;
        entry(walk, e);
    }
    void close() {
        m_out += "],\"path\":";
        string(m_request.path);
        m_out += ",\"directory_count\":";
        number(m_directories);
        m_out += ",\"file_count\":";
        number(m_total - m_directories);
        m_out += ",\"total_count\":";
        number(m_total);
        m_out += "},\"hint\":null,\"message\":\"Listed ";
        number(m_total);
        m_out += " entries\",\"success\":true}";
    }
    std::size_t pendingBytes() const { return m_out.size(); }
    std::string take() { return std::exchange(m_out, {}); }

private:
    void entry(const Walk &walk, const ListEntry &e) {
        m_out += "{\"extension\":";
        if (e.directory)
            m_out += "null";
        else
            string(extensionOf(walk.name(e)));
        m_out += e.directory ? ",\"is_directory\":true" : ",\"is_directory\":false";
        m_out += ",\"modified_time\":\"";
        time(e.modified);
        m_out += "\",\"name\":";
        string(walk.name(e));
        m_out += ",\"path\":\"";
        m_out += escapedFolder(walk, e.folder);
        appendJsonString(m_out, walk.name(e));
        m_out += "\",\"permissions\":";
        if (m_request.includePermissions) {
            // "%03o" of the mode's permission bits: three digits, four with a special bit.
            const unsigned bits = static_cast<unsigned>(e.mode & 07777);
            m_out += '"';
            if (bits > 0777)
                m_out += static_cast<char>('0' + (bits >> 9));
            m_out += static_cast<char>('0' + ((bits >> 6) & 7));
            m_out += static_cast<char>('0' + ((bits >> 3) & 7));
            m_out += static_cast<char>('0' + (bits & 7));
            m_out += '"';
        } else {
            m_out += "null";
        }
        m_out += ",\"size\":";
        if (m_request.includeSize)
            number(e.size);
        else
            m_out += "null";
        m_out += '}';
    }

    // A folder's path as JSON text, with its '/': escaped once for all its entries.
    const std::string &escapedFolder(const Walk &walk, std::uint32_t folder) {
        if (m_folders.size() < walk.folders.size())
            m_folders.resize(walk.folders.size());
        std::optional<std::string> &text = m_folders[folder];
        if (!text) {
            text.emplace();
            const std::string &path = walk.folders[folder];
            appendJsonString(*text, path);
            if (path.empty() || path.back() != '/')
                *text += '/';
        }
        return *text;
    }

    void string(std::string_view text) {
        m_out += '"';
        appendJsonString(m_out, text);
        m_out += '"';
    }

    template <typename Integer> void number(Integer value) {
        char text[24];
        const auto end = std::to_chars(text, text + sizeof text, static_cast<long long>(value)).ptr;
        m_out.append(text, static_cast<std::size_t>(end - text));
    }

    // isoTime()'s "2024-05-01T12:00:00.123Z"; the date and time of a second are formatted once
    // for all the files of that second (a folder written at once shares a few).
    void time(const timespec &when) {
        if (when.tv_sec != m_second || m_secondText[0] == '\0') {
            std::tm utc{};
            gmtime_r(&when.tv_sec, &utc);
            std::strftime(m_secondText, sizeof m_secondText, "%Y-%m-%dT%H:%M:%S", &utc);
            m_second = when.tv_sec;
        }
        m_out += m_secondText;
        const long ms = when.tv_nsec / 1000000;
        const char fraction[] = {'.', static_cast<char>('0' + ms / 100),
                                 static_cast<char>('0' + ms / 10 % 10),
                                 static_cast<char>('0' + ms % 10), 'Z'};
        m_out.append(fraction, sizeof fraction);
    }

    const ListRequest &m_request;
    std::string m_out;
    std::size_t m_total = 0;
    std::size_t m_directories = 0;
    std::vector<std::optional<std::string>> m_folders;
    std::time_t m_second = 0;
    char m_secondText[40] = {};
};

FileOutcome failure(FileError error) {
    FileOutcome outcome;
    outcome.message = error.message;
    outcome.error = std::move(error);
    return outcome;
}

// By name, bytewise as std::string compares: the first 16 bytes of each name beside its entry
// decide nearly every comparison without a look at the names themselves, which lie in
// readdir's order (a sort that followed pointers took 100 ns a comparison in cache misses).
std::vector<const ListEntry *> sortedByName(const Walk &walk, const Order &order, bool desc) {
    struct Keyed {
        std::uint64_t high;
        std::uint64_t low;
        const ListEntry *entry;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(walk.entries.size());
    for (const ListEntry &entry : walk.entries) {
        unsigned char bytes[16] = {};
        const std::string_view name = walk.name(entry);
        std::memcpy(bytes, name.data(), std::min<std::size_t>(name.size(), sizeof bytes));
        Keyed key{0, 0, &entry};
        for (int i = 0; i < 8; ++i) {
            key.high = key.high << 8 | bytes[i];
            key.low = key.low << 8 | bytes[8 + i];
        }
        keyed.push_back(key);
    }
    // Bytes compare unsigned, as std::string's do; a shorter name is padded with 0, less than
    // any byte a name holds.
    const auto less = [&order](const Keyed &a, const Keyed &b) {
        if (a.high != b.high)
            return a.high < b.high;
        if (a.low != b.low)
            return a.low < b.low;
        return order(*a.entry, *b.entry);
    };
    if (desc)
        std::sort(keyed.begin(), keyed.end(),
                  [&less](const Keyed &a, const Keyed &b) { return less(b, a); });
    else
        std::sort(keyed.begin(), keyed.end(), less);
    std::vector<const ListEntry *> sorted;
    sorted.reserve(keyed.size());
    for (const Keyed &key : keyed)
        sorted.push_back(key.entry);
    return sorted;
}

// The top folder's errors, found before anything is listed: an unreadable top folder is an
// error, not an empty listing.
std::optional<FileError> topFolderError(const std::string &path) {
    if (const int refused = fileAccessError(path))
        return fileErrorFromErrno(refused, path, "list");
    struct stat info {};
    if (stat(path.c_str(), &info) != 0)
        return fileErrorFromErrno(errno, path, "list");
    if (!S_ISDIR(info.st_mode))
        return fileErrorFromErrno(ENOTDIR, path, "list");
    const int probe = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (probe < 0)
        return fileErrorFromErrno(errno, path, "list");
    ::close(probe);
    return std::nullopt;
}

void wantTypes(Walk &walk) {
    for (const std::string &wanted : walk.request.fileTypes) {
        std::string type = lower(wanted);
        if (!type.empty() && type[0] != '.')
            type.insert(type.begin(), '.');
        walk.wantedTypes.push_back(std::move(type));
    }
}

// A folder's names as readdir gives them, nothing stat'ed yet (that is the slow part).
void readNames(Walk &walk, DIR *handle) {
    while (const dirent *item = readdir(handle)) {
        const char *name = item->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        if (!walk.request.showHidden && name[0] == '.')
            continue;
        ListEntry entry;
        entry.nameAt = static_cast<std::uint32_t>(walk.names.size());
        entry.nameLength = static_cast<std::uint32_t>(std::strlen(name));
        walk.names.append(name, entry.nameLength);
        walk.entries.push_back(entry);
    }
}

// Entries written this many at a time (about 190 bytes each): enough that a piece costs the
// connection one write, few enough that the client has rows to show from the first ones on.
constexpr std::size_t kStreamPieceBytes = 128 * 1024;

} // namespace

bool listsAsItGoes(const ListRequest &request) {
    return !request.recursive && (request.sortBy.empty() || request.sortBy == "name");
}

FileOutcome listFiles(const ListRequest &request) {
    if (auto error = topFolderError(request.path))
        return failure(std::move(*error));
    Walk walk{request, {request.path}, {}, {}, {}};
    wantTypes(walk);
    walkFolder(walk, 0, 1);
    const Order order{walk, request.sortBy == "size"       ? Order::Key::Size
                            : request.sortBy == "modified" ? Order::Key::Modified
                            : request.sortBy == "type"     ? Order::Key::Type
                                                           : Order::Key::Name};
    std::vector<const ListEntry *> sorted;
    if (order.key == Order::Key::Name) {
        sorted = sortedByName(walk, order, request.sortDesc);
    } else {
        sorted.reserve(walk.entries.size());
        for (const ListEntry &entry : walk.entries)
            sorted.push_back(&entry);
        if (request.sortDesc)
            std::sort(sorted.begin(), sorted.end(),
                      [&order](const ListEntry *a, const ListEntry *b) { return order(*b, *a); });
        else
            std::sort(sorted.begin(), sorted.end(),
                      [&order](const ListEntry *a, const ListEntry *b) { return order(*a, *b); });
    }
    FileOutcome outcome;
    outcome.message = "Listed " + std::to_string(walk.entries.size()) + " entries";
    outcome.body = ListingWriter(request).write(walk, sorted);
    return outcome;
}

std::optional<FileOutcome> listFilesStreamed(const ListRequest &request,
                                             const std::function<void(HttpResponse)> &begin) {
    if (auto error = topFolderError(request.path))
        return failure(std::move(*error));
    const int fd = ::open(request.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *handle = fd < 0 ? nullptr : fdopendir(fd);
    if (!handle) {
        const int error = errno;
        if (fd >= 0)
            ::close(fd);
        return failure(fileErrorFromErrno(error, request.path, "list"));
    }
    // The names first and in order (readdir alone is quick), then each entry stat'ed and
    // written in that order: the first rows leave while the last ones are being stat'ed.
    Walk walk{request, {request.path}, {}, {}, {}};
    wantTypes(walk);
    readNames(walk, handle);
    const Order order{walk, Order::Key::Name};
    const std::vector<const ListEntry *> sorted = sortedByName(walk, order, request.sortDesc);

    auto body = std::make_shared<BodyStream>();
    BodyStreamGuard guard(*body);
    HttpResponse response;
    response.stream = body;
    begin(std::move(response));
    ListingWriter writer(request);
    writer.open();
    for (const ListEntry *item : sorted) {
        ListEntry entry = *item;
        const std::string name(walk.name(entry));
        struct stat info {};
        if (fstatat(fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue; // gone since readdir
        if (S_ISLNK(info.st_mode)) {
            struct stat target {};
            if (fstatat(fd, name.c_str(), &target, 0) == 0)
                info = target;
        }
        entry.directory = S_ISDIR(info.st_mode);
        if (!entry.directory && !typeWanted(walk, extensionOf(name)))
            continue;
        entry.mode = info.st_mode;
        entry.size = info.st_size;
        entry.modified = info.st_mtim;
        writer.add(walk, entry);
        if (writer.pendingBytes() >= kStreamPieceBytes) {
            if (body->abandoned())
                break; // nobody reads: the guard cuts the body
            body->write(writer.take());
        }
    }
    closedir(handle);
    if (body->abandoned())
        return std::nullopt;
    writer.close();
    body->write(writer.take());
    guard.finish();
    return std::nullopt;
}

} // namespace sbx
