#include "client/api/filelistingparser.h"

#include <QDateTime>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

namespace sbx {

namespace {

// Deeper than this the tolerant parse takes over (it has no such limit).
constexpr int kMaxDepth = 64;

// Length of the well-formed UTF-8 sequence at p (lead byte >= 0x80), or 0: no overlong forms,
// no surrogates, nothing above U+10FFFF (RFC 3629), as nlohmann's lexer requires.
std::size_t utf8Length(const unsigned char *p, const unsigned char *end) {
    const auto avail = static_cast<std::size_t>(end - p);
    const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
        return i < avail && p[i] >= lo && p[i] <= hi;
    };
    const unsigned c = p[0];
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c == 0xE0)
        return cont(1, 0xA0) && cont(2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xED)
        return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
    if (c == 0xF0)
        return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3)
        return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xF4)
        return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

// A JSON reader over the text as strict as RFC 8259 (and nlohmann), for the fields a listing
// needs; everything else is checked and skipped as it goes. Any surprise makes it give up.
class Scanner final {
public:
    Scanner(const char *begin, const char *end)
        : m_p(begin)
        , m_end(end) {}

    bool atEnd() {
        space();
        return m_p == m_end;
    }

    char next() {
        space();
        return m_p < m_end ? *m_p : '\0';
    }

    // Calls field(key) for every member; field reads the value.
    template <typename Field> bool object(Field &&field) {
        if (!take('{'))
            return false;
        if (take('}'))
            return true;
        for (;;) {
            std::string_view raw;
            bool escaped = false;
            if (next() != '"' || !rawString(raw, escaped))
                return false;
            std::string key;
            if (escaped) {
                if (!unescape(raw, key))
                    return false;
                raw = key;
            }
            if (!take(':') || !field(raw))
                return false;
            if (take('}'))
                return true;
            if (!take(','))
                return false;
        }
    }

    template <typename Element> bool array(Element &&element) {
        if (!take('['))
            return false;
        if (take(']'))
            return true;
        for (;;) {
            if (!element())
                return false;
            if (take(']'))
                return true;
            if (!take(','))
                return false;
        }
    }

    bool boolean(bool &value) {
        if (literal("true")) {
            value = true;
            return true;
        }
        if (literal("false")) {
            value = false;
            return true;
        }
        return false;
    }

    bool null() { return literal("null"); }

    // A number as jsonInt() reads it: an integer as it is, a fraction or exponent truncated
    // toward zero. False for one that does not fit a qint64 (the tolerant way decides then).
    bool integer(qint64 &value) {
        const char *start = nullptr;
        bool fraction = false;
        if (!number(start, fraction))
            return false;
        if (!fraction)
            return std::from_chars(start, m_p, value).ec == std::errc();
        double d = 0;
        if (std::from_chars(start, m_p, d).ec != std::errc() || !std::isfinite(d) ||
            std::fabs(d) >= 9.2e18)
            return false;
        value = static_cast<qint64>(d);
        return true;
    }

    bool string(QString &value) {
        std::string storage;
        std::string_view bytes;
        if (!utf8(storage, bytes))
            return false;
        value = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
        return true;
    }

    // A string's bytes: a view of the text itself, or of storage when it held escapes.
    bool utf8(std::string &storage, std::string_view &bytes) {
        bool escaped = false;
        if (next() != '"' || !rawString(bytes, escaped))
            return false;
        if (!escaped)
            return true;
        if (!unescape(bytes, storage))
            return false;
        bytes = storage;
        return true;
    }

    bool skip(int depth = 0) {
        if (depth > kMaxDepth)
            return false;
        switch (next()) {
        case '"': {
            std::string_view raw;
            bool escaped = false;
            if (!rawString(raw, escaped))
                return false;
            std::string ignored;
            return !escaped || unescape(raw, ignored);
        }
        case '{':
            return object([&](std::string_view) { return skip(depth + 1); });
        case '[':
            return array([&] { return skip(depth + 1); });
        case 't':
        case 'f': {
            bool ignored = false;
            return boolean(ignored);
        }
        case 'n':
            return null();
        default: {
            const char *start = nullptr;
            bool fraction = false;
            return number(start, fraction);
        }
        }
    }

private:
    void space() {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool take(char c) {
        space();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool literal(std::string_view word) {
        space();
        if (static_cast<std::size_t>(m_end - m_p) < word.size() ||
            std::memcmp(m_p, word.data(), word.size()) != 0)
            return false;
        m_p += word.size();
        return true;
    }
    bool digit() const { return m_p < m_end && *m_p >= '0' && *m_p <= '9'; }
    bool digits() {
        if (!digit())
            return false;
        while (digit())
            ++m_p;
        return true;
    }
    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, the grammar's number and nothing else.
    bool number(const char *&start, bool &fraction) {
        space();
        start = m_p;
        fraction = false;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p < m_end && *m_p == '0')
            ++m_p;
        else if (!digits())
            return false;
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            fraction = true;
            if (!digits())
                return false;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            ++m_p;
            fraction = true;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (!digits())
                return false;
        }
        return true;
    }

