// The Code tab against a real sandbox-server and a real IPython kernel: a variable set in one
// cell is read in the next (Shift+Enter and Ctrl+Enter as Jupyter has them), a PNG made by the
// kernel is drawn as an image of its size, an exception shows its name, value and coloured
// traceback, a busy loop shows its elapsed time and is interrupted with its kernel's state kept,
// JavaScript runs through node, and the editor indents as Jupyter's does.
#include "client/api/jupyterjobs.h"
#include "client/sandboxclient.h"
#include "models/code/notebookmodel.h"
#include "models/code/notebookrunner.h"
#include "tests/support/jobs.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/code/cellwidget.h"
#include "widgets/code/codeeditor.h"
#include "widgets/code/codetab.h"
#include "widgets/code/outputview.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

int stateOf(CodeTab *tab, int row) {
    const NotebookCell *cell = tab->model()->cell(row);
    return cell ? static_cast<int>(cell->state) : -1;
}

bool ended(CodeTab *tab, int row) {
    const int state = stateOf(tab, row);
    return state == int(CellState::Done) || state == int(CellState::Error);
}

QString outputText(CodeTab *tab, int row) {
    CellWidget *cell = tab->cellWidget(row);
    return cell ? cell->outputs()->plainText() : QString();
}

// A PNG of width x height, red, written with zlib and struct: no imaging library needed.
QString pngCode(int width, int height) {
    return uR"(import struct, zlib
from IPython.display import Image, display
def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
w, h = %1, %2
rows = b''.join(b'\x00' + bytes([255, 0, 0] * w) for _ in range(h))
png = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
       + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
display(Image(data=png))
print('drawn'))"_s.arg(width)
        .arg(height);
}

} // namespace

class TestCodeTab final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    ScriptedPrompts m_prompts;

    std::unique_ptr<CodeTab> shownTab() {
        auto tab = std::make_unique<CodeTab>(m_client.get());
        tab->setPrompts(&m_prompts);
        tab->resize(1200, 800);
        tab->show();
        if (!QTest::qWaitForWindowExposed(tab.get()))
            return nullptr;
        // The kernels, and GET /v1/sandbox (the extensions) answered.
        if (!QTest::qWaitFor(
                [&tab] {
                    return tab->runner()->infoLoaded() && !tab->runner()->homeDir().isEmpty();
                },
                15000))
            return nullptr;
        return tab;
    }
    // Types code into the cell's editor and runs it in place; true once it ended.
    bool runIn(CodeTab *tab, int row, const QString &code) {
        tab->cellWidget(row)->editor()->setPlainText(code);
        tab->setCurrentRow(row);
        QTest::keyClick(tab->cellWidget(row)->editor(), Qt::Key_Return, Qt::ControlModifier);
        return QTest::qWaitFor([&] { return ended(tab, row); }, 90000);
    }

private Q_SLOTS:
    void initTestCase();
    void variableOfOneCellIsReadInTheNext();
    void shiftEnterMovesOnAndMakesACellAtTheEnd();
    void pngIsDrawnAsAnImageOfItsSize();
    void exceptionShowsNameValueAndTraceback();
    void busyLoopShowsItsTimeAndIsInterrupted();
    void javascriptRunsThroughNode();
    void editorIndentsAsJupyter();
};

void TestCodeTab::initTestCase() {
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
    JupyterInfo info;
    QVERIFY(runJob(new JupyterInfoJob(m_client.get()), &info).ok());
    if (info.availableKernels.isEmpty())
        QSKIP(qPrintable(u"no IPython kernel on this machine: "_s + info.problem));
}

void TestCodeTab::variableOfOneCellIsReadInTheNext() {
    auto tab = shownTab();
    QVERIFY(tab);
    QAbstractItemModelTester tester(tab->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!tab->showsNoJupyterApi());
    QVERIFY(tab->runner()->canInterrupt()); // learnt from GET /v1/sandbox
    QCOMPARE(tab->cellCount(), 1);
    QCOMPARE(tab->cellWidget(0)->promptText(), u"[ ]:"_s);
    CodeEditor *first = tab->cellWidget(0)->editor();
    QTest::keyClicks(first, u"answer = 41"_s);
    QCOMPARE(tab->model()->cell(0)->source, u"answer = 41"_s);
    QTest::keyClick(first, Qt::Key_Return, Qt::ShiftModifier);
    // Shift+Enter ran it and made the next cell, which is current now.
    QCOMPARE(tab->cellCount(), 2);
    QCOMPARE(tab->currentRow(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 0), 90000);
    QCOMPARE(stateOf(tab.get(), 0), int(CellState::Done));
    QCOMPARE(tab->cellWidget(0)->promptText(), u"[1]:"_s);
    QVERIFY2(tab->cellWidget(0)->statusText().startsWith(u"Done in"_s),
             qPrintable(tab->cellWidget(0)->statusText()));

    CodeEditor *second = tab->cellWidget(1)->editor();
    QTest::keyClicks(second, u"answer + 1"_s);
    QTest::keyClick(second, Qt::Key_Return, Qt::ControlModifier);
    // Ctrl+Enter runs in place: no new cell, the same one current.
    QCOMPARE(tab->cellCount(), 2);
    QCOMPARE(tab->currentRow(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 1), 60000);
    QCOMPARE(outputText(tab.get(), 1), u"42"_s);
    QCOMPARE(tab->cellWidget(1)->promptText(), u"[2]:"_s);
    QVERIFY(tab->model()->isModified());
    QCOMPARE(tab->pendingWork().unsavedFiles, 1);
}

