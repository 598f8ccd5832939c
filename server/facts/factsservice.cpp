#include "server/facts/factsservice.h"

#include "server/core/log.h"
#include "server/facts/factsgatherer.h"

#include <exception>

namespace sbx {

FactsService::FactsService(std::string workspace)
    : m_workspace(std::move(workspace)) {
    publish(Facts{});
}

FactsService::~FactsService() {
    stop();
}

void FactsService::setServerDescription(ServerDescription description) {
    std::lock_guard lock(m_updateMutex);
    m_description = std::move(description);
}

namespace {

// For the background retry of probes that ran out of time at start.
constexpr std::chrono::seconds kPatientProbeTimeout{10};

} // namespace

void FactsService::gather(std::chrono::milliseconds probeTimeout) {
    const auto started = std::chrono::steady_clock::now();
    Facts facts;
    facts.system = facts::gatherSystem(m_workspace);
    bool allAnswered = true;
    facts.runtime = facts::gatherRuntimes(probeTimeout, &allAnswered);
    m_probesIncomplete = !allAnswered;
    facts.utils = facts::gatherTools();
    {
        std::lock_guard lock(m_updateMutex);
        m_facts = facts;
        publish(std::move(facts));
    }
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    log::debug("facts gathered in " + std::to_string(elapsed.count()) + " ms" +
               (allAnswered ? "" : "; a version probe ran out of time"));
}

void FactsService::gatherWithoutProbes() {
    Facts facts;
    facts.system = facts::gatherSystem(m_workspace);
    facts.runtime = facts::locateRuntimes();
    facts.utils = facts::gatherTools();
    m_probesIncomplete = true;
    std::lock_guard lock(m_updateMutex);
    m_facts = facts;
    publish(std::move(facts));
}

void FactsService::refreshPorts() {
    auto ports = facts::occupiedPorts();
    std::lock_guard lock(m_updateMutex);
    m_facts.system.occupiedPorts = std::move(ports);
    publish(m_facts);
}

void FactsService::publish(Facts facts) {
    auto snapshot = std::make_shared<FactsSnapshot>();
    snapshot->sandboxJson = renderSandboxJson(facts, m_description);
    snapshot->llmsText = renderLlmsText(facts, m_description);
    snapshot->facts = std::move(facts);
    std::lock_guard lock(m_snapshotMutex);
    m_snapshot = std::move(snapshot);
}

std::shared_ptr<const FactsSnapshot> FactsService::snapshot() const {
    std::lock_guard lock(m_snapshotMutex);
    return m_snapshot;
}

void FactsService::startRefresher(std::chrono::milliseconds interval, int slowEvery,
                                  std::chrono::milliseconds firstProbeDelay) {
    if (m_refresher.joinable())
        return;
    m_refresher = std::thread([this, interval, slowEvery, firstProbeDelay] {
        refreshLoop(interval, slowEvery, firstProbeDelay);
    });
}

void FactsService::refreshLoop(std::chrono::milliseconds interval, int slowEvery,
                               std::chrono::milliseconds firstProbeDelay) {
    int round = 0;
    for (;;) {
        // Once only: a tool that always hangs must not keep a probe running all the time.
        const bool retryProbes = round == 0 && m_probesIncomplete;
        {
            std::unique_lock lock(m_stopMutex);
            const auto wait = retryProbes ? firstProbeDelay : interval;
            if (m_stopWake.wait_for(lock, wait, [this] { return m_stopping; }))
                return;
        }
        try {
            ++round;
            // Version probes start processes: doing them on every round would cost CPU for
            // facts that change only when someone installs something.
            if (retryProbes || (slowEvery > 0 && round % slowEvery == 0)) {
                gather(kPatientProbeTimeout);
            } else {
                SystemFacts system = facts::gatherSystem(m_workspace);
                std::lock_guard lock(m_updateMutex);
                m_facts.system = std::move(system);
                publish(m_facts);
            }
        } catch (const std::exception &e) {
            log::warning(std::string("refreshing the sandbox facts failed: ") + e.what());
        }
    }
}

void FactsService::stop() {
    {
        std::lock_guard lock(m_stopMutex);
        m_stopping = true;
    }
    m_stopWake.notify_all();
    if (m_refresher.joinable())
        m_refresher.join();
}

} // namespace sbx
