// EngineSandboxes over SSH: the link's state is the engine's, and each sandbox that answers is
// reached through a local port forward the link adds and cancels.
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/engine/sshlink.h"

namespace sbx {

bool EngineSandboxes::linkReady() {
    if (!m_link || m_link->state() == SshLink::State::Up)
        return true;
    switch (m_link->state()) {
    case SshLink::State::Idle:
        m_link->connectToHost();
        break;
    case SshLink::State::Failed:
        // A dropped or refused connection is tried again on the next poll; a refused key or a
        // changed host key waits for the user.
        if (m_link->retryable())
            m_link->connectToHost();
        break;
    default:
        break;
    }
    return false;
}

void EngineSandboxes::reconnect() {
    if (m_link && m_link->state() == SshLink::State::Failed)
        m_link->connectToHost();
    refresh();
}

void EngineSandboxes::onLinkState() {
    switch (m_link->state()) {
    case SshLink::State::Up:
        refresh();
        break;
    case SshLink::State::Connecting:
        setEngineStatus(false, tr("Connecting to %1 over SSH").arg(m_link->endpoint().where()));
        break;
    default:
        setEngineStatus(false, m_link->problem());
        clearAll();
        break;
    }
}

void EngineSandboxes::syncForward(Item &item) {
    if (!m_link)
        return;
    const bool answers = containerAnswers(item.container);
    if (item.forwardPort > 0 && (!answers || item.forwardedHostPort != item.container.hostPort))
        dropForward(item);
    if (!answers || item.container.hostPort <= 0 || item.forwardPort > 0 || item.forwarding ||
        m_link->state() != SshLink::State::Up)
        return;
    // Seen from the engine host: its loopback for a loopback or wildcard binding.
    const QString hostIp = item.container.hostIp;
    item.forwarding = true;
    const QString id = item.entry.id;
    const int hostPort = item.container.hostPort;
    m_link->forwardPort(isWildcardAddress(hostIp) ? u"127.0.0.1"_s : hostIp, hostPort, this,
                        [this, id, hostPort](int localPort, const QString &why) {
                            Item *current = find(id);
                            if (!current) {
                                if (localPort > 0)
                                    m_link->cancelForward(localPort);
                                return;
                            }
                            current->forwarding = false;
                            current->forwardPort = qMax(0, localPort);
                            current->forwardedHostPort = localPort > 0 ? hostPort : 0;
                            current->forwardProblem = why;
                            publishIfChanged(*current);
                        });
}

void EngineSandboxes::dropForward(Item &item) {
    if (!m_link || item.forwardPort <= 0)
        return;
    m_link->cancelForward(item.forwardPort);
    item.forwardPort = 0;
    item.forwardedHostPort = 0;
}

} // namespace sbx
