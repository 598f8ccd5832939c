// The log view as a person uses it, under QTest: following stops when scrolled up and resumes at
// End with the new lines counted, F3 / Shift+F3 move between the matches of a whole-log search,
// the filter pane keeps only matching (or, inverted, the other) lines at a level and shows the
// picked line in the whole log, Ctrl+G, bookmarks, error jumps, saving, and the window of
// logs opened from files.
#include "models/logs/logdata.h"
#include "models/logs/logexport.h"
#include "models/logs/logsearch.h"
#include "tests/support/localfiles.h"
#include "tests/support/scriptedprompts.h"
#include "widgets/logs/loglinesview.h"
#include "widgets/logs/logoverview.h"
#include "widgets/logs/logview.h"
#include "widgets/logs/logwindow.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

// n numbered lines; every 100th says "needle", every 250th is an ERROR, every 70th a WARN.
QByteArray numbered(int from, int count) {
    QByteArray out;
    for (int i = from; i < from + count; ++i) {
        QByteArray line = "2026-12-01T10:00:00Z line " + QByteArray::number(i);
        if (i % 250 == 0)
            line += " ERROR failed";
        else if (i % 70 == 0)
            line += " WARN slow";
        if (i % 100 == 0)
            line += " needle";
        out += line + '\n';
    }
    return out;
}

bool shown(LogView &view) {
    view.resize(1000, 600);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

bool searched(LogSearch *search) {
    return QTest::qWaitFor([search] { return !search->isRunning(); }, 20000);
}

LogQuery query(const QString &pattern) {
    return {.pattern = pattern};
}

} // namespace

class TestLogView final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase();
    void followStopsWhenScrolledUpAndResumesAtEnd();
    void f3MovesBetweenMatches();
    void filterPaneKeepsMatchesAndShowsThePickedLine();
    void levelFilterKeepsWarningsAndErrors();
    void goToLineAndBookmarks();
    void errorJumps();
    void saveWritesTheLogOrTheFilteredLines();
    void logWindowOpensFilesInTabs();
    void jsonLineShowsPrettyAndTimesGoAndCount();
    void overviewMarksErrorsAndMatchesAndGoesThere();
    void closedWhileSearching();
};

void TestLogView::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

void TestLogView::followStopsWhenScrolledUpAndResumesAtEnd() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 1000));
    QScrollBar *bar = view.lines()->verticalScrollBar();
    QVERIFY(view.lines()->isFollowing());
    // A growing log is shown a few times a second, not per piece of bytes.
    QTRY_VERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), bar->maximum());

    // The user pages up: following stops and new lines do not move what they read.
    view.lines()->setFocus();
    QTest::keyClick(view.lines(), Qt::Key_PageUp);
    QVERIFY(!view.lines()->isFollowing());
    const int reading = bar->value();
    view.data()->append(numbered(1000, 100));
    QTRY_COMPARE(view.lines()->unseenLines(), 100);
    QCOMPARE(bar->value(), reading);
    QVERIFY2(view.statusText().contains(u"100 new lines"_s), qPrintable(view.statusText()));

    // End follows again, at the newest line.
    QTest::keyClick(view.lines(), Qt::Key_End);
    QVERIFY(view.lines()->isFollowing());
    QCOMPARE(bar->value(), bar->maximum());
    QCOMPARE(view.lines()->unseenLines(), 0);
    const int before = bar->maximum();
    view.data()->append(numbered(1100, 50));
    QTRY_VERIFY(bar->maximum() > before);
    QCOMPARE(bar->value(), bar->maximum());

    // Dragging the scroll bar up is scrolling up too.
    bar->setValue(10);
    QVERIFY(!view.lines()->isFollowing());
}

void TestLogView::f3MovesBetweenMatches() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 5000));
    view.find(query(u"needle"_s));
    QVERIFY(searched(view.search()));
    QCOMPARE(view.search()->matches().count(), 50);
    view.lines()->goToLine(150);
    QTest::keyClick(&view, Qt::Key_F3);
    QCOMPARE(view.lines()->currentLine(), 200);
    QTest::keyClick(&view, Qt::Key_F3);
    QCOMPARE(view.lines()->currentLine(), 300);
    QTest::keyClick(&view, Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(view.lines()->currentLine(), 200);
    // The match is in view, not somewhere off screen.
    const qint64 top = view.lines()->verticalScrollBar()->value();
    QVERIFY(200 >= top &&
            200 < top + view.lines()->viewport()->height() / view.lines()->lineHeight());
    // A line out of view comes to the middle of it, not to its edge.
    view.lines()->goToLine(4000);
    const int rows = view.lines()->viewport()->height() / view.lines()->lineHeight();
    const qint64 at = 4000 - view.lines()->verticalScrollBar()->value();
    QVERIFY2(at >= rows / 2 - 1 && at <= rows / 2 + 1, qPrintable(QString::number(at)));
    // Past the last match it wraps to the first.
    view.lines()->goToLine(4950);
    QTest::keyClick(&view, Qt::Key_F3);
    QCOMPARE(view.lines()->currentLine(), 0);
}

