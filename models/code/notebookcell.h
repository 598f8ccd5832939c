#pragma once

#include "client/api/jupyterjobs.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>

#include <optional>

namespace sbx {

enum class CellKind { Code, Markdown, Raw };
// Idle: not run in this kernel (or its queue was dropped); Done and Error: its last run.
enum class CellState { Idle, Queued, Running, Done, Error };

// One cell of a notebook: what nbformat 4 stores, and the state of its run in the console.
struct NotebookCell {
    QString id; // nbformat 4.5 cell id
    CellKind kind = CellKind::Code;
    QString source;
    // Code cells: python or javascript. JavaScript cells run through /v1/code (node).
    QString language = QStringLiteral("python");
    QList<CodeOutput> outputs;
    std::optional<int> executionCount;
    // As read, kept for the round trip (tags, collapsed, other tools' keys).
    nlohmann::json metadata = nlohmann::json::object();
    // Markdown and raw cells' attachments as read; null when there are none.
    nlohmann::json attachments;

    // Not saved: the console's run of the cell.
    CellState state = CellState::Idle;
    qint64 elapsedMs = -1; // -1: not run
    // The last run's word beyond its outputs: stopped at its timeout, interrupted, the kernel
    // was restarted, the request failed.
    QString note;
};

// A new cell id as Jupyter makes them: 8 random hex digits, unique in practice.
QString newCellId();

} // namespace sbx
