// The Code tab's models without a sandbox: nbformat 4 read and write (strings or lists of lines,
// every output type, unknown metadata kept, ids made, JavaScript cells), a written file that
// nbformat itself validates, the notebook model under QAbstractItemModelTester, how outputs are
// shown (mime choice, ANSI colours), the execute answer's parsing, the editor's indentation
// rules and its syntax colours.
#include "client/api/jupyterjobs.h"
#include "models/code/codehighlighter.h"
#include "models/code/codeindent.h"
#include "models/code/nbformat.h"
#include "models/code/notebookmodel.h"
#include "models/code/outputpresentation.h"

#include <QAbstractItemModelTester>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

// A notebook as Jupyter writes it: lists of lines, every output type, metadata of other tools.
const char *const kJupyterNotebook = R"nb({
 "cells": [
  {"cell_type": "markdown", "id": "intro", "metadata": {"tags": ["title"]},
   "source": ["# Title\n", "Some *text*."]},
  {"cell_type": "code", "execution_count": 3, "id": "run-1",
   "metadata": {"collapsed": false, "scrolled": true, "other.tool": {"x": 1}},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["one\n", "two\n"]},
    {"data": {"text/plain": ["42"], "text/html": ["<b>42</b>"]}, "execution_count": 3,
     "metadata": {}, "output_type": "execute_result"},
    {"data": {"image/png": "iVBORw0KGgo=\n", "application/json": {"a": [1, 2]}},
     "metadata": {"image/png": {"width": 10}}, "output_type": "display_data"},
    {"ename": "ValueError", "evalue": "bad", "output_type": "error",
     "traceback": ["\u001b[31mValueError\u001b[0m: bad"]}
   ],
   "source": "x = 1\nx + 41"},
  {"cell_type": "code", "execution_count": null, "metadata": {"vscode": {"languageId": "javascript"}},
   "outputs": [], "source": ["console.log(1)"]
},
  {"cell_type": "raw", "metadata": {}, "source": "raw text"}
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
              "language_info": {"name": "python"}, "custom": {"kept": true}},
 "nbformat": 4,
 "nbformat_minor": 4
})nb";

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

QList<QTextLayout::FormatRange> formatsOf(const QTextDocument &document, int block) {
    return document.findBlockByNumber(block).layout()->formats();
}

// The colour drawn at column in block.
QColor colourAt(const QTextDocument &document, int block, int column) {
    for (const QTextLayout::FormatRange &range : formatsOf(document, block)) {
        if (column >= range.start && column < range.start + range.length)
            return range.format.foreground().color();
    }
    return {};
}

} // namespace

class TestNotebook final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsWhatJupyterWrites();
    void writesWhatItReadAndKeepsMetadata();
    void writtenFileIsValidNbformat();
    void refusesWhatIsNotNbformat4();
    void modelEditsUnderTheTester();
    void modelResultsAndModified();
    void outputsAreShownByTheirBestMime();
    void ansiColoursBecomeHtml();
    void executeAnswerIsParsed();
    void indentationRules();
    void highlighterColoursTokens();
};

