#include "models/code/notebookmodel.h"

#include "client/api/envelope.h"

namespace sbx {

using namespace Qt::StringLiterals;
using nlohmann::json;

NotebookModel::NotebookModel(QObject *parent)
    : QAbstractListModel(parent) {
    reset();
}

int NotebookModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_document.cells.size());
}

QVariant NotebookModel::data(const QModelIndex &index, int role) const {
    const NotebookCell *c = index.isValid() ? cell(index.row()) : nullptr;
    if (!c)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return c->source.section(u'\n', 0, 0);
    case Qt::EditRole:
    case SourceRole:
        return c->source;
    case IdRole:
        return c->id;
    case KindRole:
        return static_cast<int>(c->kind);
    case LanguageRole:
        return c->language;
    case StateRole:
        return static_cast<int>(c->state);
    case ExecutionCountRole:
        return c->executionCount ? QVariant(*c->executionCount) : QVariant();
    case ElapsedRole:
        return c->elapsedMs;
    case OutputsRole:
        return static_cast<int>(c->outputs.size());
    case NoteRole:
        return c->note;
    default:
        return {};
    }
}

bool NotebookModel::setData(const QModelIndex &index, const QVariant &value, int role) {
    if (!index.isValid() || !cell(index.row()) || (role != Qt::EditRole && role != SourceRole))
        return false;
    setSource(index.row(), value.toString());
    return true;
}

Qt::ItemFlags NotebookModel::flags(const QModelIndex &index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> NotebookModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{IdRole, "id"},
                  {SourceRole, "source"},
                  {KindRole, "kind"},
                  {LanguageRole, "language"},
                  {StateRole, "state"},
                  {ExecutionCountRole, "executionCount"},
                  {ElapsedRole, "elapsed"},
                  {OutputsRole, "outputs"},
                  {NoteRole, "note"}});
    return names;
}

void NotebookModel::load(NotebookDocument document) {
    beginResetModel();
    m_document = std::move(document);
    endResetModel();
    setModified(false);
}

void NotebookModel::reset(const QString &kernelName) {
    NotebookDocument document;
    document.metadata = {{"kernelspec",
                          {{"name", kernelName.toStdString()},
                           {"display_name", "Python 3 (ipykernel)"},
                           {"language", "python"}}},
                         {"language_info", {{"name", "python"}}}};
    NotebookCell first;
    first.id = newCellId();
    document.cells.append(first);
    load(std::move(document));
}

NotebookDocument NotebookModel::document() const {
    return m_document;
}

const NotebookCell *NotebookModel::cell(int row) const {
    return row >= 0 && row < m_document.cells.size() ? &m_document.cells.at(row) : nullptr;
}

int NotebookModel::rowOfId(const QString &id) const {
    for (int row = 0; row < m_document.cells.size(); ++row) {
        if (m_document.cells.at(row).id == id)
            return row;
    }
    return -1;
}

QString NotebookModel::defaultLanguage() const {
    return notebookLanguage(m_document);
}

int NotebookModel::insertCell(int row, CellKind kind, const QString &source,
                              const QString &language) {
    row = std::clamp(row, 0, rowCount());
    NotebookCell c;
    do
        c.id = newCellId();
    while (rowOfId(c.id) >= 0);
    c.kind = kind;
    c.source = source;
    c.language = language.isEmpty() ? defaultLanguage() : language;
    beginInsertRows({}, row, row);
    m_document.cells.insert(row, std::move(c));
    endInsertRows();
    setModified(true);
    return row;
}

bool NotebookModel::removeCell(int row) {
    if (!cell(row))
        return false;
    beginRemoveRows({}, row, row);
    m_document.cells.removeAt(row);
    endRemoveRows();
    setModified(true);
    return true;
}

bool NotebookModel::moveCell(int from, int to) {
    if (!cell(from) || !cell(to) || from == to)
        return false;
    // beginMoveRows names the row the cell goes before, in the rows as they are now.
    if (!beginMoveRows({}, from, from, {}, to > from ? to + 1 : to))
        return false;
    m_document.cells.move(from, to);
    endMoveRows();
    setModified(true);
    return true;
}