void TestCodeTab::shiftEnterMovesOnAndMakesACellAtTheEnd() {
    auto tab = shownTab();
    QVERIFY(tab);
    tab->model()->insertCell(1, CellKind::Markdown, u"# Heading"_s);
    tab->model()->insertCell(2, CellKind::Code, u"print('third')"_s);
    QCOMPARE(tab->cellCount(), 3);
    QVERIFY(tab->cellWidget(1)->isRendered());
    // In a middle cell Shift+Enter moves on without making one.
    tab->cellWidget(0)->editor()->setPlainText(u"print('first')"_s);
    tab->setCurrentRow(0);
    QTest::keyClick(tab->cellWidget(0)->editor(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(tab->cellCount(), 3);
    QCOMPARE(tab->currentRow(), 1);
    // The markdown cell renders and passes on.
    tab->runCurrent(true);
    QCOMPARE(tab->currentRow(), 2);
    QVERIFY(tab->cellWidget(1)->renderedText().contains(u"Heading"_s));
    QTest::keyClick(tab->cellWidget(2)->editor(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(tab->cellCount(), 4);
    QCOMPARE(tab->currentRow(), 3);
    QCOMPARE(tab->model()->cell(3)->kind, CellKind::Code);
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 2), 90000);
    QCOMPARE(outputText(tab.get(), 0), u"first"_s);
    QCOMPARE(outputText(tab.get(), 2), u"third"_s);
}

void TestCodeTab::pngIsDrawnAsAnImageOfItsSize() {
    auto tab = shownTab();
    QVERIFY(tab);
    QVERIFY(runIn(tab.get(), 0, pngCode(40, 30)));
    QCOMPARE(stateOf(tab.get(), 0), int(CellState::Done));
    OutputView *outputs = tab->cellWidget(0)->outputs();
    QCOMPARE(outputs->images().size(), 1);
    const QImage image = outputs->images().first();
    QCOMPARE(image.size(), QSize(40, 30));
    QCOMPARE(QColor(image.pixel(20, 15)), QColor(255, 0, 0));
    // It is drawn at that size, under its cell, beside the printed text.
    const auto labels = outputs->findChildren<QLabel *>(u"imageOutput"_s);
    QCOMPARE(labels.size(), 1);
    QCOMPARE(labels.first()->pixmap().size(), QSize(40, 30));
    QVERIFY(labels.first()->isVisible());
    QVERIFY(outputs->plainText().contains(u"drawn"_s));
}

void TestCodeTab::exceptionShowsNameValueAndTraceback() {
    auto tab = shownTab();
    QVERIFY(tab);
    QVERIFY(runIn(tab.get(), 0, u"def explode():\n    return 1 / 0\n\nexplode()"_s));
    QCOMPARE(stateOf(tab.get(), 0), int(CellState::Error));
    const QString text = outputText(tab.get(), 0);
    QVERIFY2(text.contains(u"ZeroDivisionError"_s), qPrintable(text));
    QVERIFY(text.contains(u"division by zero"_s));
    QVERIFY(text.contains(u"explode()"_s)); // the traceback's frames
    QVERIFY(!text.contains(u"\x1b"_s));
    // IPython's ANSI colours are drawn, not printed.
    const auto labels = tab->cellWidget(0)->outputs()->findChildren<QLabel *>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *label) {
        return label->text().contains(u"<span style=\"color:"_s);
    }));
    QVERIFY(tab->cellWidget(0)->statusText().startsWith(u"Failed after"_s));
    // Run All stops at the error: what follows stays unrun.
    tab->model()->insertCell(1, CellKind::Code, u"print('after')"_s);
    tab->runAll();
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 0) && !tab->runner()->busy(), 60000);
    QCOMPARE(stateOf(tab.get(), 1), int(CellState::Idle));
    QCOMPARE(outputText(tab.get(), 1), QString());
}