void TestNotebook::readsWhatJupyterWrites() {
    QString error;
    const auto document = readNotebook(kJupyterNotebook, &error);
    QVERIFY2(document, qPrintable(error));
    QCOMPARE(document->cells.size(), 4);
    QCOMPARE(document->nbformatMinor, 4);
    const NotebookCell &intro = document->cells.at(0);
    QCOMPARE(intro.kind, CellKind::Markdown);
    QCOMPARE(intro.id, u"intro"_s);
    QCOMPARE(intro.source, u"# Title\nSome *text*."_s);

    const NotebookCell &code = document->cells.at(1);
    QCOMPARE(code.kind, CellKind::Code);
    QCOMPARE(code.language, u"python"_s);
    QCOMPARE(code.source, u"x = 1\nx + 41"_s);
    QCOMPARE(code.executionCount, std::optional<int>(3));
    QCOMPARE(code.outputs.size(), 4);
    QCOMPARE(code.outputs.at(0).kind, CodeOutput::Kind::Stream);
    QCOMPARE(code.outputs.at(0).text, u"one\ntwo\n"_s);
    QCOMPARE(code.outputs.at(1).kind, CodeOutput::Kind::ExecuteResult);
    QCOMPARE(code.outputs.at(1).data["text/plain"].get<std::string>(), "42");
    QCOMPARE(code.outputs.at(1).executionCount, std::optional<int>(3));
    QCOMPARE(code.outputs.at(2).kind, CodeOutput::Kind::DisplayData);
    QCOMPARE(code.outputs.at(2).data["application/json"], json({{"a", {1, 2}}}));
    QCOMPARE(code.outputs.at(3).kind, CodeOutput::Kind::Error);
    QCOMPARE(code.outputs.at(3).ename, u"ValueError"_s);
    QCOMPARE(code.outputs.at(3).traceback.size(), 1);

    // VS Code's languageId says the cell is JavaScript; a 4.4 cell without an id gets one.
    const NotebookCell &js = document->cells.at(2);
    QCOMPARE(js.language, u"javascript"_s);
    QVERIFY(!js.id.isEmpty());
    QVERIFY(js.id != intro.id && js.id != code.id);
    QCOMPARE(document->cells.at(3).kind, CellKind::Raw);
}

void TestNotebook::writesWhatItReadAndKeepsMetadata() {
    const auto document = readNotebook(kJupyterNotebook, nullptr);
    QVERIFY(document);
    const json written = json::parse(writeNotebook(*document).toStdString());
    QCOMPARE(written["nbformat"], json(4));
    QCOMPARE(written["nbformat_minor"], json(5));
    QCOMPARE(written["metadata"]["custom"], json({{"kept", true}}));
    const json &code = written["cells"][1];
    QCOMPARE(code["metadata"]["other.tool"], json({{"x", 1}}));
    QCOMPARE(code["metadata"]["scrolled"], json(true));
    QCOMPARE(code["source"], json({"x = 1\n", "x + 41"}));
    QCOMPARE(code["execution_count"], json(3));
    QCOMPARE(code["outputs"][0],
             json({{"output_type", "stream"}, {"name", "stdout"}, {"text", {"one\n", "two\n"}}}));
    QCOMPARE(code["outputs"][1]["data"]["text/html"], json({"<b>42</b>"}));
    // A base64 image stays one string; JSON mime data stays JSON.
    QCOMPARE(code["outputs"][2]["data"]["image/png"], json("iVBORw0KGgo=\n"));
    QCOMPARE(code["outputs"][2]["data"]["application/json"], json({{"a", {1, 2}}}));
    QCOMPARE(code["outputs"][2]["metadata"]["image/png"]["width"], json(10));
    QCOMPARE(code["outputs"][3]["traceback"], json({"\x1b[31mValueError\x1b[0m: bad"}));
    QCOMPARE(written["cells"][0]["metadata"]["tags"], json({"title"}));
    QCOMPARE(written["cells"][2]["metadata"]["vscode"]["languageId"], json("javascript"));
    for (const json &cell : written["cells"])
        QVERIFY(cell["id"].is_string() && !cell["id"].get<std::string>().empty());
    // Read again, it is the same notebook.
    const auto again = readNotebook(writeNotebook(*document), nullptr);
    QVERIFY(again);
    QCOMPARE(writeNotebook(*again), writeNotebook(*document));
}

void TestNotebook::writtenFileIsValidNbformat() {
    const QString python = pythonWithNbformat();
    if (python.isEmpty())
        QSKIP("no python3 with nbformat here (Debian: python3-nbformat)");
    QTemporaryDir dir;
    NotebookModel model;
    const int code = model.insertCell(1, CellKind::Code, u"print('hi')"_s);
    CodeOutput stream;
    stream.text = u"hi\n"_s;
    CodeOutput result;
    result.kind = CodeOutput::Kind::ExecuteResult;
    result.data = {{"text/plain", "2"}, {"image/svg+xml", "<svg>\n</svg>"}};
    result.executionCount = 2;
    CodeOutput error;
    error.kind = CodeOutput::Kind::Error;
    error.ename = u"E"_s;
    model.setResult(code, CellState::Done, {stream, result, error}, 2, {});
    model.insertCell(2, CellKind::Markdown, u"# notes"_s);
    model.insertCell(3, CellKind::Code, u"console.log(2)"_s, u"javascript"_s);
    for (const auto &[name, bytes] :
         {std::pair{u"made.ipynb"_s, writeNotebook(model.document())},
          std::pair{u"read.ipynb"_s, writeNotebook(*readNotebook(kJupyterNotebook, nullptr))}}) {
        const QString path = dir.filePath(name);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        QProcess validate;
        validate.start(python,
                       {u"-c"_s,
                        u"import nbformat,sys; nbformat.validate(nbformat.read(sys.argv[1], "
                        u"as_version=4))"_s,
                        path});
        QVERIFY(validate.waitForFinished(60000));
        QVERIFY2(validate.exitCode() == 0, validate.readAllStandardError().constData());
    }
}

