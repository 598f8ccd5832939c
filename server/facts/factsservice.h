#pragma once

#include "server/facts/facts.h"
#include "server/facts/factsrender.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace sbx {

struct FactsSnapshot {
    Facts facts;
    std::string sandboxJson;
    std::string llmsText;
};

// Holds the current facts and the two documents rendered from them. Gathers once at start,
// then refreshes on its own thread; requests only read the latest snapshot, never gather.
class FactsService final {
public:
    explicit FactsService(std::string workspace);
    ~FactsService();
    FactsService(const FactsService &) = delete;
    FactsService &operator=(const FactsService &) = delete;

    void setServerDescription(ServerDescription description);
    // Everything, blocking; the version probes run in parallel, each bounded by probeTimeout.
    // When one runs out of time (a slow pip on a busy machine), the refresher's first round
    // retries with a longer bound.
    void gather(std::chrono::milliseconds probeTimeout);
    // Everything that starts no process, in a few milliseconds: the system, the tools and the
    // runtimes on PATH, their versions unknown. The refresher's first round probes them.
    void gatherWithoutProbes();
    // Only the listening ports (cheap), e.g. right after our own listener opened.
    void refreshPorts();
    // Refreshes system facts every interval, and runtimes and tools every slowEvery-th time.
    // Versions not probed yet (gatherWithoutProbes) or that ran out of time are probed after
    // firstProbeDelay: they need not compete with a console's start for the CPU.
    void startRefresher(std::chrono::milliseconds interval, int slowEvery,
                        std::chrono::milliseconds firstProbeDelay = {});
    void stop();

    std::shared_ptr<const FactsSnapshot> snapshot() const;

private:
    void publish(Facts facts);
    void refreshLoop(std::chrono::milliseconds interval, int slowEvery,
                     std::chrono::milliseconds firstProbeDelay);

    const std::string m_workspace;
    ServerDescription m_description;

    // m_updateMutex serialises gatherers; m_snapshotMutex only guards the pointer swap.
    std::mutex m_updateMutex;
    Facts m_facts;
    mutable std::mutex m_snapshotMutex;
    std::shared_ptr<const FactsSnapshot> m_snapshot;

    std::mutex m_stopMutex;
    std::condition_variable m_stopWake;
    bool m_stopping = false;
    std::thread m_refresher;
    std::atomic<bool> m_probesIncomplete{false};
};

} // namespace sbx