    // From an opening quote to its closing one: no control characters, UTF-8 well formed.
    // Escapes are passed over here and checked by unescape().
    bool rawString(std::string_view &raw, bool &escaped) {
        ++m_p; // the quote next() saw
        const auto *p = reinterpret_cast<const unsigned char *>(m_p);
        const auto *end = reinterpret_cast<const unsigned char *>(m_end);
        escaped = false;
        while (p < end) {
            const unsigned c = *p;
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                ++p;
                continue;
            }
            if (c == '"') {
                raw = std::string_view(
                    m_p, static_cast<std::size_t>(reinterpret_cast<const char *>(p) - m_p));
                m_p = reinterpret_cast<const char *>(p + 1);
                return true;
            }
            if (c == '\\') {
                escaped = true;
                if (end - p < 2 || p[1] < 0x20 || p[1] >= 0x80)
                    return false;
                p += 2;
                continue;
            }
            if (c < 0x20)
                return false;
            const std::size_t n = utf8Length(p, end);
            if (n == 0)
                return false;
            p += n;
        }
        return false;
    }

    static int hex(std::string_view text, std::size_t at) {
        if (at + 4 > text.size())
            return -1;
        int value = 0;
        for (std::size_t i = at; i < at + 4; ++i) {
            const char c = text[i];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= c - '0';
            else if (c >= 'a' && c <= 'f')
                value |= c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                value |= c - 'A' + 10;
            else
                return -1;
        }
        return value;
    }

    static void appendUtf8(std::string &out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    // The string's text with its escapes decoded; false for an escape JSON does not have or a
    // surrogate without its other half.
    static bool unescape(std::string_view raw, std::string &out) {
        out.reserve(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            const char c = raw[i];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (++i >= raw.size())
                return false;
            switch (raw[i]) {
            case '"':
            case '\\':
            case '/':
                out += raw[i];
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                int cp = hex(raw, i + 1);
                if (cp < 0)
                    return false;
                i += 4;
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return false; // a lone low surrogate
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (i + 2 >= raw.size() || raw[i + 1] != '\\' || raw[i + 2] != 'u')
                        return false;
                    const int low = hex(raw, i + 3);
                    if (low < 0xDC00 || low > 0xDFFF)
                        return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                }
                appendUtf8(out, static_cast<unsigned>(cp));
                break;
            }
            default:
                return false;
            }
        }
        return true;
    }

    const char *m_p;
    const char *m_end;
};

// One FileInfo. A field of a type the tolerant way would turn into something (a number as a
// name, a string as a size) gives up: such answers are rare and read the tolerant way.
bool readFile(Scanner &scan, QList<RemoteFileInfo> &files) {
    if (scan.next() != '{')
        return scan.skip(); // not an object: the tolerant way skips it too
    RemoteFileInfo info;
    const auto text = [&](QString &value) {
        if (scan.null()) {
            value.clear();
            return true;
        }
        return scan.string(value);
    };
    const bool ok = scan.object([&](std::string_view key) {
        if (key == "name")
            return text(info.name);
        if (key == "path")
            return text(info.path);
        if (key == "is_directory") {
            if (scan.null()) {
                info.isDirectory = false;
                return true;
            }
            return scan.boolean(info.isDirectory);
        }
        if (key == "size") {
            if (scan.null()) {
                info.size = -1;
                return true;
            }
            return scan.integer(info.size);
        }
        if (key == "modified_time") {
            if (scan.null()) {
                info.modified = {};
                return true;
            }
            std::string storage;
            std::string_view bytes;
            if (!scan.utf8(storage, bytes))
                return false;
            info.modified =
                parseIsoTime(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())));
            return true;
        }
        if (key == "permissions") {
            if (scan.null()) {
                info.permissions.clear();
                return true;
            }
            // A folder's rows share a few modes: each distinct one is one string, shared by its
            // rows (a string each was 100 000 allocations in a large folder).
            thread_local std::string lastBytes;
            thread_local QString lastText;
            std::string storage;
            std::string_view bytes;
            if (!scan.utf8(storage, bytes))
                return false;
            if (bytes != lastBytes) {
                lastBytes.assign(bytes);
                lastText = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
            }
            info.permissions = lastText;
            return true;
        }
        return scan.skip();
    });
    if (!ok)
        return false;
    if (!info.name.isEmpty())
        files.append(std::move(info));
    return true;
}

