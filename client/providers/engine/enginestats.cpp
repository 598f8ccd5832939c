// EngineSandboxes' resource figures: the Engine API's container stats, read once per call.
#include "client/providers/engine/engineapi.h"
#include "client/providers/engine/enginesandboxes.h"

#include <QPointer>

#include <unistd.h>

namespace sbx {

namespace {
// A container with no memory limit reports its host's memory as its limit, which is no limit to
// show: this machine's, or the remote engine's from its /info.
qint64 hostMemoryBytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? qint64(pages) * size : 0;
}
} // namespace

bool EngineSandboxes::hasResourceFigures(const SandboxEntry &entry) const {
    const Item *item = find(entry.id);
    return item && item->container.state == QLatin1String("running");
}

void EngineSandboxes::readResourceFigures(const QString &id, QObject *context,
                                          ResourceFiguresDone done) {
    const Item *item = find(id);
    if (!item) {
        SandboxProvider::readResourceFigures(id, context, std::move(done));
        return;
    }
    // one-shot: Docker answers at once instead of waiting a second for a second sample; the CPU
    // figure then comes from the previous reading, as podman needs anyway.
    const QString path =
        u"/containers/%1/stats?stream=false&one-shot=true"_s.arg(item->container.id);
    m_api->send(
        EngineRequest::get(path, 10000), this,
        [this, id, context = QPointer<QObject>(context),
         done = std::move(done)](const EngineResponse &response) {
            ResourceFigures figures;
            Status status = response.status();
            Item *found = find(id);
            if (status.ok() && found) {
                ContainerCpuSample sample;
                QString error;
                if (parseContainerStats(response.body, found->lastCpu, &figures, &sample, &error)) {
                    found->lastCpu = sample;
                    const qint64 host = endpoint().kind == EngineEndpoint::Kind::Unix
                                            ? hostMemoryBytes()
                                            : m_engineMemory;
                    if (figures.memLimitBytes && host > 0 &&
                        *figures.memLimitBytes >= host - host / 50)
                        figures.memLimitBytes.reset();
                } else
                    status = Status::error(Status::Kind::BadResponse, error);
            } else if (status.ok()) {
                status =
                    Status::error(Status::Kind::NotFound, tr("The container is no longer listed."));
            }
            if (context)
                done(figures, status);
        });
}

} // namespace sbx
