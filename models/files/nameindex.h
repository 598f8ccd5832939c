#pragma once

#include <QHashFunctions>
#include <QString>
#include <QStringView>

#include <cstddef>
#include <vector>

namespace sbx {

// Rows found by name: an open-addressing table of (hash, row) whose keys are the rows' own
// `info.name`, so that indexing 100 000 rows costs no key copy and no allocation per row
// (QHash<QString, Node *> took 60-90 ms for 100 000 inserts on the test machine, this 10-15).
// A row must keep its name while it is in the index.
template <typename T> class NameIndex final {
public:
    qsizetype size() const { return m_count; }
    void clear() {
        m_slots.clear();
        m_count = m_used = 0;
    }
    void reserve(qsizetype rows) {
        if (static_cast<std::size_t>(rows) * 2 > m_slots.size())
            rehash(capacityFor(static_cast<std::size_t>(rows)));
    }
    T *value(QStringView name) const {
        if (m_slots.empty())
            return nullptr;
        const std::size_t hash = hashOf(name);
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            const Slot &slot = m_slots[i];
            if (!slot.row && !slot.gone)
                return nullptr;
            if (slot.row && slot.hash == hash && slot.row->info.name == name)
                return slot.row;
        }
    }
    bool contains(QStringView name) const { return value(name) != nullptr; }
    // False, and nothing changes, when a row of that name is in already.
    bool insert(T *row) {
        if ((m_used + 1) * 2 > m_slots.size())
            rehash(capacityFor(static_cast<std::size_t>(m_count) + 1));
        const std::size_t hash = hashOf(row->info.name);
        Slot *free = nullptr;
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            Slot &slot = m_slots[i];
            if (!slot.row) {
                if (!free)
                    free = &slot;
                if (!slot.gone)
                    break;
                continue;
            }
            if (slot.hash == hash && slot.row->info.name == row->info.name)
                return false;
        }
        if (!free->gone)
            ++m_used;
        *free = {hash, row, false};
        ++m_count;
        return true;
    }
    void remove(QStringView name) {
        if (m_slots.empty())
            return;
        const std::size_t hash = hashOf(name);
        for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
            Slot &slot = m_slots[i];
            if (!slot.row && !slot.gone)
                return;
            if (slot.row && slot.hash == hash && slot.row->info.name == name) {
                slot = {0, nullptr, true}; // a tombstone: later rows of the probe stay found
                --m_count;
                return;
            }
        }
    }

private:
    struct Slot {
        std::size_t hash = 0;
        T *row = nullptr;
        bool gone = false;
    };
    static std::size_t hashOf(QStringView name) { return qHash(name, std::size_t(0x9e3779b9)); }
    static std::size_t capacityFor(std::size_t rows) {
        std::size_t capacity = 16;
        while (capacity < rows * 2)
            capacity *= 2;
        return capacity;
    }
    std::size_t mask() const { return m_slots.size() - 1; }
    void rehash(std::size_t capacity) {
        std::vector<Slot> old(capacity);
        old.swap(m_slots);
        m_used = 0;
        for (const Slot &slot : old) {
            if (!slot.row)
                continue;
            std::size_t i = slot.hash & mask();
            while (m_slots[i].row)
                i = (i + 1) & mask();
            m_slots[i] = slot;
            ++m_used;
        }
    }

    std::vector<Slot> m_slots; // a power of two, at most half used (tombstones count)
    qsizetype m_count = 0;
    std::size_t m_used = 0; // rows and tombstones
};

} // namespace sbx
