// HookModel: hooks grouped into lanes by priority, in the order they run; a new list keeps the
// rows that stayed (no reset), checked throughout by QAbstractItemModelTester.
#include "models/hookmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace sbx;

namespace {

SandboxHook hook(const QString &name, int priority, const QString &command = {},
                 const QString &source = QStringLiteral("api")) {
    SandboxHook h;
    h.name = name;
    h.priority = priority;
    h.command = command.isEmpty() ? QStringLiteral("echo ") + name : command;
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
    void lanesGroupHooksByPriorityInRunOrder() {
        HookModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHooks(
            {hook(QStringLiteral("upload-logs"), 100), hook(QStringLiteral("stop-db"), 10),
             hook(QStringLiteral("flush"), 10),
             hook(QStringLiteral("notify"), 50,
                  QStringLiteral("curl -X POST https://example.invalid/done\necho sent")),
             hook(QStringLiteral("boot-marker"), 50, QStringLiteral("true"),
                  QStringLiteral("env"))});

        QCOMPARE(laneTitles(model),
                 (QStringList{QStringLiteral("Priority 10 · 2 hooks run together"),
                              QStringLiteral("Priority 50 · 2 hooks run together"),
                              QStringLiteral("Priority 100 · 1 hook")}));
        QCOMPARE(childNames(model, model.index(0, 0)),
                 (QStringList{QStringLiteral("flush"), QStringLiteral("stop-db")}));
        QCOMPARE(childNames(model, model.index(1, 0)),
                 (QStringList{QStringLiteral("boot-marker"), QStringLiteral("notify")}));

        const QModelIndex notify = model.indexOfHook(QStringLiteral("notify"));
        QCOMPARE(notify.parent(), model.indexOfLane(50));
        QCOMPARE(notify.siblingAtColumn(HookModel::CommandColumn).data().toString(),
                 QStringLiteral("curl -X POST https://example.invalid/done …"));
        QCOMPARE(notify.siblingAtColumn(HookModel::CommandColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("curl -X POST https://example.invalid/done\necho sent"));
        QCOMPARE(notify.siblingAtColumn(HookModel::TimeoutColumn).data().toString(),
                 QStringLiteral("10 s"));
        QCOMPARE(notify.siblingAtColumn(HookModel::SourceColumn).data().toString(),
                 QStringLiteral("api"));
        QVERIFY(!notify.data(HookModel::ReadOnlyRole).toBool());

        const QModelIndex env = model.indexOfHook(QStringLiteral("boot-marker"));
        QVERIFY(env.data(HookModel::ReadOnlyRole).toBool());
        QVERIFY(env.siblingAtColumn(HookModel::SourceColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("env")));
        QVERIFY(env.data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("SANDBOX_SHUTDOWN_HOOKS")));
        QVERIFY(model.index(0, 0).data(HookModel::IsLaneRole).toBool());
        QCOMPARE(model.hookAt(model.index(0, 0)), nullptr);
        QCOMPARE(model.hookAt(notify)->priority, 50);
    }

    void newListKeepsRowsThatStayed() {
        HookModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHooks({hook(QStringLiteral("a"), 10), hook(QStringLiteral("c"), 10),
                        hook(QStringLiteral("d"), 50), hook(QStringLiteral("z"), 100)});
        const QPersistentModelIndex a = model.indexOfHook(QStringLiteral("a"));
        const QPersistentModelIndex c = model.indexOfHook(QStringLiteral("c"));
        const QPersistentModelIndex z = model.indexOfHook(QStringLiteral("z"));
        const QPersistentModelIndex lane10 = model.indexOfLane(10);
        const QPersistentModelIndex lane100 = model.indexOfLane(100);

        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        // c changes its command, b joins lane 10, lane 50 goes, lane 5 appears.
        model.setHooks({hook(QStringLiteral("a"), 10), hook(QStringLiteral("b"), 10),
                        hook(QStringLiteral("c"), 10, QStringLiteral("sync")),
                        hook(QStringLiteral("first"), 5), hook(QStringLiteral("z"), 100)});

        QCOMPARE(resets.count(), 0);
        QCOMPARE(laneTitles(model),
                 (QStringList{QStringLiteral("Priority 5 · 1 hook"),
                              QStringLiteral("Priority 10 · 3 hooks run together"),
                              QStringLiteral("Priority 100 · 1 hook")}));
        QCOMPARE(childNames(model, lane10),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        QVERIFY(a.isValid() && c.isValid() && z.isValid() && lane10.isValid() && lane100.isValid());
        QCOMPARE(a.data().toString(), QStringLiteral("a"));
        QCOMPARE(c.data().toString(), QStringLiteral("c"));
        QCOMPARE(c.sibling(c.row(), HookModel::CommandColumn).data().toString(),
                 QStringLiteral("sync"));
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

    void hookChangingPriorityMovesLane() {
        HookModel model(nullptr);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHooks({hook(QStringLiteral("a"), 10), hook(QStringLiteral("b"), 10)});
        model.setHooks({hook(QStringLiteral("a"), 10), hook(QStringLiteral("b"), 20)});
        QCOMPARE(laneTitles(model), (QStringList{QStringLiteral("Priority 10 · 1 hook"),
                                                 QStringLiteral("Priority 20 · 1 hook")}));
        QCOMPARE(model.indexOfHook(QStringLiteral("b")).parent(), model.indexOfLane(20));
        model.setHooks({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.indexOfHook(QStringLiteral("a")).isValid());
    }
};

QTEST_MAIN(TestHookModel)
#include "tst_hookmodel.moc"