void TestNotebook::refusesWhatIsNotNbformat4() {
    QString error;
    QVERIFY(!readNotebook("not json", &error));
    QVERIFY(error.contains(u"not JSON"_s));
    QVERIFY(!readNotebook(R"({"nbformat": 3, "worksheets": []})", &error));
    QVERIFY2(error.contains(u"nbformat 3"_s), qPrintable(error));
    QVERIFY(!readNotebook(R"({"nbformat": 4})", &error));
    QVERIFY(error.contains(u"cells"_s));
}

void TestNotebook::modelEditsUnderTheTester() {
    NotebookModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(!model.isModified());
    const int second = model.insertCell(1, CellKind::Code, u"b = 2"_s);
    const int third = model.insertCell(2, CellKind::Markdown, u"# c"_s);
    QCOMPARE(second, 1);
    QCOMPARE(third, 2);
    QVERIFY(model.isModified());
    model.setSource(0, u"a = 1"_s);
    const QString idOfA = model.cell(0)->id;
    QVERIFY(model.moveCell(0, 2));
    QCOMPARE(model.rowOfId(idOfA), 2);
    QCOMPARE(model.data(model.index(0, 0), NotebookModel::SourceRole).toString(), u"b = 2"_s);
    QVERIFY(model.moveCell(2, 0));
    QCOMPARE(model.rowOfId(idOfA), 0);
    QVERIFY(!model.moveCell(0, 5));
    QVERIFY(model.setData(model.index(1, 0), u"b = 3"_s));
    QCOMPARE(model.cell(1)->source, u"b = 3"_s);
    model.setKind(1, CellKind::Markdown);
    QCOMPARE(model.cell(1)->kind, CellKind::Markdown);
    QVERIFY(model.removeCell(1));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!model.removeCell(7));
    model.load(*readNotebook(kJupyterNotebook, nullptr));
    QCOMPARE(model.rowCount(), 4);
    QVERIFY(!model.isModified());
}

void TestNotebook::modelResultsAndModified() {
    NotebookModel model;
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setState(0, CellState::Running);
    QVERIFY(!model.isModified()); // a run starting changes nothing a file holds
    model.setElapsed(0, 150);
    QCOMPARE(changed.constLast().at(2).value<QList<int>>(), QList<int>{NotebookModel::ElapsedRole});
    CodeOutput output;
    output.text = u"x"_s;
    model.setResult(0, CellState::Done, {output}, 1, {});
    QVERIFY(model.isModified());
    QCOMPARE(model.data(model.index(0, 0), NotebookModel::ExecutionCountRole).toInt(), 1);
    QCOMPARE(model.data(model.index(0, 0), NotebookModel::OutputsRole).toInt(), 1);
    const quint64 revision = model.revision();
    model.setModified(false);
    model.clearAllOutputs();
    QVERIFY(model.isModified());
    QVERIFY(model.revision() > revision);
    QCOMPARE(model.cell(0)->outputs.size(), 0);
    QCOMPARE(model.cell(0)->state, CellState::Idle);
    // The document drops the run's state but keeps what a file holds.
    model.setSource(0, u"1"_s);
    QCOMPARE(model.document().cells.at(0).source, u"1"_s);
}

