#pragma once

#include "server/auth/crypto.h"
#include "server/auth/jwtverifier.h"
#include "server/core/http.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace sbx {

class TicketStore;

struct AuthConfig {
    std::optional<std::string> apiKey;
    // Decoded PEM text of JWT_PUBLIC_KEY.
    std::optional<std::string> jwtPublicKeyPem;
    std::chrono::seconds ticketTtl{30};

    bool enabled() const { return apiKey.has_value() || jwtPublicKeyPem.has_value(); }
};

struct AuthConfigResult {
    AuthConfig config;
    std::optional<std::string> error;
    // Remarks for the startup log (ignored values); never a secret.
    std::vector<std::string> warnings;
};

// Reads SANDBOX_API_KEY, JWT_PUBLIC_KEY and TICKET_TTL_SECONDS, then removes SANDBOX_API_KEY
// from the environment so that hooks and commands the server starts never inherit it.
AuthConfigResult authConfigFromEnvironment();

struct AuthDecision {
    bool allowed = false;
    AuthMethod method = AuthMethod::Open;
    // For the log: which check failed. Never contains a presented value.
    std::string reason;
};

// Decides, before routing and from the header alone, whether a request may pass (design.md
// section 6): API key, RS256 JWT or one-time ticket; with nothing configured, everything passes.
class Authenticator final {
public:
    Authenticator(AuthConfig config, TicketStore &tickets);

    bool enabled() const { return m_config.enabled(); }
    const AuthConfig &config() const { return m_config; }
    // Spends a presented ticket only when nothing else authenticates the request.
    AuthDecision check(const HttpRequest &request) const;
    // The 401 envelope, naming the mechanisms this server accepts.
    HttpResponse refusal() const;
    // "API key, JWT (RS256), one-time tickets", or "none"; for llms.txt and the log.
    std::string mechanisms() const;

private:
    bool apiKeyMatches(std::string_view presented) const;

    AuthConfig m_config;
    crypto::Digest m_apiKeyDigest{};
    std::unique_ptr<JwtVerifier> m_jwt;
    TicketStore &m_tickets;
};

} // namespace sbx
