#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace sbx {

struct JwtCheck {
    bool valid = false;
    // Why not, for the log; never contains the token.
    std::string reason;
};

// Verifies RS256 JWTs against one RSA public key. libjwt 1.10 trusts the token's own "alg"
// (an HS256 token "signed" with the public key text passes its check), so the algorithm and
// the exp/nbf claims are checked here after decoding.
class JwtVerifier final {
public:
    explicit JwtVerifier(std::string publicKeyPem);

    // The error when pem is not an RSA public key in PEM form.
    static std::optional<std::string> validateKey(std::string_view pem);
    // Three base64url parts separated by dots; the last may be empty (alg "none").
    static bool looksLikeJwt(std::string_view token);

    JwtCheck verify(std::string_view token, std::time_t now) const;

private:
    std::string m_publicKeyPem;
};

} // namespace sbx
