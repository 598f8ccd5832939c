#pragma once

#include "client/providers/sandboxprovider.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace sbx {

// Engine containers seen as sandboxes: the pure parts (JSON in and out, state mapping, stop
// grace), kept apart from the provider so they are tested without an engine.

inline constexpr auto kEngineManagedLabel = "io.sandbox-console.managed";
inline constexpr auto kAioImageMarker = "agent-infra/sandbox";
inline constexpr int kSandboxContainerPort = 8080;
// Offered first in "New sandbox".
inline constexpr auto kDefaultSandboxImage = "ghcr.io/agent-infra/sandbox:latest";
// Used when the sandbox's shutdown hooks cannot be read (no hooks API, paused, unreachable).
inline constexpr int kDefaultStopGraceSeconds = 30;

// One row of GET /containers/json.
struct EngineContainer {
    QString id;   // full id
    QString name; // without the leading '/'
    QString image;
    QString state;        // running, paused, exited, created, restarting, removing, dead
    QString status;       // "Up 3 minutes", "Exited (0) 2 seconds ago"
    bool managed = false; // created by the console
    int hostPort = 0;     // where container port 8080/tcp is published; 0 when it is not
    QString hostIp;
};

// What GET /containers/{id}/json adds: how to reach and authenticate to the sandbox.
struct EngineContainerDetails {
    bool tty = false;
    QString apiKey;   // SANDBOX_API_KEY from Config.Env
    bool jwt = false; // JWT_PUBLIC_KEY is set
    int hostPort = 0;
    QString hostIp;
};

// What one GET /containers/{id}/stats?stream=false reading keeps for the next one's CPU figure.
struct ContainerCpuSample {
    qint64 cpuNs = 0;    // cpu_stats.cpu_usage.total_usage
    qint64 systemNs = 0; // cpu_stats.system_cpu_usage (every CPU of the host)
    int onlineCpus = 0;
};

// The figures of a stats answer. CPU comes from precpu_stats where the engine filled it
// (Docker), else from previous (podman leaves precpu empty), else there is none yet. Memory
// leaves out the inactive file cache, as `docker stats` does.
bool parseContainerStats(const QByteArray &json, const std::optional<ContainerCpuSample> &previous,
                         ResourceFigures *figures, ContainerCpuSample *sample, QString *error);

// The sandbox containers in a container list: labelled by the console or running the AIO image.
QList<EngineContainer> parseSandboxContainers(const QByteArray &json, QString *error);
bool parseContainerDetails(const QByteArray &json, EngineContainerDetails *out, QString *error);

SandboxState sandboxStateForContainer(const QString &engineState);
// The lasting part of the engine's status text ("Exited (137)"), without the age that changes on
// every poll ("Up 3 minutes", "... 2 seconds ago"): entries change only when something happened.
QString containerStatusDetail(const QString &status);
// "engine:" + the short id on the default engine, "engine@<name>:" + it on another, so the same
// container seen through two engines is two entries.
QString engineEntryId(const QString &containerId, const QString &engineName = {});
QString shortContainerId(const QString &containerId);
// A container in a state where its server answers (running or paused).
bool containerAnswers(const EngineContainer &container);
// 0.0.0.0, :: or none: a port published on every address of the engine host.
bool isWildcardAddress(const QString &hostIp);
// Where a published port answers. engineHost empty (the engine is on this machine):
// http://127.0.0.1:<port> for a loopback or wildcard address. Else a wildcard means engineHost,
// a loopback address is out of reach (invalid) and any other address is itself.
Endpoint containerEndpoint(const QString &hostIp, int hostPort, const QString &engineHost = {});

// Container names the engine accepts: [a-zA-Z0-9][a-zA-Z0-9_.-]*.
bool isValidContainerName(const QString &name);
// The first error in a POST /images/create progress stream (JSON objects one after another);
// empty when the pull succeeded.
QString pullStreamError(const QByteArray &body);
// The POST /containers/create body. authValue is the API key, or the base64 PEM public key.
QByteArray containerCreateBody(const SandboxCreateOptions &options, const QString &authValue);

// How long `stop` may wait before the engine kills the sandbox: hooks of one priority run in
// parallel (the lane lasts as long as its longest timeout), lanes run one after another.
int stopGraceSeconds(const QList<QPair<int, double>> &priorityTimeouts, int margin = 10);

} // namespace sbx
