#pragma once

#include "models/code/nbformat.h"

#include <QAbstractListModel>

namespace sbx {

// The notebook the Code tab shows: one row per cell, in order, with the notebook's metadata.
// Edits (source, kind, language, order) mark it modified; runs (state, outputs, counts) come
// from a NotebookRunner and mark it modified only when outputs change.
class NotebookModel final : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        SourceRole,
        KindRole,           // CellKind as int
        LanguageRole,       // python or javascript
        StateRole,          // CellState as int
        ExecutionCountRole, // int, or invalid when none
        ElapsedRole,        // ms, -1 when not run
        OutputsRole,        // the number of outputs; dataChanged with it means they changed
        NoteRole,
    };

    explicit NotebookModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Replaces the whole notebook (a file opened).
    void load(NotebookDocument document);
    // An empty notebook with one code cell, for the kernel named (its kernelspec metadata).
    void reset(const QString &kernelName = QStringLiteral("python3"));
    // The notebook as a file holds it, states dropped.
    NotebookDocument document() const;

    const NotebookCell *cell(int row) const;
    // O(cells): notebooks hold hundreds of cells at most, and this runs per run, not per paint.
    int rowOfId(const QString &id) const;
    QString defaultLanguage() const;

    // The new cell's row. language empty: the notebook's.
    int insertCell(int row, CellKind kind, const QString &source = {},
                   const QString &language = {});
    bool removeCell(int row);
    // Moves the cell at from so that it ends at row to.
    bool moveCell(int from, int to);
    void setSource(int row, const QString &source);
    void setKind(int row, CellKind kind);
    void setLanguage(int row, const QString &language);
    void clearOutputs(int row);
    void clearAllOutputs();
    // The kernelspec written into the metadata (python kernels only).
    void setKernelSpec(const QString &name, const QString &displayName);

    // For the runner.
    void setState(int row, CellState state);
    void setElapsed(int row, qint64 ms);
    // Ends a run: outputs, count and note replace what the cell had.
    void setResult(int row, CellState state, const QList<CodeOutput> &outputs,
                   std::optional<int> executionCount, const QString &note);
    void setNote(int row, const QString &note);

    bool isModified() const { return m_modified; }
    void setModified(bool modified);
    // Counts edits (anything that marks the notebook modified), so a save that took a while
    // can tell whether what it wrote is still what the notebook holds.
    quint64 revision() const { return m_revision; }

Q_SIGNALS:
    void modifiedChanged(bool modified);

private:
    void changed(int row, const QList<int> &roles, bool modifies);

    NotebookDocument m_document;
    bool m_modified = false;
    quint64 m_revision = 0;
};

} // namespace sbx
