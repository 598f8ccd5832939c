// NameIndex, the Files model's rows by name: every name found after inserts, removals (their
// tombstones keep later rows of a probe reachable) and growth, in a small table and in one large
// enough to be mapped on its own (ZeroedTable); a name twice is refused.
#include "models/files/nameindex.h"

#include <QtTest>

#include <memory>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {
struct Info {
    QString name;
};
struct Row {
    Info info;
};

std::vector<std::unique_ptr<Row>> rows(int count, const QString &pattern) {
    std::vector<std::unique_ptr<Row>> out;
    for (int i = 0; i < count; ++i)
        out.push_back(std::make_unique<Row>(Row{{pattern.arg(i)}}));
    return out;
}
} // namespace

class TestNameIndex final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void insertFindRemove();
    void largeTableWithPrefetchedInserts();
    void movedIndexKeepsItsRows();
};

void TestNameIndex::insertFindRemove() {
    NameIndex<Row> index;
    QVERIFY(!index.value(u"a"_s));
    auto all = rows(200, u"file-%1"_s);
    for (const auto &row : all)
        QVERIFY(index.insert(row.get()));
    QCOMPARE(index.size(), 200);
    Row twin{{u"file-7"_s}};
    QVERIFY(!index.insert(&twin)); // the first of a name wins
    QCOMPARE(index.value(u"file-7"_s), all[7].get());
    // Every other row removed: the rest are still found past the tombstones.
    for (int i = 0; i < 200; i += 2)
        index.remove(all[std::size_t(i)]->info.name);
    QCOMPARE(index.size(), 100);
    for (int i = 0; i < 200; ++i)
        QCOMPARE(index.value(all[std::size_t(i)]->info.name),
                 i % 2 ? all[std::size_t(i)].get() : nullptr);
    // Back in, over the tombstones.
    for (int i = 0; i < 200; i += 2)
        QVERIFY(index.insert(all[std::size_t(i)].get()));
    QCOMPARE(index.size(), 200);
    for (const auto &row : all)
        QCOMPARE(index.value(row->info.name), row.get());
    QVERIFY(!index.contains(u"file-200"_s));
    index.clear();
    QCOMPARE(index.size(), 0);
    QVERIFY(!index.contains(u"file-1"_s));
}

void TestNameIndex::largeTableWithPrefetchedInserts() {
    // 100 000 rows: 262 144 slots of 16 bytes, mapped with huge pages where the kernel agrees.
    auto all = rows(100000, u"report-%1-final.txt"_s);
    NameIndex<Row> index;
    index.reserve(qsizetype(all.size()));
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::size_t hash = NameIndex<Row>::hashOf(all[i]->info.name);
        index.prefetch(hash);
        QVERIFY(index.insert(all[i].get(), hash));
    }
    QCOMPARE(index.size(), 100000);
    for (const auto &row : all)
        QCOMPARE(index.value(row->info.name), row.get());
    QVERIFY(!index.contains(u"report-100000-final.txt"_s));
}

void TestNameIndex::movedIndexKeepsItsRows() {
    auto all = rows(5000, u"n%1"_s);
    NameIndex<Row> index;
    for (const auto &row : all)
        index.insert(row.get());
    NameIndex<Row> moved = std::move(index);
    QCOMPARE(moved.size(), 5000);
    QCOMPARE(moved.value(u"n4999"_s), all[4999].get());
    QCOMPARE(index.size(), 0); // NOLINT(bugprone-use-after-move): moved-from is empty
    QVERIFY(!index.contains(u"n1"_s));
    index = std::move(moved);
    QCOMPARE(index.value(u"n0"_s), all[0].get());
}

QTEST_GUILESS_MAIN(TestNameIndex)
#include "tst_nameindex.moc"