void TestLogView::filterPaneKeepsMatchesAndShowsThePickedLine() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 3000));
    view.showFilter(true);
    view.setFilter(query(u"needle"_s));
    QVERIFY(searched(view.filter()));
    LogLinesView *pane = view.filterLines();
    QCOMPARE(pane->rowCount(), 30);
    QCOMPARE(pane->lineOfRow(7), 700);
    // Picking a row in the pane shows that line in the whole log.
    pane->setFocus();
    QTest::mouseClick(pane->viewport(), Qt::LeftButton, {}, QPoint(50, pane->lineHeight() / 2));
    QCOMPARE(view.lines()->currentLine(), pane->lineOfRow(pane->verticalScrollBar()->value()));
    // Inverted: every other line.
    LogQuery inverted = query(u"needle"_s);
    inverted.invert = true;
    view.setFilter(inverted);
    QVERIFY(searched(view.filter()));
    QCOMPARE(pane->rowCount(), 2970);
    // A line that arrives later and matches joins the filter.
    view.setFilter(query(u"needle"_s));
    QVERIFY(searched(view.filter()));
    view.data()->append("late needle\n");
    QTRY_COMPARE_WITH_TIMEOUT(pane->rowCount(), 31, 10000);
    QCOMPARE(pane->lineOfRow(30), 3000);
}

void TestLogView::levelFilterKeepsWarningsAndErrors() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 3500));
    LogQuery warnings;
    warnings.minLevel = LogLevel::Warning;
    view.setFilter(warnings);
    QVERIFY(searched(view.filter()));
    int expected = 0;
    for (int i = 0; i < 3500; ++i)
        expected += (i % 250 == 0 || i % 70 == 0) ? 1 : 0;
    QCOMPARE(view.filter()->matches().count(), expected);
    LogQuery errorsWithNeedle = query(u"needle"_s);
    errorsWithNeedle.minLevel = LogLevel::Error;
    view.setFilter(errorsWithNeedle);
    QVERIFY(searched(view.filter()));
    QCOMPARE(view.filter()->matches().count(), 7); // 0, 500, ..., 3000
}

void TestLogView::goToLineAndBookmarks() {
    LogView view;
    ScriptedPrompts prompts;
    prompts.textAnswer = [](const ScriptedPrompts::Question &, const QString &) {
        return std::optional<QString>(u"1234"_s);
    };
    view.setPrompts(&prompts);
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 5000));
    QTest::keyClick(&view, Qt::Key_G, Qt::ControlModifier);
    QCOMPARE(view.lines()->currentLine(), 1233); // shown as line 1234
    QVERIFY(!view.lines()->isFollowing());
    QTest::keyClick(&view, Qt::Key_M, Qt::ControlModifier);
    view.goToLine(40);
    QTest::keyClick(&view, Qt::Key_M, Qt::ControlModifier);
    QCOMPARE(view.bookmarks(), (std::set<qint64>{40, 1233}));
    QTest::keyClick(&view, Qt::Key_F2);
    QCOMPARE(view.lines()->currentLine(), 1233);
    QTest::keyClick(&view, Qt::Key_F2);
    QCOMPARE(view.lines()->currentLine(), 40); // wraps
    QTest::keyClick(&view, Qt::Key_F2, Qt::ShiftModifier);
    QCOMPARE(view.lines()->currentLine(), 1233);
    QTest::keyClick(&view, Qt::Key_M, Qt::ControlModifier);
    QCOMPARE(view.bookmarks(), std::set<qint64>{40});
}