void TestNotebook::outputsAreShownByTheirBestMime() {
    CodeOutput image;
    image.kind = CodeOutput::Kind::DisplayData;
    image.data = {{"text/plain", "<Image>"},
                  {"image/png", QByteArray("PNGDATA").toBase64().toStdString() + "\n"}};
    OutputPresentation p = presentOutput(image);
    QCOMPARE(p.form, OutputPresentation::Form::Image);
    QCOMPARE(p.bytes, QByteArray("PNGDATA"));

    CodeOutput html;
    html.kind = CodeOutput::Kind::ExecuteResult;
    html.data = {{"text/plain", "df"}, {"text/html", "<table></table>"}};
    QCOMPARE(presentOutput(html).form, OutputPresentation::Form::Html);
    // Scripted HTML does nothing in a label: its text stands in.
    html.data["text/html"] = "<div></div><script>plot()</script>";
    QCOMPARE(presentOutput(html).form, OutputPresentation::Form::AnsiText);
    QCOMPARE(presentOutput(html).text, u"df"_s);

    CodeOutput markdown;
    markdown.kind = CodeOutput::Kind::DisplayData;
    markdown.data = {{"text/markdown", "**b**"}, {"text/plain", "b"}};
    QCOMPARE(presentOutput(markdown).form, OutputPresentation::Form::Markdown);

    CodeOutput svg;
    svg.kind = CodeOutput::Kind::DisplayData;
    svg.data = {{"image/svg+xml", "<svg/>"}};
    QCOMPARE(presentOutput(svg).form, OutputPresentation::Form::Svg);

    CodeOutput error;
    error.kind = CodeOutput::Kind::Error;
    error.ename = u"KeyError"_s;
    error.evalue = u"'k'"_s;
    p = presentOutput(error);
    QCOMPARE(p.form, OutputPresentation::Form::Error);
    QCOMPARE(p.text, u"KeyError: 'k'"_s);

    CodeOutput other;
    other.kind = CodeOutput::Kind::DisplayData;
    other.data = {{"application/vnd.custom", "x"}};
    QCOMPARE(presentOutput(other).form, OutputPresentation::Form::Unsupported);
}

void TestNotebook::ansiColoursBecomeHtml() {
    QPalette palette;
    int cut = -1;
    const QString html =
        ansiToHtml(u"\x1b[31mred\x1b[0m <plain> & done\nnext\n"_s, palette, 100, &cut);
    QCOMPARE(cut, 0);
    QVERIFY2(html.contains(u"<span style=\"color:"_s), qPrintable(html));
    QVERIFY(html.contains(u">red</span>"_s));
    QVERIFY(html.contains(u"&lt;plain&gt; &amp; done\nnext</pre>"_s));
    QVERIFY(!html.contains(u"\x1b"_s));
    QString many;
    for (int i = 0; i < 30; ++i)
        many += u"line %1\n"_s.arg(i);
    const QString some = ansiToHtml(many, palette, 10, &cut);
    QCOMPARE(cut, 20);
    QVERIFY(some.contains(u"line 9"_s));
    QVERIFY(!some.contains(u"line 10"_s));
}

void TestNotebook::executeAnswerIsParsed() {
    const QByteArray ok = R"({"success": true, "message": "Code executed", "data": {
        "kernel_name": "python3", "session_id": "s", "status": "ok", "execution_count": 4,
        "msg_id": "m", "code": "1+1", "outputs": [{"output_type": "execute_result", "name": null,
        "text": null, "data": {"text/plain": "2"}, "metadata": {}, "execution_count": 4,
        "ename": null, "evalue": null, "traceback": null}]}})";
    auto [status, execution] = parseJupyterExecution(ok);
    QVERIFY(status.ok());
    QCOMPARE(execution.executionCount, std::optional<int>(4));
    QCOMPARE(execution.outputs.size(), 1);
    QCOMPARE(execution.outputs.at(0).data["text/plain"].get<std::string>(), "2");
    QCOMPARE(execution.sessionId, u"s"_s);
    // The kernel died under the code: the outputs so far, and what happened.
    const QByteArray died = R"({"success": false, "message": "The kernel died", "data": {
        "status": "error", "outputs": [{"output_type": "error", "ename": "KernelDied",
        "evalue": "killed", "traceback": []}]}})";
    std::tie(status, execution) = parseJupyterExecution(died);
    QVERIFY(status.ok());
    QCOMPARE(execution.problem, u"The kernel died"_s);
    QCOMPARE(execution.outputs.at(0).ename, u"KernelDied"_s);
    // A refusal without outputs stays an error.
    std::tie(status, execution) =
        parseJupyterExecution(R"({"success": false, "message": "no", "data": null})");
    QVERIFY(!status.ok());
}

