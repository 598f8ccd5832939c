// BlockPool, where a large listing's nodes live: blocks come from huge-page slabs only under a
// Bulk, are reused once released, and a slab whose blocks were all released is unmapped; blocks
// from the heap are released to the heap. Two threads taking and releasing at once lose none.
#include "models/files/blockpool.h"

#include <QtTest>

#include <cstring>
#include <set>
#include <thread>
#include <vector>

using namespace sbx;

class TestBlockPool final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heapOutsideABulk();
    void slabsFilledReusedAndUnmapped();
    void twoThreadsAtOnce();
};

void TestBlockPool::heapOutsideABulk() {
    BlockPool pool(256);
    void *block = pool.allocate();
    QVERIFY(block);
    std::memset(block, 0xab, 256);
    QCOMPARE(pool.slabCount(), std::size_t(0));
    pool.release(block); // back to the heap (ASan would name a mismatch)
    QCOMPARE(pool.slabCount(), std::size_t(0));
}

void TestBlockPool::slabsFilledReusedAndUnmapped() {
    BlockPool pool(200); // rounded up to 208: 10 082 blocks a slab
    std::vector<void *> blocks;
    {
        const BlockPool::Bulk bulk;
        for (int i = 0; i < 25000; ++i) {
            blocks.push_back(pool.allocate());
            std::memset(blocks.back(), i & 0xff, 200);
        }
    }
    QCOMPARE(pool.slabCount(), std::size_t(3));
    QCOMPARE(std::set<void *>(blocks.begin(), blocks.end()).size(), blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) // nothing written over another block
        QCOMPARE(static_cast<unsigned char *>(blocks[i])[199],
                 static_cast<unsigned char>(i & 0xff));

    // A released block is taken again before another slab is mapped: the third slab has
    // 5 246 blocks left, the first one more.
    void *again = blocks[7];
    pool.release(again);
    {
        const BlockPool::Bulk bulk;
        bool found = false;
        for (int i = 0; i < 5247; ++i) {
            void *block = pool.allocate();
            found = found || block == again;
            if (block != again)
                blocks.push_back(block);
        }
        QVERIFY(found);
        QCOMPARE(pool.slabCount(), std::size_t(3));
    }
    // All released: the full slabs go, the one blocks are taken from stays for the next.
    for (void *block : blocks)
        pool.release(block);
    QCOMPARE(pool.slabCount(), std::size_t(1));
}

void TestBlockPool::twoThreadsAtOnce() {
    BlockPool pool(64);
    const auto churn = [&pool](std::vector<void *> *kept) {
        const BlockPool::Bulk bulk;
        std::vector<void *> mine;
        for (int round = 0; round < 20; ++round) {
            for (int i = 0; i < 5000; ++i)
                mine.push_back(pool.allocate());
            for (std::size_t i = 0; i < mine.size(); i += 2)
                pool.release(mine[i]);
            std::vector<void *> left;
            for (std::size_t i = 1; i < mine.size(); i += 2)
                left.push_back(mine[i]);
            mine = std::move(left);
        }
        *kept = std::move(mine);
    };
    std::vector<void *> a;
    std::vector<void *> b;
    std::thread first(churn, &a);
    std::thread second(churn, &b);
    first.join();
    second.join();
    std::set<void *> all(a.begin(), a.end());
    all.insert(b.begin(), b.end());
    QCOMPARE(all.size(), a.size() + b.size()); // no block handed out twice
    for (void *block : all)
        pool.release(block);
    QVERIFY(pool.slabCount() <= 1);
}

QTEST_GUILESS_MAIN(TestBlockPool)
#include "tst_blockpool.moc"
