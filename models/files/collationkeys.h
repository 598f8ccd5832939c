#pragma once

#include <QLocale>
#include <QStringView>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

struct UCollator;

namespace sbx {

// The names of a listing's rows as collation keys, side by side in huge-page chunks: sorting
// compares them as bytes. The same keys and order as QCollator::sortKey() for the locale (ICU's
// collator with Qt's settings; the C locale's keys are the names' UTF-8), without its two
// allocations per name: as QCollatorSortKeys, 100 000 names took 3 000 page faults and each
// comparison three pointer hops. Not thread-safe; one per listing being built.
class CollationKeys final {
public:
    explicit CollationKeys(const QLocale &locale = QLocale());
    ~CollationKeys();
    CollationKeys(CollationKeys &&other) noexcept;
    CollationKeys &operator=(CollationKeys &&other) noexcept;
    CollationKeys(const CollationKeys &) = delete;
    CollationKeys &operator=(const CollationKeys &) = delete;

    void reserve(std::size_t keys) { m_keys.reserve(keys); }
    // The key of name, as the next one.
    void append(QStringView name);
    std::size_t size() const { return m_keys.size(); }
    // <0, 0, >0 as key a sorts before, with or after key b.
    int compare(std::size_t a, std::size_t b) const {
        const Key &x = m_keys[a];
        const Key &y = m_keys[b];
        const int c = std::memcmp(x.bytes, y.bytes, std::min(x.size, y.size));
        return c != 0 ? c : int(x.size) - int(y.size);
    }

private:
    struct Key {
        const char *bytes;
        std::uint32_t size;
    };
    struct Chunk {
        char *data;
        std::size_t size;
        bool mapped; // huge pages, else the heap
    };
    // Room for bytes more in the last chunk, a new one if need be.
    char *room(std::size_t bytes);
    void release();

    UCollator *m_collator = nullptr; // null: the C locale's keys (UTF-8)
    std::vector<Key> m_keys;
    std::vector<Chunk> m_chunks;
    std::size_t m_used = 0; // of the last chunk
};

} // namespace sbx
