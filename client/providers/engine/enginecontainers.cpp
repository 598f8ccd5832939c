#include "client/providers/engine/enginecontainers.h"

#include "client/api/envelope.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHostAddress>
#include <QMap>
#include <QRegularExpression>

#include <cmath>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

using nlohmann::json;

// The first binding of 8080/tcp in a NetworkSettings.Ports / HostConfig.PortBindings map.
bool readBinding(const json &ports, int *port, QString *ip) {
    const json &bindings = jsonChild(ports, "8080/tcp");
    if (!bindings.is_array())
        return false;
    for (const json &binding : bindings) {
        const int value = jsonString(binding, "HostPort").toInt();
        if (value > 0) {
            *port = value;
            *ip = jsonString(binding, "HostIp");
            return true;
        }
    }
    return false;
}

} // namespace

QList<EngineContainer> parseSandboxContainers(const QByteArray &body, QString *error) {
    QList<EngineContainer> out;
    json list = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!list.is_array()) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::EngineContainers", "The container engine sent an unreadable container list");
        return out;
    }
    for (const json &row : list) {
        if (!row.is_object())
            continue;
        EngineContainer container;
        container.id = jsonString(row, "Id");
        container.image = jsonString(row, "Image");
        container.state = jsonString(row, "State").toLower();
        container.status = jsonString(row, "Status");
        container.managed =
            jsonString(jsonChild(row, "Labels"), kEngineManagedLabel) == QLatin1String("true");
        if (container.id.isEmpty() ||
            (!container.managed && !container.image.contains(QLatin1String(kAioImageMarker))))
            continue;
        const QStringList names = jsonStringList(row, "Names");
        container.name = names.isEmpty() ? shortContainerId(container.id) : names.first();
        if (container.name.startsWith(QLatin1Char('/')))
            container.name.remove(0, 1);
        const json &ports = jsonChild(row, "Ports");
        if (ports.is_array()) {
            for (const json &port : ports) {
                if (jsonInt(port, "PrivatePort") == kSandboxContainerPort &&
                    jsonString(port, "Type", u"tcp"_s) == QLatin1String("tcp") &&
                    jsonInt(port, "PublicPort") > 0) {
                    container.hostPort = int(jsonInt(port, "PublicPort"));
                    container.hostIp = jsonString(port, "IP");
                    break;
                }
            }
        }
        out.append(container);
    }
    return out;
}

bool parseContainerDetails(const QByteArray &body, EngineContainerDetails *out, QString *error) {
    json object = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!object.is_object()) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::EngineContainers", "The container engine sent unreadable container details");
        return false;
    }
    const json &config = jsonChild(object, "Config");
    out->tty = jsonBool(config, "Tty");
    for (const QString &entry : jsonStringList(config, "Env")) {
        if (entry.startsWith(QLatin1String("SANDBOX_API_KEY=")))
            out->apiKey = entry.mid(16);
        else if (entry.startsWith(QLatin1String("JWT_PUBLIC_KEY=")) && entry.size() > 15)
            out->jwt = true;
    }
    if (!readBinding(jsonChild(jsonChild(object, "NetworkSettings"), "Ports"), &out->hostPort,
                     &out->hostIp))
        readBinding(jsonChild(jsonChild(object, "HostConfig"), "PortBindings"), &out->hostPort,
                    &out->hostIp);
    return true;
}

namespace {
ContainerCpuSample cpuSample(const json &stats) {
    const json &usage = jsonChild(stats, "cpu_usage");
    return {jsonInt(usage, "total_usage"), jsonInt(stats, "system_cpu_usage"),
            int(jsonInt(stats, "online_cpus"))};
}

std::optional<double> cpuPercent(const ContainerCpuSample &before, const ContainerCpuSample &now) {
    const qint64 system = now.systemNs - before.systemNs;
    const qint64 used = now.cpuNs - before.cpuNs;
    if (before.systemNs <= 0 || system <= 0 || used < 0 || now.onlineCpus <= 0)
        return std::nullopt;
    // The system figure counts every CPU of the host: scaled to % of one core, as observe says.
    return double(used) / double(system) * now.onlineCpus * 100.0;
}
} // namespace

bool parseContainerStats(const QByteArray &body, const std::optional<ContainerCpuSample> &previous,
                         ResourceFigures *figures, ContainerCpuSample *sample, QString *error) {
    const json object =
        json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!object.is_object() || !object.contains("memory_stats")) {
        if (error)
            *error = QCoreApplication::translate(
                "sbx::EngineContainers", "The container engine sent unreadable container stats");
        return false;
    }
    ResourceFigures out;
    out.source = QCoreApplication::translate("sbx::EngineContainers",
                                             "the container engine's stats of the container");
    out.at = QDateTime::fromString(jsonString(object, "read"), Qt::ISODateWithMs);
    if (!out.at.isValid() || out.at.date().year() < 2000)
        out.at = QDateTime::currentDateTimeUtc();
    *sample = cpuSample(jsonChild(object, "cpu_stats"));
    const ContainerCpuSample engineBefore = cpuSample(jsonChild(object, "precpu_stats"));
    out.cpuPct = cpuPercent(engineBefore, *sample);
    if (!out.cpuPct && previous)
        out.cpuPct = cpuPercent(*previous, *sample);
    const json &memory = jsonChild(object, "memory_stats");
    const json &detail = jsonChild(memory, "stats");
    // cgroup v2 names it inactive_file, v1 total_inactive_file.
    const qint64 cache = detail.contains("inactive_file") ? jsonInt(detail, "inactive_file")
                                                          : jsonInt(detail, "total_inactive_file");
    const qint64 usage = jsonInt(memory, "usage");
    out.memBytes = usage > cache ? usage - cache : usage;
    // No limit reads as 0 or as a huge number, depending on the engine and cgroup version.
    if (const qint64 limit = jsonInt(memory, "limit"); limit > 0 && limit < (qint64(1) << 60))
        out.memLimitBytes = limit;
    if (const json &pids = jsonChild(object, "pids_stats"); pids.contains("current"))
        out.processCount = jsonInt(pids, "current");
    *figures = out;
    return true;
}