void TestNotebook::indentationRules() {
    using namespace CodeIndent;
    QCOMPARE(newLineIndent(u"def f(x):"_s, u"python"_s), u"    "_s);
    QCOMPARE(newLineIndent(u"    if x:  # comment"_s, u"python"_s), u"        "_s);
    QCOMPARE(newLineIndent(u"    y = 'a:'"_s, u"python"_s), u"    "_s);
    QCOMPARE(newLineIndent(u"s = 'x # y:'"_s, u"python"_s), QString());
    QCOMPARE(newLineIndent(u"        return x"_s, u"python"_s), u"    "_s);
    QCOMPARE(newLineIndent(u"    pass"_s, u"python"_s), QString());
    QCOMPARE(newLineIndent(u"function f() {"_s, u"javascript"_s), u"    "_s);
    QCOMPARE(newLineIndent(u"  x(); // {"_s, u"javascript"_s), u"  "_s);
    QCOMPARE(tabFill(0), u"    "_s);
    QCOMPARE(tabFill(6), u"  "_s);
    QCOMPARE(backspaceWidth(u"        "_s), 4);
    QCOMPARE(backspaceWidth(u"      "_s), 2);
    QCOMPARE(backspaceWidth(u"    x"_s), 1);
    int removed = 0;
    QCOMPARE(dedented(u"      y"_s, &removed), u"  y"_s);
    QCOMPARE(removed, 4);
}

void TestNotebook::highlighterColoursTokens() {
    QTextDocument python;
    CodeHighlighter highlighter(&python, u"python"_s);
    python.setPlainText(
        u"def area(r):  # '#' here\n    s = \"\"\"one\ntwo\"\"\" + 'a#b'\n    return 3.5 * r"_s);
    // A highlighter given a document colours it at the next event loop turn; now, here.
    highlighter.rehighlight();
    const QColor keyword = highlighter.format(CodeHighlighter::Token::Keyword).foreground().color();
    const QColor definition =
        highlighter.format(CodeHighlighter::Token::Definition).foreground().color();
    const QColor string = highlighter.format(CodeHighlighter::Token::String).foreground().color();
    const QColor comment = highlighter.format(CodeHighlighter::Token::Comment).foreground().color();
    const QColor number = highlighter.format(CodeHighlighter::Token::Number).foreground().color();
    QCOMPARE(colourAt(python, 0, 0), keyword);    // def
    QCOMPARE(colourAt(python, 0, 4), definition); // area
    QCOMPARE(colourAt(python, 0, 16), comment);   // # '#' here
    QCOMPARE(colourAt(python, 1, 9), string);     // """one
    QCOMPARE(colourAt(python, 2, 0), string);     // two""" (carried over)
    QCOMPARE(colourAt(python, 2, 10), string);    // 'a#b': the # is no comment
    QVERIFY(colourAt(python, 2, 12) != comment);
    QCOMPARE(colourAt(python, 3, 4), keyword); // return
    QCOMPARE(colourAt(python, 3, 11), number); // 3.5

    QTextDocument js;
    CodeHighlighter jsHighlighter(&js, u"javascript"_s);
    js.setPlainText(u"const f = `a\nb`; /* c\nd */ function g() { return 1; } // e"_s);
    jsHighlighter.rehighlight();
    QCOMPARE(colourAt(js, 0, 0), keyword);
    QCOMPARE(colourAt(js, 0, 10), string);
    QCOMPARE(colourAt(js, 1, 0), string);
    QCOMPARE(colourAt(js, 1, 5), comment);
    QCOMPARE(colourAt(js, 2, 0), comment);
    QCOMPARE(colourAt(js, 2, 5), keyword);     // function
    QCOMPARE(colourAt(js, 2, 14), definition); // g
    QCOMPARE(colourAt(js, 2, 35), comment);
}

QTEST_MAIN(TestNotebook)
#include "tst_notebook.moc"
