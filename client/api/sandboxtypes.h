#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace sbx {

// GET /v1/sandbox, flattened for display. Field names follow AIO's SandboxResponse.
struct ToolSpec {
    QString ver;
    QString bin;
    QStringList alias;
};

struct AvailableTool {
    QString name;
    QString description;
};

struct ToolCategory {
    QString category;
    QList<AvailableTool> tools;
};

struct SandboxContext {
    QString version;
    QString homeDir;
    QString workspace;
    QString summary; // the envelope's `data` text
    QString os;
    QString osVersion;
    QString arch;
    QString user;
    QString timezone;
    QStringList occupiedPorts;
    QList<ToolSpec> python;
    QList<ToolSpec> nodejs;
    QList<ToolCategory> utils;
    // Server extensions beyond AIO; empty for the real AIO container.
    QStringList extensions;
};

struct Ticket {
    QString ticket;
    int expiresInSeconds = 0;
};

struct ProbeResult {
    qint64 latencyMs = 0;
    QString version;
    QStringList extensions;
};

} // namespace sbx

Q_DECLARE_METATYPE(sbx::SandboxContext)
Q_DECLARE_METATYPE(sbx::ProbeResult)
