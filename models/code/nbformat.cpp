#include "models/code/nbformat.h"

#include "client/api/envelope.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSet>

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

QString joined(const json &j) {
    if (j.is_string())
        return QString::fromStdString(j.get<std::string>());
    std::string text;
    if (j.is_array()) {
        for (const json &line : j) {
            if (line.is_string())
                text += line.get_ref<const std::string &>();
        }
    }
    return QString::fromStdString(text);
}

// nbformat's multiline_string as Jupyter writes it: lines with their ends.
json lines(const QString &text) {
    json list = json::array();
    const std::string utf8 = text.toStdString();
    std::size_t start = 0;
    while (start < utf8.size()) {
        const std::size_t end = utf8.find('\n', start);
        if (end == std::string::npos) {
            list.push_back(utf8.substr(start));
            break;
        }
        list.push_back(utf8.substr(start, end + 1 - start));
        start = end + 1;
    }
    return list;
}

bool isJsonMime(const std::string &mime) {
    return mime == "application/json" ||
           (mime.starts_with("application/") && mime.ends_with("+json"));
}

// The mime values nbformat splits into lines; the rest (base64 images) stay one string.
bool splitsIntoLines(const std::string &mime) {
    return mime.starts_with("text/") || mime == "application/javascript" || mime == "image/svg+xml";
}

json bundleToWrite(const json &data) {
    json bundle = json::object();
    if (!data.is_object())
        return bundle;
    for (auto it = data.begin(); it != data.end(); ++it) {
        const std::string &mime = it.key();
        if (isJsonMime(mime)) {
            bundle[mime] = *it;
            continue;
        }
        // The schema wants a string (or lines) for every other mime type.
        const std::string text = it->is_string() ? it->get<std::string>() : it->dump();
        bundle[mime] = splitsIntoLines(mime) ? lines(QString::fromStdString(text)) : json(text);
    }
    return bundle;
}

json objectOr(const json &j) {
    return j.is_object() ? j : json::object();
}

json outputToWrite(const CodeOutput &output) {
    switch (output.kind) {
    case CodeOutput::Kind::Stream:
        return {{"output_type", "stream"},
                {"name", output.streamName.isEmpty() ? "stdout" : output.streamName.toStdString()},
                {"text", lines(output.text)}};
    case CodeOutput::Kind::ExecuteResult:
        return {{"output_type", "execute_result"},
                {"data", bundleToWrite(output.data)},
                {"metadata", objectOr(output.metadata)},
                {"execution_count",
                 output.executionCount ? json(*output.executionCount) : json(nullptr)}};
    case CodeOutput::Kind::DisplayData:
        return {{"output_type", "display_data"},
                {"data", bundleToWrite(output.data)},
                {"metadata", objectOr(output.metadata)}};
    case CodeOutput::Kind::Error: {
        json traceback = json::array();
        for (const QString &line : output.traceback)
            traceback.push_back(line.toStdString());
        return {{"output_type", "error"},
                {"ename", output.ename.toStdString()},
                {"evalue", output.evalue.toStdString()},
                {"traceback", std::move(traceback)}};
    }
    case CodeOutput::Kind::Other:
        break;
    }
    return output.raw;
}

const char *cellTypeName(CellKind kind) {
    switch (kind) {
    case CellKind::Code:
        return "code";
    case CellKind::Markdown:
        return "markdown";
    case CellKind::Raw:
        break;
    }
    return "raw";
}

// A cell id nbformat accepts: 1-64 of [a-zA-Z0-9-_].
bool validCellId(const QString &id) {
    if (id.isEmpty() || id.size() > 64)
        return false;
    for (const QChar c : id) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != u'-' && c != u'_')
            return false;
    }
    return true;
}

QString languageOf(const json &metadata) {
    const json &vscode = jsonChild(metadata, "vscode");
    return jsonString(vscode, "languageId");
}

} // namespace

QString newCellId() {
    return QString::number(QRandomGenerator::global()->generate(), 16).rightJustified(8, u'0');
}

QString notebookLanguage(const NotebookDocument &document) {
    const QString kernel = jsonString(jsonChild(document.metadata, "kernelspec"), "language");
    const QString info = jsonString(jsonChild(document.metadata, "language_info"), "name");
    return kernel.compare("javascript"_L1, Qt::CaseInsensitive) == 0 ||
                   info.compare("javascript"_L1, Qt::CaseInsensitive) == 0
               ? u"javascript"_s
               : u"python"_s;
}

