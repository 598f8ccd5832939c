// The Code tab's notebooks and its degraded sandboxes, against real sandbox-servers: a notebook
// saved on this computer is valid nbformat (nbformat itself says so) and opens again with its
// outputs; a notebook written by nbformat in the sandbox opens from there, runs, and saves back
// with its metadata; a sandbox without the interrupt extension says the cell stops at its
// timeout and offers a restart that works; a sandbox without /v1/jupyter says so.
#include "client/api/jupyterjobs.h"
#include "client/sandboxclient.h"
#include "models/code/notebookmodel.h"
#include "models/code/notebookrunner.h"
#include "models/code/notebookstore.h"
#include "tests/support/jobs.h"
#include "tests/support/scriptedprompts.h"
#include "tests/support/testserver.h"
#include "widgets/code/cellwidget.h"
#include "widgets/code/codeeditor.h"
#include "widgets/code/codetab.h"
#include "widgets/code/outputview.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

bool ended(CodeTab *tab, int row) {
    const NotebookCell *cell = tab->model()->cell(row);
    return cell && (cell->state == CellState::Done || cell->state == CellState::Error);
}

QString outputText(CodeTab *tab, int row) {
    CellWidget *cell = tab->cellWidget(row);
    return cell ? cell->outputs()->plainText() : QString();
}

// A python3 with nbformat (Debian's; PATH's may be another one, pyenv's).
QString pythonWithNbformat() {
    for (const QString &candidate : {u"python3"_s, u"/usr/bin/python3"_s}) {
        QProcess probe;
        probe.start(candidate, {u"-c"_s, u"import nbformat"_s});
        if (probe.waitForFinished(30000) && probe.exitStatus() == QProcess::NormalExit &&
            probe.exitCode() == 0)
            return candidate;
    }
    return {};
}

// Runs a python program with arguments; its stdout, or a failure with its stderr.
bool python(const QString &interpreter, const QString &program, const QStringList &args,
            QString *out) {
    QProcess process;
    process.start(interpreter, QStringList{u"-c"_s, program} + args);
    if (!process.waitForFinished(60000))
        return false;
    *out = QString::fromUtf8(process.exitCode() == 0 ? process.readAllStandardOutput()
                                                     : process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

const QString kValidate =
    u"import nbformat,sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))"_s;

} // namespace

class TestCodeTabFiles final : public QObject {
    Q_OBJECT
private:
    TestServer m_server;
    std::unique_ptr<SandboxClient> m_client;
    ScriptedPrompts m_prompts;
    QTemporaryDir m_dir;
    QString m_python;

    std::unique_ptr<CodeTab> shownTab(SandboxClient *client) {
        auto tab = std::make_unique<CodeTab>(client);
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
    bool runIn(CodeTab *tab, int row, const QString &code) {
        tab->cellWidget(row)->editor()->setPlainText(code);
        tab->setCurrentRow(row);
        tab->runCurrent(false);
        return QTest::qWaitFor([&] { return ended(tab, row); }, 90000);
    }

private Q_SLOTS:
    void initTestCase();
    void savedNotebookIsValidAndOpensAgain();
    void agentNotebookOpensFromTheSandboxRunsAndSavesBack();
    void withoutInterruptTheTimeoutIsSaidAndRestartWorks();
    void sandboxWithoutJupyterSaysSo();
};

void TestCodeTabFiles::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_client = std::make_unique<SandboxClient>(Endpoint{m_server.url(), {}}, Credentials{});
    JupyterInfo info;
    QVERIFY(runJob(new JupyterInfoJob(m_client.get()), &info).ok());
    if (info.availableKernels.isEmpty())
        QSKIP(qPrintable(u"no IPython kernel on this machine: "_s + info.problem));
    m_python = pythonWithNbformat();
}

void TestCodeTabFiles::savedNotebookIsValidAndOpensAgain() {
    if (m_python.isEmpty())
        QSKIP("no python3 with nbformat here (Debian: python3-nbformat)");
    auto tab = shownTab(m_client.get());
    QVERIFY(tab);
    QVERIFY(runIn(tab.get(), 0, u"print('to the file')\n6 * 7"_s));
    tab->model()->insertCell(1, CellKind::Markdown, u"Some *notes*."_s);
    tab->model()->insertCell(2, CellKind::Code, u"console.log('js')"_s, u"javascript"_s);
    QVERIFY(tab->model()->isModified());

    // Save with no location asks for a file; the suffix is added.
    m_prompts.fileAnswer = m_dir.filePath(u"saved"_s);
    tab->save();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->store()->busy(), 15000);
    QVERIFY2(!tab->model()->isModified(), qPrintable(tab->noticeText()));
    const QString path = m_dir.filePath(u"saved.ipynb"_s);
    QVERIFY(QFile::exists(path));
    QString out;
    QVERIFY2(python(m_python, kValidate, {path}, &out), qPrintable(out));
    QVERIFY2(python(m_python,
                    u"import nbformat,sys; nb = nbformat.read(sys.argv[1], as_version=4); "
                    u"c = nb.cells[0]; print(c.execution_count, repr(c.outputs[0].text), "
                    u"c.outputs[1].data['text/plain'], nb.cells[2].metadata.vscode.languageId)"_s,
                    {path}, &out),
             qPrintable(out));
    QCOMPARE(out.trimmed(), u"1 'to the file\\n' 42 javascript"_s);

    // Opened again in a new tab: the cells, their outputs and counts, without running.
    auto again = shownTab(m_client.get());
    QVERIFY(again);
    m_prompts.fileAnswer = path;
    again->openLocal();
    QTRY_COMPARE_WITH_TIMEOUT(again->cellCount(), 3, 15000);
    QCOMPARE(again->cellWidget(0)->promptText(), u"[1]:"_s);
    QCOMPARE(outputText(again.get(), 0), u"to the file\n42"_s);
    QVERIFY(again->cellWidget(1)->isRendered());
    QCOMPARE(again->model()->cell(2)->language, u"javascript"_s);
    QVERIFY(!again->model()->isModified());
    QCOMPARE(again->store()->location().path, path);
    QVERIFY(again->noticeText().startsWith(u"Opened"_s));
}

