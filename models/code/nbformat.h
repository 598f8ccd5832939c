#pragma once

#include "models/code/notebookcell.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace sbx {

// A notebook as its file holds it.
struct NotebookDocument {
    // Notebook metadata as read (kernelspec, language_info, other tools' keys): kept.
    nlohmann::json metadata = nlohmann::json::object();
    int nbformatMinor = 5;
    QList<NotebookCell> cells;
};

// The language code cells of this notebook are in by default: its kernelspec's or
// language_info's language when that is javascript, else python.
QString notebookLanguage(const NotebookDocument &document);

// Reads an .ipynb of nbformat 4 (any minor): multi-line strings as lists or strings, outputs
// stream, execute_result, display_data (mime bundles), error, others kept as they are. A cell's
// language comes from metadata.vscode.languageId (VS Code's key) or the notebook's. nullopt
// with *error set for a file that is not nbformat 4 JSON.
std::optional<NotebookDocument> readNotebook(const QByteArray &bytes, QString *error);

// Writes nbformat 4.5 as Jupyter does: keys sorted, one-space indent, multi-line strings as
// lists of lines (text/* and SVG mime values too; base64 images stay one string), every cell
// with an id, metadata kept. JavaScript cells in a python notebook say so in
// metadata.vscode.languageId.
QByteArray writeNotebook(const NotebookDocument &document);

} // namespace sbx