std::optional<NotebookDocument> readNotebook(const QByteArray &bytes, QString *error) {
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const json root = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (root.is_discarded() || !root.is_object())
        return fail(QCoreApplication::translate("sbx::Nbformat",
                                                "The file is not a notebook: it is not JSON."));
    const json &version = jsonChild(root, "nbformat");
    if (!version.is_number_integer())
        return fail(QCoreApplication::translate(
            "sbx::Nbformat", "The file is not a notebook: it has no nbformat version."));
    if (version.get<int>() != 4)
        return fail(QCoreApplication::translate(
                        "sbx::Nbformat",
                        "The notebook is nbformat %1; only nbformat 4 can be opened (Jupyter's "
                        "nbconvert --to notebook upgrades older ones).")
                        .arg(version.get<int>()));
    const json &cells = jsonChild(root, "cells");
    if (!cells.is_array())
        return fail(
            QCoreApplication::translate("sbx::Nbformat", "The notebook has no list of cells."));

    NotebookDocument document;
    document.metadata = objectOr(jsonChild(root, "metadata"));
    document.nbformatMinor = static_cast<int>(jsonInt(root, "nbformat_minor", 0));
    const QString language = notebookLanguage(document);
    QSet<QString> ids;
    for (const json &c : cells) {
        if (!c.is_object())
            continue;
        NotebookCell cell;
        const QString type = jsonString(c, "cell_type");
        cell.kind = type == "code"_L1       ? CellKind::Code
                    : type == "markdown"_L1 ? CellKind::Markdown
                                            : CellKind::Raw;
        cell.id = jsonString(c, "id");
        // Ids must be unique in the file written back; nbformat 4.4 and older have none.
        while (!validCellId(cell.id) || ids.contains(cell.id))
            cell.id = newCellId();
        ids.insert(cell.id);
        cell.source = joined(jsonChild(c, "source"));
        cell.metadata = objectOr(jsonChild(c, "metadata"));
        const QString cellLanguage = languageOf(cell.metadata);
        cell.language = cellLanguage == "javascript"_L1 || cellLanguage == "python"_L1
                            ? cellLanguage
                            : language;
        if (cell.kind == CellKind::Code) {
            cell.outputs = parseCodeOutputs(jsonChild(c, "outputs"));
            if (const json &count = jsonChild(c, "execution_count"); count.is_number_integer())
                cell.executionCount = count.get<int>();
        } else if (const json &attachments = jsonChild(c, "attachments"); attachments.is_object()) {
            cell.attachments = attachments;
        }
        document.cells.append(std::move(cell));
    }
    return document;
}

QByteArray writeNotebook(const NotebookDocument &document) {
    const QString language = notebookLanguage(document);
    json cells = json::array();
    QSet<QString> ids;
    for (const NotebookCell &cell : document.cells) {
        QString id = cell.id;
        while (!validCellId(id) || ids.contains(id))
            id = newCellId();
        ids.insert(id);
        json metadata = objectOr(cell.metadata);
        if (cell.kind == CellKind::Code) {
            // A cell in the notebook's language needs no key; one that had another says so.
            const bool other = cell.language != language;
            if (other || !languageOf(metadata).isEmpty()) {
                if (!metadata["vscode"].is_object())
                    metadata["vscode"] = json::object();
                metadata["vscode"]["languageId"] = cell.language.toStdString();
            }
        }
        json c = {{"cell_type", cellTypeName(cell.kind)},
                  {"id", id.toStdString()},
                  {"metadata", std::move(metadata)},
                  {"source", lines(cell.source)}};
        if (cell.kind == CellKind::Code) {
            json outputs = json::array();
            for (const CodeOutput &output : cell.outputs)
                outputs.push_back(outputToWrite(output));
            c["outputs"] = std::move(outputs);
            c["execution_count"] = cell.executionCount ? json(*cell.executionCount) : json(nullptr);
        } else if (cell.attachments.is_object()) {
            c["attachments"] = cell.attachments;
        }
        cells.push_back(std::move(c));
    }
    const json root = {{"cells", std::move(cells)},
                       {"metadata", objectOr(document.metadata)},
                       {"nbformat", 4},
                       {"nbformat_minor", std::max(document.nbformatMinor, 5)}};
    return QByteArray::fromStdString(root.dump(1, ' ', false, json::error_handler_t::replace)) +
           '\n';
}

} // namespace sbx