int digits(QByteArrayView text, qsizetype at, qsizetype count) {
    int value = 0;
    for (qsizetype i = at; i < at + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
qint64 daysFromCivil(int y, int m, int d) {
    y -= m <= 2 ? 1 : 0;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return static_cast<qint64>(era) * 146097 + doe - 719468;
}

} // namespace

QDateTime parseIsoTime(QByteArrayView text) {
    // YYYY-MM-DDTHH:MM:SS[.mmm]Z
    const qsizetype n = text.size();
    if ((n == 20 || n == 24) && text[4] == '-' && text[7] == '-' && text[10] == 'T' &&
        text[13] == ':' && text[16] == ':' && text[n - 1] == 'Z' && (n == 20 || text[19] == '.')) {
        const int year = digits(text, 0, 4);
        const int month = digits(text, 5, 2);
        const int day = digits(text, 8, 2);
        const int hour = digits(text, 11, 2);
        const int minute = digits(text, 14, 2);
        const int second = digits(text, 17, 2);
        const int ms = n == 24 ? digits(text, 20, 3) : 0;
        if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 &&
            hour < 24 && minute >= 0 && minute < 60 && second >= 0 && second < 60 && ms >= 0 &&
            day <= QDate(year, month, 1).daysInMonth()) {
            const qint64 days = daysFromCivil(year, month, day);
            const qint64 msecs =
                ((days * 24 + hour) * 60 + minute) * 60000LL + second * 1000LL + ms;
            return QDateTime::fromMSecsSinceEpoch(msecs, Qt::UTC);
        }
    }
    return QDateTime::fromString(QString::fromUtf8(text), Qt::ISODateWithMs);
}

namespace {
// The bytes the cutter must look at inside a FileInfo: everything else is skipped a run at a
// time.
struct Interesting {
    bool inObject[256] = {};
    bool inString[256] = {};
    constexpr Interesting() {
        for (const unsigned char c : {'"', '{', '}', '[', ']'})
            inObject[c] = true;
        inString[static_cast<unsigned char>('"')] = true;
        inString[static_cast<unsigned char>('\\')] = true;
    }
};
constexpr Interesting kInteresting;

bool jsonSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
} // namespace

QList<RemoteFileInfo> FileListingStream::feed(QByteArrayView bytes, qsizetype limit) {
    QList<RemoteFileInfo> rows;
    if (m_failed || bytes.isEmpty())
        return rows;
    // An object cut by the last piece is read from where it began: its start is kept.
    const char *base = bytes.data();
    qsizetype size = bytes.size();
    if (!m_pending.isEmpty()) {
        m_pending.append(bytes.data(), bytes.size());
        base = m_pending.constData();
        size = m_pending.size();
    }
    const qsizetype consumed = scan(base, size, rows, limit);
    if (m_failed) {
        m_pending.clear();
        return rows;
    }
    if (base == m_pending.constData())
        m_pending.remove(0, consumed);
    else
        m_pending = QByteArray(base + consumed, size - consumed);
    return rows;
}

