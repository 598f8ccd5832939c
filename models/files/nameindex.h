#pragma once

#include "models/files/zeroedtable.h"

#include <QHashFunctions>
#include <QString>
#include <QStringView>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sbx {

// How NameIndex reads a row's name by default: its info.name (the Files model's nodes).
struct InfoName {
    template <typename T> const QString &operator()(const T &row) const { return row.info.name; }
};

// Rows found by name: an open-addressing table of (hash, row) whose keys are the rows' own
// `info.name`, so that indexing 100 000 rows costs no key copy and no allocation per row
// (QHash<QString, Node *> took 60-90 ms for 100 000 inserts on the test machine, this 10-15).
// A row must keep its name while it is in the index. Name reads a row's name.
template <typename T, typename Name = InfoName> class NameIndex final {
public:
    NameIndex() = default;
    NameIndex(NameIndex &&other) noexcept
        : m_table(std::move(other.m_table))
        , m_count(std::exchange(other.m_count, 0))
        , m_used(std::exchange(other.m_used, 0)) {}
    NameIndex &operator=(NameIndex &&other) noexcept {
        m_table = std::move(other.m_table);
        m_count = std::exchange(other.m_count, 0);
        m_used = std::exchange(other.m_used, 0);
        return *this;
    }

    qsizetype size() const { return m_count; }
    void clear() { *this = NameIndex(); }
    void reserve(qsizetype rows) {
        if (static_cast<std::size_t>(rows) * 2 > capacity())
            rehash(capacityFor(static_cast<std::size_t>(rows)));
    }
    T *value(QStringView name) const { return value(name, hashOf(name)); }
    // The same, with the name's hashOf() known.
    T *value(QStringView name, std::size_t hash) const {
        if (capacity() == 0)
            return nullptr;
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            const Slot &slot = table()[i];
            if (!slot.row)
                return nullptr;
            if (slot.row != gone() && slot.hash == hash && Name{}(*slot.row) == name)
                return slot.row;
        }
    }
    bool contains(QStringView name) const { return value(name) != nullptr; }
    // False, and nothing changes, when a row of that name is in already.
    bool insert(T *row) { return insert(row, hashOf(Name{}(*row))); }
    // The same, with the name's hashOf() known.
    bool insert(T *row, std::size_t hash) {
        if ((m_used + 1) * 2 > capacity())
            rehash(capacityFor(static_cast<std::size_t>(m_count) + 1));
        Slot *free = nullptr;
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            Slot &slot = table()[i];
            if (!slot.row) {
                if (!free) {
                    free = &slot;
                    ++m_used;
                }
                break;
            }
            if (slot.row == gone()) {
                if (!free)
                    free = &slot;
                continue;
            }
            if (slot.hash == hash && Name{}(*slot.row) == Name{}(*row))
                return false;
        }
        *free = {hash, row};
        ++m_count;
        return true;
    }
    void remove(QStringView name) {
        if (capacity() == 0)
            return;
        const std::size_t hash = hashOf(name);
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            Slot &slot = table()[i];
            if (!slot.row)
                return;
            if (slot.row != gone() && slot.hash == hash && Name{}(*slot.row) == name) {
                slot = {0, gone()}; // a tombstone: later rows of the probe stay found
                --m_count;
                return;
            }
        }
    }

    static std::size_t hashOf(QStringView name) { return qHash(name, std::size_t(0x9e3779b9)); }
    // Loads the slot a name of that hash goes to, ahead of its insert(): the slots are read at
    // random, and a few loads in flight at once cost little more than one (a 100 000-row index
    // spent 25 ms waiting for its slots one at a time).
    void prefetch(std::size_t hash) const {
        if (capacity())
            __builtin_prefetch(&table()[hash & mask()], 1);
    }
    // For lookups of hashes in order, called before the i-th: a lookup reads its slot, its row
    // and the row's name, each a miss at random. They are asked for in a pipeline: the slot of
    // the lookup 3 * step on, the row of the one 2 * step on, its name for the one step on.
    void readAhead(const std::vector<std::size_t> &hashes, std::size_t i, std::size_t step) const {
        const std::size_t count = hashes.size();
        // The first call also asks for the slots before the pipeline's reach.
        const std::size_t from = i == 0 ? 0 : i + 3 * step;
        for (std::size_t j = from; j <= i + 3 * step && j < count; ++j)
            prefetch(hashes[j]);
        if (i + 2 * step < count) {
            if (const T *row = likely(hashes[i + 2 * step]))
                __builtin_prefetch(row);
        }
        if (i + step < count) {
            if (const T *row = likely(hashes[i + step]))
                __builtin_prefetch(Name{}(*row).constData());
        }
    }

private:
    // The row a lookup of that hash most likely ends at, without comparing names (null if none).
    T *likely(std::size_t hash) const {
        if (capacity() == 0)
            return nullptr;
        const Slot &slot = table()[hash & mask()];
        return slot.row != gone() && slot.hash == hash ? slot.row : nullptr;
    }
    // 16 bytes: zeroed memory is a table of empty slots.
    struct Slot {
        std::size_t hash;
        T *row; // null: empty; gone(): a tombstone
    };
    static T *gone() { return reinterpret_cast<T *>(std::uintptr_t(1)); }
    static std::size_t capacityFor(std::size_t rows) {
        std::size_t capacity = 16;
        while (capacity < rows * 2)
            capacity *= 2;
        return capacity;
    }
    Slot *table() const { return static_cast<Slot *>(m_table.data()); }
    std::size_t capacity() const { return m_table.size() / sizeof(Slot); }
    std::size_t mask() const { return capacity() - 1; }
    void rehash(std::size_t slotCount) {
        ZeroedTable old(slotCount * sizeof(Slot));
        old.swap(m_table);
        const Slot *previous = static_cast<const Slot *>(old.data());
        const std::size_t previousCapacity = old.size() / sizeof(Slot);
        m_used = 0;
        for (std::size_t j = 0; j < previousCapacity; ++j) {
            const Slot &slot = previous[j];
            if (!slot.row || slot.row == gone())
                continue;
            std::size_t i = slot.hash & mask();
            while (table()[i].row)
                i = (i + 1) & mask();
            table()[i] = slot;
            ++m_used;
        }
    }

    ZeroedTable m_table; // capacity() slots, a power of two, at most half used (tombstones count)
    qsizetype m_count = 0;
    std::size_t m_used = 0; // rows and tombstones
};

} // namespace sbx