void TestCodeTab::busyLoopShowsItsTimeAndIsInterrupted() {
    auto tab = shownTab();
    QVERIFY(tab);
    QVERIFY(runIn(tab.get(), 0, u"kept = 'still here'"_s));
    const QString marker = m_server.workspace() + u"/looping"_s;
    // The marker says the loop runs in user code, where SIGINT raises KeyboardInterrupt.
    tab->model()->insertCell(1, CellKind::Code,
                             u"open('looping', 'w').close()\nwhile True: pass"_s);
    tab->setCurrentRow(1);
    tab->runCurrent(false);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 60000);
    QCOMPARE(stateOf(tab.get(), 1), int(CellState::Running));
    QCOMPARE(tab->cellWidget(1)->promptText(), u"[*]:"_s);
    QTRY_VERIFY_WITH_TIMEOUT(tab->model()->cell(1)->elapsedMs >= 300, 10000);
    QVERIFY2(tab->cellWidget(1)->statusText().startsWith(u"Running… "_s),
             qPrintable(tab->cellWidget(1)->statusText()));
    QVERIFY(tab->interruptButton()->isEnabled());
    m_prompts.asked.clear();
    QTest::mouseClick(tab->interruptButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 1), 30000);
    QVERIFY(m_prompts.asked.isEmpty()); // the extension did it: nothing to ask
    QCOMPARE(stateOf(tab.get(), 1), int(CellState::Error));
    QVERIFY2(outputText(tab.get(), 1).contains(u"KeyboardInterrupt"_s),
             qPrintable(outputText(tab.get(), 1)));
    QVERIFY(
        tab->cellWidget(1)->statusText().contains(u"Interrupted; the kernel keeps its state"_s));
    QVERIFY(!tab->interruptButton()->isEnabled());
    // The same kernel answers, with its variables.
    tab->model()->insertCell(2, CellKind::Code);
    QVERIFY(runIn(tab.get(), 2, u"kept"_s));
    QCOMPARE(outputText(tab.get(), 2), u"'still here'"_s);
    QCOMPARE(tab->cellWidget(2)->promptText(), u"[3]:"_s);
}

void TestCodeTab::javascriptRunsThroughNode() {
    if (QStandardPaths::findExecutable(u"node"_s).isEmpty())
        QSKIP("node is not installed here");
    auto tab = shownTab();
    QVERIFY(tab);
    QVERIFY(tab->runner()->javascriptAvailable());
    tab->setCurrentRow(0);
    tab->setCurrentLanguage(u"javascript"_s);
    QCOMPARE(tab->model()->cell(0)->language, u"javascript"_s);
    QCOMPARE(tab->cellWidget(0)->editor()->language(), u"javascript"_s);
    QVERIFY(runIn(tab.get(), 0,
                  u"const xs = [1, 2, 3];\nconsole.log(xs.map(x => x * 2).join(','), "
                  u"process.version.startsWith('v'))"_s));
    QCOMPARE(stateOf(tab.get(), 0), int(CellState::Done));
    QCOMPARE(outputText(tab.get(), 0), u"2,4,6 true"_s);
    // No Jupyter session was needed for it.
    QVERIFY(tab->runner()->sessionId().isEmpty());
    // A JavaScript error shows once, named.
    QVERIFY(runIn(tab.get(), 0, u"null.x"_s));
    QCOMPARE(stateOf(tab.get(), 0), int(CellState::Error));
    QVERIFY2(outputText(tab.get(), 0).contains(u"TypeError"_s),
             qPrintable(outputText(tab.get(), 0)));
    QCOMPARE(tab->cellWidget(0)->outputs()->outputCount(), 1);
}

void TestCodeTab::editorIndentsAsJupyter() {
    CodeEditor editor;
    editor.show();
    QTest::keyClicks(&editor, u"def f(x):"_s);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.toPlainText(), u"def f(x):\n    "_s);
    QTest::keyClicks(&editor, u"if x:"_s);
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, u"return 1"_s);
    QTest::keyClick(&editor, Qt::Key_Return);
    QCOMPARE(editor.toPlainText(), u"def f(x):\n    if x:\n        return 1\n    "_s);
    // Backspace in leading blanks goes back a level; Tab forward one.
    QTest::keyClick(&editor, Qt::Key_Backspace);
    QCOMPARE(editor.toPlainText(), u"def f(x):\n    if x:\n        return 1\n"_s);
    QTest::keyClick(&editor, Qt::Key_Tab);
    QTest::keyClicks(&editor, u"y"_s);
    QCOMPARE(editor.toPlainText().section(u'\n', 3), u"    y"_s);
    // Shift+Tab dedents the line; Tab over a selection of lines indents each.
    QTest::keyClick(&editor, Qt::Key_Backtab);
    QCOMPARE(editor.toPlainText().section(u'\n', 3), u"y"_s);
    editor.selectAll();
    QTest::keyClick(&editor, Qt::Key_Tab);
    QCOMPARE(editor.toPlainText(), u"    def f(x):\n        if x:\n            return 1\n    y"_s);
    // The editor grows with its lines, so the notebook scrolls rather than the cell.
    const int height = editor.height();
    QTest::keyClick(&editor, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClick(&editor, Qt::Key_Return);
    QVERIFY(editor.height() > height);
}

QTEST_MAIN(TestCodeTab)
#include "tst_codetab.moc"
