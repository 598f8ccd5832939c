// CollationKeys, the Files tab's name order: for the C locale and for ICU's (English, German,
// Swedish, Japanese) it sorts names exactly as QCollator::sortKey() does (the keys the model
// used before), accents, case, digits, punctuation, CJK, emoji and a lone surrogate among them;
// a large listing's keys (in huge pages) keep their order too.
#include "models/files/collationkeys.h"

#include <QCollator>
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {
QStringList trickyNames() {
    QStringList names{u"b"_s,          u"a"_s,
                      u"B"_s,          u"A"_s,
                      u"ä"_s,          u"a\u0308"_s,
                      u"z"_s,          u"å"_s,
                      u"ö"_s,          u"o"_s,
                      u"file10.txt"_s, u"file9.txt"_s,
                      u"file 9.txt"_s, u"file-9.txt"_s,
                      u"_hidden"_s,    u".bashrc"_s,
                      u"Ärger"_s,      u"arger"_s,
                      u"Zebra"_s,      u"zebra"_s,
                      u"日本"_s,       u"にほん"_s,
                      u"ニホン"_s,     u"中文"_s,
                      u"😀.png"_s,      u"\ue000 private"_s,
                      u"é"_s,          u"e"_s,
                      u"E"_s,          u"ß"_s,
                      u"ss"_s,         u"résumé.pdf"_s,
                      u"resume.pdf"_s, u"Résumé.pdf"_s,
                      u"1"_s,          u"01"_s,
                      u"~tmp"_s,       u"#notes"_s,
                      u"a b"_s,        u"a  b"_s,
                      u"a\tb"_s,       u"ab"_s,
                      u"a"_s};
    names << QString(QChar(0xd800)) + u"lone"_s;
    return names;
}

// The order of names by key, ties kept in the order given (as the model's stable sorts).
template <typename Less> std::vector<int> orderBy(int count, Less less) {
    std::vector<int> order(std::size_t(count), 0);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), less);
    return order;
}

QStringList named(const QStringList &names, const std::vector<int> &order) {
    QStringList out;
    for (const int i : order)
        out << names[i];
    return out;
}
} // namespace

class TestCollationKeys final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameOrderAsQCollator_data();
    void sameOrderAsQCollator();
    void manyKeysInHugePages();
};

void TestCollationKeys::sameOrderAsQCollator_data() {
    QTest::addColumn<QString>("locale");
    for (const char *name : {"C", "en_US", "de_DE", "sv_SE", "ja_JP"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestCollationKeys::sameOrderAsQCollator() {
    QFETCH(QString, locale);
    const QLocale l(locale);
    const QStringList names = trickyNames();
    CollationKeys keys(l);
    for (const QString &name : names)
        keys.append(name);
    QCOMPARE(keys.size(), std::size_t(names.size()));
    const QCollator collator(l);
    std::vector<QCollatorSortKey> theirs;
    for (const QString &name : names)
        theirs.push_back(collator.sortKey(name));
    const auto ours =
        orderBy(int(names.size()), [&](int a, int b) { return keys.compare(a, b) < 0; });
    const auto qts =
        orderBy(int(names.size()), [&](int a, int b) { return theirs[a].compare(theirs[b]) < 0; });
    QCOMPARE(named(names, ours), named(names, qts));
    // Equal keys where Qt's are equal (an accent composed or not), and only there.
    for (int a = 0; a < names.size(); ++a) {
        for (int b = 0; b < names.size(); ++b) {
            const int mine = keys.compare(a, b);
            const int qt = theirs[a].compare(theirs[b]);
            QVERIFY2((mine < 0) == (qt < 0) && (mine == 0) == (qt == 0),
                     qPrintable(names[a] + u" / "_s + names[b]));
        }
    }
    if (locale != u"C"_s) // ICU's order, not the code points'
        QVERIFY(named(names, ours).indexOf(u"B"_s) < named(names, ours).indexOf(u"z"_s));
}

void TestCollationKeys::manyKeysInHugePages() {
    const QLocale l(u"en_US"_s);
    CollationKeys keys(l);
    const int count = 60000; // past the heap chunks: most keys in mapped ones
    QStringList names;
    for (int i = 0; i < count; ++i)
        names << u"Report %1 ä final.txt"_s.arg((i * 7919) % count);
    for (const QString &name : names)
        keys.append(name);
    const QCollator collator(l);
    const auto ours = orderBy(count, [&](int a, int b) { return keys.compare(a, b) < 0; });
    QStringList expected = names;
    std::stable_sort(expected.begin(), expected.end(), [&](const QString &a, const QString &b) {
        return collator.compare(a, b) < 0;
    });
    QCOMPARE(named(names, ours), expected);
    CollationKeys moved = std::move(keys);
    QCOMPARE(moved.size(), std::size_t(count));
    QVERIFY(moved.compare(0, 1) != 0);
}

QTEST_GUILESS_MAIN(TestCollationKeys)
#include "tst_collationkeys.moc"