void TestCodeTabFiles::agentNotebookOpensFromTheSandboxRunsAndSavesBack() {
    if (m_python.isEmpty())
        QSKIP("no python3 with nbformat here (Debian: python3-nbformat)");
    // An agent's notebook, written by nbformat itself into the sandbox's workspace.
    const QString agentPath = m_server.workspace() + u"/agent.ipynb"_s;
    QString out;
    QVERIFY2(python(m_python, uR"(import nbformat, sys
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
nb = new_notebook()
nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'}
nb.metadata['agent'] = {'run': 7}
nb.cells = [new_markdown_cell('# Agent notebook'), new_code_cell('a = 6'),
            new_code_cell('print(a * 7)'), new_code_cell('a * 7')]
nbformat.write(nb, sys.argv[1]))"_s,
                    {agentPath}, &out),
             qPrintable(out));

    auto tab = shownTab(m_client.get());
    QVERIFY(tab);
    m_prompts.textAnswer = [agentPath](const ScriptedPrompts::Question &, const QString &) {
        return std::optional<QString>(agentPath);
    };
    tab->openRemote();
    QTRY_COMPARE_WITH_TIMEOUT(tab->cellCount(), 4, 15000);
    QCOMPARE(tab->store()->location().kind, NotebookLocation::Kind::Sandbox);
    QVERIFY(tab->cellWidget(0)->renderedText().contains(u"Agent notebook"_s));
    QCOMPARE(tab->model()->cell(2)->source, u"print(a * 7)"_s);

    tab->runAll();
    QTRY_VERIFY_WITH_TIMEOUT(ended(tab.get(), 3), 90000);
    QCOMPARE(outputText(tab.get(), 2), u"42"_s);
    QCOMPARE(outputText(tab.get(), 3), u"42"_s);
    QCOMPARE(tab->cellWidget(3)->promptText(), u"[3]:"_s);

    // Saved back into the sandbox (Ctrl+S: where it came from), with the agent's metadata.
    QTest::keySequence(tab.get(), QKeySequence::Save);
    QTRY_VERIFY_WITH_TIMEOUT(!tab->store()->busy() && !tab->model()->isModified(), 15000);
    QVERIFY2(python(m_python, kValidate, {agentPath}, &out), qPrintable(out));
    QVERIFY2(python(m_python,
                    u"import nbformat,sys; nb = nbformat.read(sys.argv[1], as_version=4); "
                    u"print(nb.metadata.agent.run, nb.cells[2].outputs[0].text.strip(), "
                    u"nb.cells[3].execution_count)"_s,
                    {agentPath}, &out),
             qPrintable(out));
    QCOMPARE(out.trimmed(), u"7 42 3"_s);

    // Save as elsewhere in the sandbox; a path that cannot be written says why.
    m_prompts.textAnswer = [](const ScriptedPrompts::Question &, const QString &) {
        return std::optional<QString>(u"/proc/no/such/dir/x.ipynb"_s);
    };
    tab->saveRemoteAs();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->store()->busy(), 15000);
    QVERIFY2(tab->noticeText().contains(u"cannot be written in the sandbox"_s),
             qPrintable(tab->noticeText()));
    m_prompts.textAnswer = [](const ScriptedPrompts::Question &, const QString &initial) {
        return std::optional<QString>(initial);
    };
}

