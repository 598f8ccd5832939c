#pragma once

#include "server/core/streamroute.h"

#include <memory>

namespace sbx {

class SessionRegistry;

// GET /v1/shell/ws: the AIO terminal protocol (JSON text frames) on a shell session, with
// the terminal-replay and terminal-lagged extensions. Each client reads the session's output
// ring at its own pace.
class TerminalSocket final : public UpgradeHandler {
public:
    explicit TerminalSocket(std::shared_ptr<SessionRegistry> registry);
    boost::asio::awaitable<void> handle(UpgradeExchange &exchange) override;

private:
    std::shared_ptr<SessionRegistry> m_registry;
};

} // namespace sbx
