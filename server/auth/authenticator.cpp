#include "server/auth/authenticator.h"

#include "server/auth/ticketstore.h"
#include "server/core/secretenv.h"

#include <charconv>
#include <cstdlib>
#include <ctime>

namespace sbx {

namespace {

std::optional<std::string> environmentValue(const char *name) {
    // Not for secrets: takeEnvironmentSecret.
    const char *value = std::getenv(name);
    if (!value)
        return std::nullopt;
    return std::string(value);
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

} // namespace

AuthConfigResult authConfigFromEnvironment() {
    AuthConfigResult result;
    // Both are taken out of the environment whatever follows: a refused value is a secret too.
    std::optional<std::string> key = takeEnvironmentSecret("SANDBOX_API_KEY");
    std::optional<std::string> encoded = takeEnvironmentSecret("JWT_PUBLIC_KEY");
    if (key) {
        // Starting without authentication because a key came out empty would fail open.
        if (trimmed(*key).empty()) {
            result.error = "SANDBOX_API_KEY is set but empty: refusing to start without the "
                           "authentication it asks for (unset it to run without)";
            return result;
        }
        if (trimmed(*key) != *key) {
            result.error = "SANDBOX_API_KEY begins or ends with white space: refusing a key "
                           "that clients could not send as set";
            return result;
        }
        result.config.apiKey = std::move(*key);
    }
    if (encoded) {
        if (trimmed(*encoded).empty()) {
            result.error = "JWT_PUBLIC_KEY is set but empty: refusing to start without the "
                           "authentication it asks for (unset it to run without)";
            return result;
        } else {
            auto pem = crypto::base64Decode(trimmed(*encoded));
            if (!pem) {
                result.error = "JWT_PUBLIC_KEY is not base64 (expected `base64 -w 0 public.pem`)";
                return result;
            }
            if (auto problem = JwtVerifier::validateKey(*pem)) {
                result.error = "JWT_PUBLIC_KEY does not hold a usable key: " + *problem;
                return result;
            }
            result.config.jwtPublicKeyPem = std::move(*pem);
        }
    }
    if (auto ttl = environmentValue("TICKET_TTL_SECONDS")) {
        long seconds = 0;
        const auto [end, ec] = std::from_chars(ttl->data(), ttl->data() + ttl->size(), seconds);
        if (ec != std::errc() || end != ttl->data() + ttl->size() || seconds <= 0 ||
            seconds > 86400)
            result.warnings.push_back("TICKET_TTL_SECONDS='" + *ttl +
                                      "' is not a number of seconds from 1 to 86400: using 30");
        else
            result.config.ticketTtl = std::chrono::seconds(seconds);
    }
    return result;
}

Authenticator::Authenticator(AuthConfig config, TicketStore &tickets)
    : m_config(std::move(config))
    , m_tickets(tickets) {
    if (m_config.apiKey)
        m_apiKeyDigest = crypto::sha256(*m_config.apiKey);
    if (m_config.jwtPublicKeyPem)
        m_jwt = std::make_unique<JwtVerifier>(*m_config.jwtPublicKeyPem);
}

bool Authenticator::apiKeyMatches(std::string_view presented) const {
    return m_config.apiKey && crypto::constantTimeEquals(presented, m_apiKeyDigest);
}

AuthDecision Authenticator::check(const HttpRequest &request) const {
    AuthDecision decision;
    if (!enabled()) {
        decision.allowed = true;
        decision.method = AuthMethod::Open;
        return decision;
    }
    std::string reasons;
    auto refuse = [&](std::string_view why) {
        if (!reasons.empty())
            reasons += "; ";
        reasons += why;
    };

    if (const auto key = request.header("X-AIO-API-Key")) {
        if (apiKeyMatches(*key))
            return {true, AuthMethod::ApiKey, {}};
        refuse(m_config.apiKey ? "wrong X-AIO-API-Key" : "X-AIO-API-Key sent but no key is set");
    }
    if (const auto authorization = request.header("Authorization")) {
        std::string_view value = *authorization;
        if (value.size() > 7 && iequals(value.substr(0, 7), "Bearer ")) {
            const std::string bearer = trimmed(value.substr(7));
            if (m_jwt && JwtVerifier::looksLikeJwt(bearer)) {
                const JwtCheck jwt = m_jwt->verify(bearer, std::time(nullptr));
                if (jwt.valid)
                    return {true, AuthMethod::Jwt, {}};
                refuse(jwt.reason);
            } else if (apiKeyMatches(bearer)) {
                return {true, AuthMethod::ApiKey, {}};
            } else {
                refuse("wrong Bearer value");
            }
        } else {
            refuse("Authorization is not a Bearer value");
        }
    }
    if (const auto key = request.queryValue("api_key")) {
        if (apiKeyMatches(*key))
            return {true, AuthMethod::ApiKey, {}};
        refuse("wrong api_key");
    }
    if (const auto ticket = request.queryValue("ticket")) {
        if (m_tickets.consume(*ticket))
            return {true, AuthMethod::Ticket, {}};
        refuse("unknown, spent or expired ticket");
    }
    if (reasons.empty())
        reasons = "no credentials";
    decision.allowed = false;
    decision.reason = std::move(reasons);
    return decision;
}

HttpResponse Authenticator::refusal() const {
    std::string message = "Authentication required: send ";
    std::vector<std::string> ways;
    if (m_config.apiKey)
        ways.emplace_back("the API key as X-AIO-API-Key, Authorization: Bearer or ?api_key=");
    if (m_jwt)
        ways.emplace_back("an RS256 JWT as Authorization: Bearer");
    ways.emplace_back("a one-time ticket from POST /tickets as ?ticket=");
    for (std::size_t i = 0; i < ways.size(); ++i) {
        if (i > 0)
            message += i + 1 == ways.size() ? ", or " : ", ";
        message += ways[i];
    }
    HttpResponse response = errorResponse(401, std::move(message));
    response.headers.emplace_back("WWW-Authenticate", "Bearer");
    return response;
}

std::string Authenticator::mechanisms() const {
    if (!enabled())
        return "none (open)";
    std::string text;
    if (m_config.apiKey)
        text += "API key (X-AIO-API-Key, Authorization: Bearer, ?api_key=), ";
    if (m_jwt)
        text += "JWT RS256 (Authorization: Bearer), ";
    text += "one-time tickets (POST /tickets, then ?ticket=; " +
            std::to_string(m_config.ticketTtl.count()) + " s)";
    return text;
}

} // namespace sbx
