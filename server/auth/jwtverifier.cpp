#include "server/auth/jwtverifier.h"

#include "server/core/jsonparse.h"

#include <jwt.h>
#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <memory>

namespace sbx {

namespace {

bool isBase64UrlChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

// A claim that is a number of seconds; JSON floats are allowed (some signers write them).
std::optional<double> numericClaim(const nlohmann::json &claims, const char *name,
                                   bool &malformed) {
    const auto it = claims.find(name);
    if (it == claims.end())
        return std::nullopt;
    if (!it->is_number()) {
        malformed = true;
        return std::nullopt;
    }
    return it->get<double>();
}

} // namespace

JwtVerifier::JwtVerifier(std::string publicKeyPem)
    : m_publicKeyPem(std::move(publicKeyPem)) {}

std::optional<std::string> JwtVerifier::validateKey(std::string_view pem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
    if (!bio)
        return "out of memory";
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
    if (!key)
        return "not a PEM public key";
    if (EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA)
        return "not an RSA key (RS256 needs RSA)";
    return std::nullopt;
}

bool JwtVerifier::looksLikeJwt(std::string_view token) {
    std::size_t dots = 0;
    std::size_t partLength = 0;
    for (const char c : token) {
        if (c == '.') {
            if (partLength == 0)
                return false;
            ++dots;
            partLength = 0;
        } else if (isBase64UrlChar(c)) {
            ++partLength;
        } else {
            return false;
        }
    }
    return dots == 2;
}

JwtCheck JwtVerifier::verify(std::string_view token, std::time_t now) const {
    JwtCheck check;
    if (!looksLikeJwt(token)) {
        check.reason = "not a JWT";
        return check;
    }
    const std::string tokenText(token);
    jwt_t *raw = nullptr;
    const int rc = jwt_decode(&raw, tokenText.c_str(),
                              reinterpret_cast<const unsigned char *>(m_publicKeyPem.data()),
                              static_cast<int>(m_publicKeyPem.size()));
    std::unique_ptr<jwt_t, decltype(&jwt_free)> jwt(raw, &jwt_free);
    if (rc != 0 || !jwt) {
        check.reason = "JWT signature or format invalid";
        return check;
    }
    // The check libjwt 1.10 does not do: the token chose its algorithm, we accept only RS256.
    if (jwt_get_alg(jwt.get()) != JWT_ALG_RS256) {
        check.reason = std::string("JWT algorithm refused: ") + jwt_alg_str(jwt_get_alg(jwt.get()));
        return check;
    }
    char *grants = jwt_get_grants_json(jwt.get(), nullptr);
    if (!grants) {
        check.reason = "JWT has no claims";
        return check;
    }
    const nlohmann::json claims = parseJson(grants).value;
    std::free(grants);
    if (!claims.is_object()) {
        check.reason = "JWT claims are not an object";
        return check;
    }
    bool malformed = false;
    const auto exp = numericClaim(claims, "exp", malformed);
    const auto nbf = numericClaim(claims, "nbf", malformed);
    if (malformed) {
        check.reason = "JWT exp or nbf is not a number";
        return check;
    }
    // A token without an expiry would be a password that never ends: require exp.
    if (!exp) {
        check.reason = "JWT has no exp claim";
        return check;
    }
    if (static_cast<double>(now) >= *exp) {
        check.reason = "JWT expired";
        return check;
    }
    if (nbf && static_cast<double>(now) < *nbf) {
        check.reason = "JWT not valid yet (nbf)";
        return check;
    }
    check.valid = true;
    return check;
}

} // namespace sbx
