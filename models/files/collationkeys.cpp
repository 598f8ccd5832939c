#include "models/files/collationkeys.h"

#include "models/files/hugepages.h"

#include <unicode/ucol.h>

#include <new>
#include <utility>

namespace sbx {

namespace {
constexpr std::size_t kFirstChunk = 16 * 1024;
constexpr std::size_t kSecondChunk = 256 * 1024;

// A name's key is longer than its UTF-8: ICU's are about 2 bytes a character, 3 with accents.
std::size_t roomFor(QStringView name, bool icu) {
    return std::size_t(name.size()) * (icu ? 4 : 3) + 16;
}

// As QString::toUtf8(): a lone surrogate becomes '?'.
std::size_t writeUtf8(QStringView name, char *out) {
    char *p = out;
    const qsizetype n = name.size();
    for (qsizetype i = 0; i < n; ++i) {
        char32_t c = name[i].unicode();
        if (c < 0x80) {
            *p++ = char(c);
            continue;
        }
        if (QChar::isHighSurrogate(c) && i + 1 < n && name[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(char16_t(c), name[++i].unicode());
        } else if (QChar::isSurrogate(c)) {
            *p++ = '?';
            continue;
        }
        if (c < 0x800) {
            *p++ = char(0xc0 | (c >> 6));
        } else if (c < 0x10000) {
            *p++ = char(0xe0 | (c >> 12));
            *p++ = char(0x80 | ((c >> 6) & 0x3f));
        } else {
            *p++ = char(0xf0 | (c >> 18));
            *p++ = char(0x80 | ((c >> 12) & 0x3f));
            *p++ = char(0x80 | ((c >> 6) & 0x3f));
        }
        *p++ = char(0x80 | (c & 0x3f));
    }
    return std::size_t(p - out);
}
} // namespace

CollationKeys::CollationKeys(const QLocale &locale) {
    if (locale.language() == QLocale::C)
        return;
    // As QCollator opens and sets up its ICU collator: the BCP 47 name with '_', normalization
    // on, the locale's default strength, numbers as text, punctuation not ignored.
    const QByteArray name = locale.bcp47Name().toLatin1().replace('-', '_');
    UErrorCode status = U_ZERO_ERROR;
    m_collator = ucol_open(name.constData(), &status);
    if (U_FAILURE(status)) {
        m_collator = nullptr; // the names' own order, rather than none
        return;
    }
    ucol_setAttribute(m_collator, UCOL_NORMALIZATION_MODE, UCOL_ON, &status);
    status = U_ZERO_ERROR;
    ucol_setAttribute(m_collator, UCOL_STRENGTH, UCOL_DEFAULT_STRENGTH, &status);
    status = U_ZERO_ERROR;
    ucol_setAttribute(m_collator, UCOL_NUMERIC_COLLATION, UCOL_OFF, &status);
    status = U_ZERO_ERROR;
    ucol_setAttribute(m_collator, UCOL_ALTERNATE_HANDLING, UCOL_NON_IGNORABLE, &status);
}

CollationKeys::~CollationKeys() {
    release();
}

CollationKeys::CollationKeys(CollationKeys &&other) noexcept
    : m_collator(std::exchange(other.m_collator, nullptr))
    , m_keys(std::move(other.m_keys))
    , m_chunks(std::move(other.m_chunks))
    , m_used(std::exchange(other.m_used, 0)) {}

CollationKeys &CollationKeys::operator=(CollationKeys &&other) noexcept {
    if (this != &other) {
        release();
        m_collator = std::exchange(other.m_collator, nullptr);
        m_keys = std::move(other.m_keys);
        m_chunks = std::move(other.m_chunks);
        m_used = std::exchange(other.m_used, 0);
    }
    return *this;
}

void CollationKeys::release() {
    if (m_collator)
        ucol_close(m_collator);
    m_collator = nullptr;
    for (const Chunk &chunk : m_chunks) {
        if (chunk.mapped)
            unmapHugePages(chunk.data, chunk.size);
        else
            ::operator delete(chunk.data);
    }
    m_chunks.clear();
    m_keys.clear();
    m_used = 0;
}

char *CollationKeys::room(std::size_t bytes) {
    if (!m_chunks.empty() && m_chunks.back().size - m_used >= bytes)
        return m_chunks.back().data + m_used;
    // A folder of a few names keeps to one small chunk from the heap; a large listing's keys
    // go to huge pages after the second (or to the heap, if none could be mapped).
    const std::size_t next = m_chunks.empty()       ? kFirstChunk
                             : m_chunks.size() == 1 ? kSecondChunk
                                                    : kHugePage;
    const std::size_t size = std::max(bytes, next);
    auto *data = size >= kHugePage ? static_cast<char *>(mapHugePages(size)) : nullptr;
    const bool mapped = data != nullptr;
    if (!data)
        data = static_cast<char *>(::operator new(size));
    m_chunks.push_back({data, size, mapped});
    m_used = 0;
    return data;
}

void CollationKeys::append(QStringView name) {
    std::size_t want = roomFor(name, m_collator != nullptr);
    char *at = room(want);
    std::size_t size = 0;
    if (!m_collator) {
        size = writeUtf8(name, at);
        m_used += size;
    } else {
        const auto source = reinterpret_cast<const UChar *>(name.utf16());
        auto length = std::size_t(ucol_getSortKey(m_collator, source, int32_t(name.size()),
                                                  reinterpret_cast<uint8_t *>(at), int32_t(want)));
        if (length > want) { // longer than guessed: written again where it fits
            want = length;
            at = room(want);
            length = std::size_t(ucol_getSortKey(m_collator, source, int32_t(name.size()),
                                                 reinterpret_cast<uint8_t *>(at), int32_t(want)));
        }
        m_used += length;                   // with its terminating zero
        size = length > 0 ? length - 1 : 0; // compared without it, as qstrcmp() does
    }
    m_keys.push_back({at, std::uint32_t(size)});
}

} // namespace sbx