SandboxState sandboxStateForContainer(const QString &engineState) {
    if (engineState == QLatin1String("running"))
        return SandboxState::Online;
    if (engineState == QLatin1String("paused"))
        return SandboxState::Paused;
    if (engineState == QLatin1String("restarting"))
        return SandboxState::Starting;
    if (engineState == QLatin1String("removing") || engineState == QLatin1String("stopping"))
        return SandboxState::Stopping;
    // exited, created, dead, configured, stopped
    return SandboxState::Stopped;
}

QString containerStatusDetail(const QString &status) {
    static const QRegularExpression exited(u"^Exited \\(-?\\d+\\)"_s);
    const auto match = exited.match(status);
    if (match.hasMatch())
        return match.captured(0);
    if (status.startsWith(QLatin1String("Created")))
        return QCoreApplication::translate("sbx::EngineContainers", "Created, not started");
    return {};
}

QString shortContainerId(const QString &containerId) {
    return containerId.left(12);
}

QString engineEntryId(const QString &containerId, const QString &engineName) {
    if (engineName.isEmpty() || engineName == QLatin1String("default"))
        return u"engine:"_s + shortContainerId(containerId);
    return u"engine@"_s + engineName + u':' + shortContainerId(containerId);
}

bool containerAnswers(const EngineContainer &container) {
    return container.state == QLatin1String("running") ||
           container.state == QLatin1String("paused");
}

bool isWildcardAddress(const QString &hostIp) {
    return hostIp.isEmpty() || hostIp == QLatin1String("0.0.0.0") || hostIp == QLatin1String("::");
}

Endpoint containerEndpoint(const QString &hostIp, int hostPort, const QString &engineHost) {
    Endpoint endpoint;
    if (hostPort <= 0)
        return endpoint;
    const bool wildcard = isWildcardAddress(hostIp);
    QString host = hostIp;
    if (engineHost.isEmpty()) {
        // Published on a wildcard address, the sandbox still answers on loopback.
        if (wildcard)
            host = u"127.0.0.1"_s;
    } else if (wildcard) {
        host = engineHost;
    } else if (QHostAddress(hostIp).isLoopback()) {
        return endpoint; // the engine host's own loopback: not from here
    }
    endpoint.baseUrl.setScheme(u"http"_s);
    endpoint.baseUrl.setHost(host);
    endpoint.baseUrl.setPort(hostPort);
    endpoint.baseUrl.setPath(u"/"_s);
    return endpoint;
}

bool isValidContainerName(const QString &name) {
    static const QRegularExpression pattern(u"^[a-zA-Z0-9][a-zA-Z0-9_.-]*$"_s);
    return name.size() <= 128 && pattern.match(name).hasMatch();
}

QByteArray containerCreateBody(const SandboxCreateOptions &options, const QString &authValue) {
    json env = json::array();
    const auto add = [&env](const char *key, const QString &value) {
        if (!value.isEmpty())
            env.push_back(std::string(key) + '=' + value.toStdString());
    };
    add(options.auth == SandboxCreateOptions::Auth::Jwt ? "JWT_PUBLIC_KEY" : "SANDBOX_API_KEY",
        authValue);
    add("RUN_HOOK_INIT", options.initHook);
    add("RUN_HOOK_PRE_SERVICES", options.preServicesHook);
    add("RUN_HOOK_POST_READY", options.postReadyHook);
    const std::string port = std::to_string(kSandboxContainerPort) + "/tcp";
    const QString publishAddress =
        options.publishAddress.isEmpty() ? u"127.0.0.1"_s : options.publishAddress;
    json body = {
        {"Image", options.image.toStdString()},
        {"Env", env},
        {"Labels", {{kEngineManagedLabel, "true"}}},
        {"ExposedPorts", {{port, json::object()}}},
        {"HostConfig",
         {{"PortBindings",
           {{port, json::array({{{"HostIp", publishAddress.toStdString()}, {"HostPort", ""}}})}}}}},
    };
    return QByteArray::fromStdString(body.dump());
}

QString pullStreamError(const QByteArray &body) {
    for (const QByteArray &line : body.split('\n')) {
        const json event =
            json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
        if (!event.is_object())
            continue;
        QString error = jsonString(jsonChild(event, "errorDetail"), "message");
        if (error.isEmpty())
            error = jsonString(event, "error");
        if (!error.isEmpty())
            return error.trimmed();
    }
    return {};
}

int stopGraceSeconds(const QList<QPair<int, double>> &priorityTimeouts, int margin) {
    QMap<int, double> longestPerLane;
    for (const auto &[priority, timeout] : priorityTimeouts) {
        // A hook without a usable timeout gets AIO's default of 10 s.
        const double seconds = std::isfinite(timeout) && timeout > 0 ? timeout : 10.0;
        double &longest = longestPerLane[priority];
        longest = qMax(longest, seconds);
    }
    double total = 0;
    for (const double seconds : std::as_const(longestPerLane))
        total += seconds;
    return int(std::ceil(qMin(total, 24.0 * 3600))) + qMax(0, margin);
}

} // namespace sbx
