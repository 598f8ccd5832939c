#include "client/api/jsonskim.h"

#include <cstring>
#include <vector>

namespace sbx {

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool readHex4(const char *p, const char *end, unsigned &out) {
    if (end - p < 4)
        return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
        const int v = hexValue(p[i]);
        if (v < 0)
            return false;
        out = out * 16 + static_cast<unsigned>(v);
    }
    return true;
}

// p is just past an opening quote. Returns the position past the closing quote, or null.
const char *skipString(const char *p, const char *end) {
    while (p < end) {
        const char c = *p;
        if (c == '"')
            return p + 1;
        p += c == '\\' ? 2 : 1;
    }
    return nullptr;
}

void putUtf8(char *&dst, unsigned cp) {
    if (cp < 0x80) {
        *dst++ = static_cast<char>(cp);
    } else if (cp < 0x800) {
        *dst++ = static_cast<char>(0xC0 | (cp >> 6));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *dst++ = static_cast<char>(0xE0 | (cp >> 12));
        *dst++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        *dst++ = static_cast<char>(0xF0 | (cp >> 18));
        *dst++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        *dst++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// As skipString, decoding into out. The decoded text is never longer than its JSON form (an
// escape of 2 or 6 bytes gives at most 4), so it is written straight into a buffer of that
// size: no append per run between escapes.
const char *decodeString(const char *p, const char *end, QByteArray &out) {
    out.resize(end - p);
    char *const begin = out.data();
    char *dst = begin;
    const auto fail = [&out]() -> const char * {
        out.clear();
        return nullptr;
    };
    while (p < end) {
        const char *run = p;
        while (p < end && *p != '"' && *p != '\\')
            ++p;
        std::memcpy(dst, run, static_cast<std::size_t>(p - run));
        dst += p - run;
        if (p >= end)
            return fail();
        if (*p == '"') {
            out.truncate(dst - begin);
            return p + 1;
        }
        if (end - p < 2)
            return fail();
        const char e = p[1];
        p += 2;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            *dst++ = e;
            break;
        case 'b':
            *dst++ = '\b';
            break;
        case 'f':
            *dst++ = '\f';
            break;
        case 'n':
            *dst++ = '\n';
            break;
        case 'r':
            *dst++ = '\r';
            break;
        case 't':
            *dst++ = '\t';
            break;
        case 'u': {
            unsigned cp = 0;
            if (!readHex4(p, end, cp))
                return fail();
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned low = 0;
                if (end - p >= 6 && p[0] == '\\' && p[1] == 'u' && readHex4(p + 2, end, low) &&
                    low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    p += 6;
                } else {
                    cp = 0xFFFD; // a lone surrogate, as a JSON parser that replaces would
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            putUtf8(dst, cp);
            break;
        }
        default:
            return fail();
        }
    }
    return fail();
}

const char *skipSpace(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        ++p;
    return p;
}

} // namespace

bool skimJsonStrings(QByteArrayView json, std::initializer_list<std::string_view> names,
                     QList<QByteArray> &values, QByteArray &rest) {
    values = QList<QByteArray>(static_cast<qsizetype>(names.size()));
    std::vector<bool> taken(names.size(), false);
    rest.clear();
    const char *p = json.data();
    const char *end = p + json.size();
    const char *copied = p; // rest has everything before this
    while (p < end) {
        if (*p != '"') {
            ++p;
            continue;
        }
        const char *keyStart = p + 1;
        const char *after = skipString(keyStart, end);
        if (!after)
            return false;
        const std::string_view key(keyStart, static_cast<std::size_t>(after - 1 - keyStart));
        const char *colon = skipSpace(after, end);
        p = after;
        if (colon >= end || *colon != ':')
            continue; // a value, not a key
        const char *value = skipSpace(colon + 1, end);
        if (value >= end || *value != '"')
            continue;
        std::size_t which = 0;
        for (const std::string_view name : names) {
            if (!taken[which] && name == key)
                break;
            ++which;
        }
        if (which == names.size()) {
            const char *valueEnd = skipString(value + 1, end);
            if (!valueEnd)
                return false;
            p = valueEnd;
            continue;
        }
        QByteArray &decoded = values[static_cast<qsizetype>(which)];
        const char *valueEnd = decodeString(value + 1, end, decoded);
        if (!valueEnd)
            return false;
        taken[which] = true;
        rest.append(copied, value + 1 - copied); // up to and with the opening quote
        copied = valueEnd - 1;                   // from the closing quote on
        p = valueEnd;
    }
    rest.append(copied, end - copied);
    return true;
}

} // namespace sbx