void TestCodeTabFiles::withoutInterruptTheTimeoutIsSaidAndRestartWorks() {
    TestServer plain;
    QVERIFY2(plain.start(TestServer::withArgs({u"--no-extensions"_s})), qPrintable(plain.error()));
    SandboxClient client(Endpoint{plain.url(), {}}, Credentials{});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    QVERIFY(!tab->runner()->canInterrupt());
    QVERIFY(runIn(tab.get(), 0, u"before = 1"_s));
    tab->model()->insertCell(1, CellKind::Code, u"open('spin', 'w').close()\nwhile True: pass"_s);
    tab->setCurrentRow(1);
    tab->runCurrent(false);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(plain.workspace() + u"/spin"_s), 60000);

    // Refused: the cell runs on.
    m_prompts.asked.clear();
    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return false;
    };
    tab->interrupt();
    QCOMPARE(m_prompts.asked.size(), 1);
    QVERIFY2(m_prompts.asked.first().text.contains(u"stops at its timeout"_s),
             qPrintable(m_prompts.asked.first().text));
    QVERIFY(m_prompts.asked.first().text.contains(u"300 s"_s));
    QCOMPARE(tab->model()->cell(1)->state, CellState::Running);

    // Taken: a new kernel, the cell ended saying so, and the next run works in it.
    m_prompts.confirmAnswer = [](const ScriptedPrompts::Question &) {
        return true;
    };
    tab->interrupt();
    QTRY_VERIFY(ended(tab.get(), 1));
    QVERIFY2(tab->cellWidget(1)->statusText().contains(u"restarted"_s),
             qPrintable(tab->cellWidget(1)->statusText()));
    QVERIFY(tab->runner()->sessionId().isEmpty());
    tab->model()->insertCell(2, CellKind::Code);
    QVERIFY(runIn(tab.get(), 2, u"'before' in globals(), 1 + 1"_s));
    QCOMPARE(outputText(tab.get(), 2), u"(False, 2)"_s);
    QCOMPARE(tab->cellWidget(2)->promptText(), u"[1]:"_s);
}

void TestCodeTabFiles::sandboxWithoutJupyterSaysSo() {
    TestServer without;
    QVERIFY2(without.start(TestServer::withArgs({u"--without"_s, u"jupyter"_s})),
             qPrintable(without.error()));
    SandboxClient client(Endpoint{without.url(), {}}, Credentials{});
    auto tab = shownTab(&client);
    QVERIFY(tab);
    QVERIFY(tab->runner()->noJupyterApi());
    QVERIFY(tab->showsNoJupyterApi());
    QVERIFY2(tab->noJupyterText().contains(u"no Jupyter API (/v1/jupyter)"_s),
             qPrintable(tab->noJupyterText()));
    QVERIFY(tab->noJupyterText().contains(u"JavaScript cells run through /v1/code"_s));
    // A Python cell says why it cannot run.
    QVERIFY(runIn(tab.get(), 0, u"1 + 1"_s));
    QCOMPARE(tab->model()->cell(0)->state, CellState::Error);
    QVERIFY2(tab->cellWidget(0)->statusText().contains(u"no Jupyter API"_s),
             qPrintable(tab->cellWidget(0)->statusText()));
}

QTEST_MAIN(TestCodeTabFiles)
#include "tst_codetab_files.moc"
