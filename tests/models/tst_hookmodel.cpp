// HookModel: hooks grouped into lanes by priority, in the order they run; a new list keeps the
// rows that stayed (no reset), checked throughout by QAbstractItemModelTester.
#include "models/hookmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

SandboxHook hook(const QString &name, int priority, const QString &command = {},
                 const QString &source = u"api"_s) {
    SandboxHook h;
    h.name = name;
    h.priority = priority;
    h.command = command.isEmpty() ? u"echo "_s + name : command;
    h.source = source;
    return h;
}

QStringList childNames(const HookModel &model, const QModelIndex &lane) {
    QStringList names;
    for (int r = 0; r < model.rowCount(lane); ++r)
        names << model.index(r, HookModel::NameColumn, lane).data().toString();
    return names;
}

QStringList laneTitles(const HookModel &model) {
    QStringList titles;
    for (int r = 0; r < model.rowCount(); ++r)
        titles << model.index(r, 0).data().toString();
    return titles;
}

} // namespace

class TestHookModel final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lanesGroupHooksByPriorityInRunOrder();
    void newListKeepsRowsThatStayed();
    void hookChangingPriorityMovesLane();
};

void TestHookModel::lanesGroupHooksByPriorityInRunOrder() {
    HookModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHooks(
        {hook(u"upload-logs"_s, 100), hook(u"stop-db"_s, 10), hook(u"flush"_s, 10),
         hook(u"notify"_s, 50, u"curl -X POST https://example.invalid/done\necho sent"_s),
         hook(u"boot-marker"_s, 50, u"true"_s, u"env"_s)});

    QCOMPARE(laneTitles(model),
             (QStringList{u"Priority 10 · 2 hooks run together"_s,
                          u"Priority 50 · 2 hooks run together"_s, u"Priority 100 · 1 hook"_s}));
    QCOMPARE(childNames(model, model.index(0, 0)), (QStringList{u"flush"_s, u"stop-db"_s}));
    QCOMPARE(childNames(model, model.index(1, 0)), (QStringList{u"boot-marker"_s, u"notify"_s}));

    const QModelIndex notify = model.indexOfHook(u"notify"_s);
    QCOMPARE(notify.parent(), model.indexOfLane(50));
    QCOMPARE(notify.siblingAtColumn(HookModel::CommandColumn).data().toString(),
             u"curl -X POST https://example.invalid/done …"_s);
    QCOMPARE(notify.siblingAtColumn(HookModel::CommandColumn).data(Qt::ToolTipRole).toString(),
             u"curl -X POST https://example.invalid/done\necho sent"_s);
    QCOMPARE(notify.siblingAtColumn(HookModel::TimeoutColumn).data().toString(), u"10 s"_s);
    QCOMPARE(notify.siblingAtColumn(HookModel::SourceColumn).data().toString(), u"api"_s);
    QVERIFY(!notify.data(HookModel::ReadOnlyRole).toBool());

    const QModelIndex env = model.indexOfHook(u"boot-marker"_s);
    QVERIFY(env.data(HookModel::ReadOnlyRole).toBool());
    QVERIFY(env.siblingAtColumn(HookModel::SourceColumn).data().toString().startsWith(u"env"_s));
    QVERIFY(env.data(Qt::ToolTipRole).toString().contains(u"SANDBOX_SHUTDOWN_HOOKS"_s));
    QVERIFY(model.index(0, 0).data(HookModel::IsLaneRole).toBool());
    QCOMPARE(model.hookAt(model.index(0, 0)), nullptr);
    QCOMPARE(model.hookAt(notify)->priority, 50);
}

void TestHookModel::newListKeepsRowsThatStayed() {
    HookModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHooks({hook(u"a"_s, 10), hook(u"c"_s, 10), hook(u"d"_s, 50), hook(u"z"_s, 100)});
    const QPersistentModelIndex a = model.indexOfHook(u"a"_s);
    const QPersistentModelIndex c = model.indexOfHook(u"c"_s);
    const QPersistentModelIndex z = model.indexOfHook(u"z"_s);
    const QPersistentModelIndex lane10 = model.indexOfLane(10);
    const QPersistentModelIndex lane100 = model.indexOfLane(100);

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    // c changes its command, b joins lane 10, lane 50 goes, lane 5 appears.
    model.setHooks({hook(u"a"_s, 10), hook(u"b"_s, 10), hook(u"c"_s, 10, u"sync"_s),
                    hook(u"first"_s, 5), hook(u"z"_s, 100)});

    QCOMPARE(resets.count(), 0);
    QCOMPARE(laneTitles(model),
             (QStringList{u"Priority 5 · 1 hook"_s, u"Priority 10 · 3 hooks run together"_s,
                          u"Priority 100 · 1 hook"_s}));
    QCOMPARE(childNames(model, lane10), (QStringList{u"a"_s, u"b"_s, u"c"_s}));
    QVERIFY(a.isValid() && c.isValid() && z.isValid() && lane10.isValid() && lane100.isValid());
    QCOMPARE(a.data().toString(), u"a"_s);
    QCOMPARE(c.data().toString(), u"c"_s);
    QCOMPARE(c.sibling(c.row(), HookModel::CommandColumn).data().toString(), u"sync"_s);
    QCOMPARE(lane10.row(), 1);
    QCOMPARE(z.parent(), QModelIndex(lane100));
    QCOMPARE(inserted.count(), 2); // lane 5, hook b
    QCOMPARE(removed.count(), 1);  // lane 50 with d
    bool cChanged = false;
    for (const QList<QVariant> &args : std::as_const(changed))
        cChanged = cChanged || args.at(0).toModelIndex() == QModelIndex(c);
    QVERIFY(cChanged);

    // The same list again changes nothing.
    changed.clear();
    inserted.clear();
    removed.clear();
    model.setHooks(model.hooks());
    QCOMPARE(changed.count() + inserted.count() + removed.count(), 0);
}

void TestHookModel::hookChangingPriorityMovesLane() {
    HookModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHooks({hook(u"a"_s, 10), hook(u"b"_s, 10)});
    model.setHooks({hook(u"a"_s, 10), hook(u"b"_s, 20)});
    QCOMPARE(laneTitles(model),
             (QStringList{u"Priority 10 · 1 hook"_s, u"Priority 20 · 1 hook"_s}));
    QCOMPARE(model.indexOfHook(u"b"_s).parent(), model.indexOfLane(20));
    model.setHooks({});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.indexOfHook(u"a"_s).isValid());
}

QTEST_MAIN(TestHookModel)
#include "tst_hookmodel.moc"