qsizetype FileListingStream::scan(const char *base, qsizetype size, QList<RemoteFileInfo> &rows,
                                  qsizetype limit) {
    const auto fail = [this] {
        m_failed = true;
        return qsizetype(0);
    };
    // Depths: the envelope's object 1, data's object 2, the files array 3, a FileInfo 4.
    constexpr int kFilesDepth = 3;
    qsizetype i = m_resume;
    while (i < size) {
        if (m_inFiles && m_depth > kFilesDepth) {
            // Inside a FileInfo: find its end, then read it strictly where it lies.
            while (i < size) {
                const auto c = static_cast<unsigned char>(base[i]);
                if (m_inString) {
                    if (!kInteresting.inString[c]) {
                        ++i;
                        continue;
                    }
                    if (c == '\\') {
                        i += 2; // the escaped byte cannot end the string
                        continue;
                    }
                    m_inString = false;
                    ++i;
                    continue;
                }
                if (!kInteresting.inObject[c]) {
                    ++i;
                    continue;
                }
                ++i;
                if (c == '"') {
                    m_inString = true;
                } else if (c == '{' || c == '[') {
                    if (++m_depth > kMaxDepth)
                        return fail();
                } else if (--m_depth == kFilesDepth) {
                    if (c != '}')
                        return fail();
                    Scanner object(base + m_objectAt, base + i);
                    if (!readFile(object, rows) || !object.atEnd())
                        return fail();
                    m_files = Files::AfterElement;
                    m_objectAt = -1;
                    if (limit >= 0 && rows.size() >= limit) {
                        m_resume = 0;
                        return i;
                    }
                    break;
                }
            }
            continue;
        }
        const char c = base[i++];
        if (m_inFiles) {
            // Between the FileInfo objects: only commas and white space, as the fast parse reads.
            if (jsonSpace(c))
                continue;
            if (c == '{' && (m_files == Files::FirstElement || m_files == Files::NextElement)) {
                m_objectAt = i - 1;
                ++m_depth;
                continue;
            }
            if (c == ',' && m_files == Files::AfterElement) {
                m_files = Files::NextElement;
                continue;
            }
            if (c == ']' && (m_files == Files::AfterElement || m_files == Files::FirstElement)) {
                m_inFiles = false; // the skeleton has its "[]" already
                m_complete = true;
                --m_depth;
                continue;
            }
            return fail();
        }
        m_skeleton += c;
        if (m_inString) {
            if (m_escape)
                m_escape = false;
            else if (c == '\\')
                m_escape = m_escaped = true;
            else if (c == '"')
                m_inString = false;
            else if (m_string.size() < 16)
                m_string += c;
            continue;
        }
        switch (c) {
        case '"':
            m_inString = true;
            m_escaped = false;
            m_string.clear();
            break;
        case ':':
            // A key that matters spelt with escapes, or given twice: the whole parse decides.
            if (m_depth == 1 && (m_string == "data" || m_escaped)) {
                if (m_escaped || m_dataSeen)
                    return fail();
                m_dataSeen = m_dataNext = true;
            } else if (m_depth == 1) {
                m_dataNext = false;
            } else if (m_depth == 2 && m_inData && (m_string == "files" || m_escaped)) {
                if (m_escaped || m_filesSeen)
                    return fail();
                m_filesSeen = m_filesNext = true;
            } else if (m_depth == 2) {
                m_filesNext = false;
            }
            break;
        case '{':
            ++m_depth;
            if (m_depth == 2)
                m_inData = m_dataNext;
            break;
        case '[':
            ++m_depth;
            if (m_depth == kFilesDepth && m_inData && m_filesNext) {
                m_inFiles = true;
                m_files = Files::FirstElement;
                m_skeleton += ']'; // the skeleton holds an empty array in its place
            }
            break;
        case '}':
        case ']':
            if (--m_depth < 0)
                return fail();
            if (m_depth == 1)
                m_inData = false;
            break;
        case ',':
            if (m_depth == 1)
                m_dataNext = false;
            else if (m_depth == 2)
                m_filesNext = false;
            break;
        default:
            break;
        }
        if (m_depth > kMaxDepth)
            return fail();
    }
    // What was read is consumed, except the object still open: it is read again, whole, later.
    if (m_objectAt >= 0) {
        const qsizetype keep = m_objectAt;
        m_resume = i - keep;
        m_objectAt = 0;
        return keep;
    }
    m_resume = 0;
    return size;
}

bool FileListingStream::finish() {
    if (m_failed || !m_complete || m_depth != 0 || m_inString || !m_pending.trimmed().isEmpty())
        return false;
    // The envelope around the rows, read as strictly as the whole body would be: success true,
    // nothing malformed, and no other files than those given.
    QList<RemoteFileInfo> none;
    return parseFileListingFast(m_skeleton, none) && none.isEmpty();
}

bool parseFileListingFast(QByteArrayView body, QList<RemoteFileInfo> &files) {
    files.clear();
    Scanner scan(body.data(), body.data() + body.size());
    bool success = true;
    // A key given twice counts as its last value, as in the JSON tree.
    const bool ok = scan.next() == '{' && scan.object([&](std::string_view key) {
        if (key == "success")
            return scan.boolean(success);
        if (key != "data")
            return scan.skip();
        files.clear();
        if (scan.null())
            return true;
        return scan.next() == '{' && scan.object([&](std::string_view field) {
            if (field != "files")
                return scan.skip();
            files.clear();
            if (scan.null())
                return true;
            if (scan.next() != '[')
                return false;
            // About 150 bytes a FileInfo in either server's answer.
            files.reserve(body.size() / 160);
            return scan.array([&] { return readFile(scan, files); });
        });
    });
    if (!ok || !success || !scan.atEnd()) {
        files.clear();
        files.squeeze();
        return false;
    }
    return true;
}

} // namespace sbx