void TestLogView::errorJumps() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(1, 1000));
    view.goToLine(0); // line 1
    QTest::keyClick(&view, Qt::Key_E, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(view.lines()->currentLine(), 249, 10000); // "line 250 ... ERROR"
    QTest::keyClick(&view, Qt::Key_E, Qt::ControlModifier);
    QCOMPARE(view.lines()->currentLine(), 499);
    QTest::keyClick(&view, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(view.lines()->currentLine(), 249);
}

void TestLogView::saveWritesTheLogOrTheFilteredLines() {
    LogView view;
    ScriptedPrompts prompts;
    prompts.fileAnswer = m_dir.filePath(u"saved.log"_s);
    view.setPrompts(&prompts);
    QVERIFY(shown(view));
    const QByteArray log = numbered(0, 2000) + "\x1b[31mred needle\x1b[0m\n";
    view.data()->append(log);
    QSignalSpy saved(view.exporter(), &LogExport::finished);
    QTest::keyClick(&view, Qt::Key_S, Qt::ControlModifier);
    QVERIFY(saved.wait(10000));
    QCOMPARE(saved.last().first().toString(), QString());
    QCOMPARE(readAll(prompts.fileAnswer), log); // the bytes as they came
    // The filtered lines, as text (escapes removed).
    view.setFilter(query(u"needle"_s));
    QVERIFY(searched(view.filter()));
    view.saveTo(m_dir.filePath(u"filtered.log"_s), true);
    QVERIFY(saved.wait(10000));
    const QByteArray filtered = readAll(m_dir.filePath(u"filtered.log"_s));
    QCOMPARE(filtered.count('\n'), 21);
    QVERIFY(filtered.endsWith("red needle\n"));
    // A folder that cannot be written: said, nothing left behind.
    view.saveTo(u"/proc/no-such-dir/x.log"_s, false);
    QVERIFY(saved.wait(10000));
    QVERIFY(!saved.last().first().toString().isEmpty());
}

void TestLogView::logWindowOpensFilesInTabs() {
    const QString first = m_dir.filePath(u"first.log"_s);
    const QString second = m_dir.filePath(u"second.log"_s);
    for (const QString &path : {first, second}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(numbered(0, 10));
    }
    ScriptedPrompts prompts;
    prompts.fileAnswer = first;
    LogWindow window(&prompts);
    window.askOpen();
    window.openFile(second);
    QCOMPARE(window.tabs()->count(), 2);
    QCOMPARE(window.tabs()->tabText(0), u"first.log"_s);
    window.openFile(first); // already open: that tab
    QCOMPARE(window.tabs()->count(), 2);
    QCOMPARE(window.tabs()->currentIndex(), 0);
    LogView *log = window.view(0);
    QTRY_COMPARE_WITH_TIMEOUT(log->data()->lineCount(), 10, 10000);
    // Followed: lines written later appear.
    QFile f(first);
    QVERIFY(f.open(QIODevice::Append));
    f.write(numbered(10, 5));
    f.close();
    QTRY_COMPARE_WITH_TIMEOUT(log->data()->lineCount(), 15, 10000);
}

void TestLogView::jsonLineShowsPrettyAndTimesGoAndCount() {
    LogView view;
    ScriptedPrompts prompts;
    prompts.textAnswer = [](const ScriptedPrompts::Question &, const QString &) {
        return std::optional<QString>(u"2026-12-01T10:00:00Z"_s);
    };
    view.setPrompts(&prompts);
    QVERIFY(shown(view));
    view.data()->append("2026-12-01T09:59:58Z start\n"
                        "{\"ts\":\"2026-12-01T09:59:59Z\",\"level\":\"warn\",\"msg\":\"x\"}\n"
                        "2026-12-01T10:00:00Z INFO on time\n"
                        "2026-12-01T10:00:02Z INFO later\n");
    // The JSON line, current, shows pretty-printed below; another line hides it.
    view.goToLine(1);
    QVERIFY2(view.detailText().contains(u"\"level\": \"warn\""_s), qPrintable(view.detailText()));
    view.goToLine(0);
    QVERIFY(view.detailText().isEmpty());
    // Ctrl+T: the first line at or after the time given.
    QTest::keyClick(&view, Qt::Key_T, Qt::ControlModifier);
    QCOMPARE(view.lines()->currentLine(), 2);
    QVERIFY(!view.goToTime(u"not a time"_s));
    // Relative times: since the current line's.
    view.setRelativeTime(true);
    QVERIFY(view.lines()->showsRelativeTime());
    view.setRelativeTime(false);
    QVERIFY(!view.lines()->showsRelativeTime());
}

void TestLogView::overviewMarksErrorsAndMatchesAndGoesThere() {
    LogView view;
    QVERIFY(shown(view));
    view.data()->append(numbered(0, 2000));
    // The errors of the whole log are found without asking, for the ruler.
    QTRY_COMPARE_WITH_TIMEOUT(view.errors()->matches().count(), 8, 10000); // 0, 250, ..., 1750
    view.find(query(u"needle"_s));
    QVERIFY(searched(view.search()));
    LogOverview *ruler = view.overview();
    QVERIFY(ruler->isVisible());
    // A mark is where its line is: the line of a row is proportional to the log.
    QCOMPARE(ruler->lineAt(0), 0);
    QVERIFY(ruler->lineAt(ruler->height() - 1) >= 1990);
    QTest::mouseClick(ruler, Qt::LeftButton, {}, QPoint(5, ruler->height() / 2));
    QCOMPARE(view.lines()->currentLine(), ruler->lineAt(ruler->height() / 2));
    QVERIFY(std::abs(view.lines()->currentLine() - 1000) < 20);
}

void TestLogView::closedWhileSearching() {
    // Closing a log tab while its workers read the log: they stop first, nothing is left
    // reading freed memory (ASan builds would report it).
    for (int round = 0; round < 3; ++round) {
        auto *view = new LogView;
        view->data()->append(numbered(0, 300000));
        view->find(query(u"needle"_s));
        view->setFilter(query(u"ERROR"_s));
        QVERIFY(view->search()->isRunning() || view->search()->scannedLines() > 0);
        delete view;
    }
}

QTEST_MAIN(TestLogView)
#include "tst_logview.moc"