void NotebookModel::setSource(int row, const QString &source) {
    if (!cell(row) || m_document.cells[row].source == source)
        return;
    m_document.cells[row].source = source;
    changed(row, {Qt::DisplayRole, Qt::EditRole, SourceRole}, true);
}

void NotebookModel::setKind(int row, CellKind kind) {
    if (!cell(row) || m_document.cells[row].kind == kind)
        return;
    NotebookCell &c = m_document.cells[row];
    c.kind = kind;
    // Only code cells have outputs and counts in nbformat.
    if (kind != CellKind::Code) {
        c.outputs.clear();
        c.executionCount.reset();
    } else {
        c.attachments = json();
    }
    c.state = CellState::Idle;
    c.note.clear();
    changed(row, {KindRole, OutputsRole, ExecutionCountRole, StateRole, NoteRole}, true);
}

void NotebookModel::setLanguage(int row, const QString &language) {
    if (!cell(row) || m_document.cells[row].language == language)
        return;
    m_document.cells[row].language = language;
    changed(row, {LanguageRole}, true);
}

void NotebookModel::clearOutputs(int row) {
    if (!cell(row))
        return;
    NotebookCell &c = m_document.cells[row];
    if (c.outputs.isEmpty() && !c.executionCount && c.note.isEmpty())
        return;
    c.outputs.clear();
    c.executionCount.reset();
    c.note.clear();
    c.elapsedMs = -1;
    if (c.state == CellState::Done || c.state == CellState::Error)
        c.state = CellState::Idle;
    changed(row, {OutputsRole, ExecutionCountRole, NoteRole, ElapsedRole, StateRole}, true);
}

void NotebookModel::clearAllOutputs() {
    for (int row = 0; row < rowCount(); ++row)
        clearOutputs(row);
}

void NotebookModel::setKernelSpec(const QString &name, const QString &displayName) {
    json &spec = m_document.metadata["kernelspec"];
    if (!spec.is_object())
        spec = json::object();
    if (jsonString(spec, "name") == name)
        return;
    spec["name"] = name.toStdString();
    spec["display_name"] = (displayName.isEmpty() ? name : displayName).toStdString();
    spec["language"] = "python";
    setModified(true);
}

void NotebookModel::setState(int row, CellState state) {
    if (!cell(row) || m_document.cells[row].state == state)
        return;
    NotebookCell &c = m_document.cells[row];
    c.state = state;
    if (state == CellState::Running) {
        c.elapsedMs = 0;
        c.note.clear();
        changed(row, {StateRole, ElapsedRole, NoteRole}, false);
        return;
    }
    changed(row, {StateRole}, false);
}

void NotebookModel::setElapsed(int row, qint64 ms) {
    if (!cell(row) || m_document.cells[row].elapsedMs == ms)
        return;
    m_document.cells[row].elapsedMs = ms;
    changed(row, {ElapsedRole}, false);
}

void NotebookModel::setResult(int row, CellState state, const QList<CodeOutput> &outputs,
                              std::optional<int> executionCount, const QString &note) {
    if (!cell(row))
        return;
    NotebookCell &c = m_document.cells[row];
    c.state = state;
    c.outputs = outputs;
    c.executionCount = executionCount;
    c.note = note;
    changed(row, {StateRole, OutputsRole, ExecutionCountRole, NoteRole}, true);
}

void NotebookModel::setNote(int row, const QString &note) {
    if (!cell(row) || m_document.cells[row].note == note)
        return;
    m_document.cells[row].note = note;
    changed(row, {NoteRole}, false);
}

void NotebookModel::setModified(bool modified) {
    if (modified)
        ++m_revision;
    if (m_modified == modified)
        return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

void NotebookModel::changed(int row, const QList<int> &roles, bool modifies) {
    const QModelIndex at = index(row, 0);
    Q_EMIT dataChanged(at, at, roles);
    if (modifies)
        setModified(true);
}

} // namespace sbx
